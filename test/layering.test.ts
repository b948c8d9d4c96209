import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = resolve(import.meta.dirname, '../src')
const PROTOCOLS_DIR = join(SRC, 'protocols')

/** Every relative module specifier a TypeScript source imports or re-exports (static and dynamic). */
function importSpecifiers(source: string): string[] {
  const found: string[] = []
  const patterns = [
    /\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]!)
  return found.filter((s) => s.startsWith('.'))
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : []
  })
}

/** The folders under `protocols/` (each a protocol module, or the oracles the pipeline reads). */
function protocolFolders(): string[] {
  return readdirSync(PROTOCOLS_DIR).filter((name) => statSync(join(PROTOCOLS_DIR, name)).isDirectory())
}

/**
 * What a file inside protocol folder `own` may not import: another protocol's folder, the API, the
 * indexer or the CLI. Returns a line per offending import.
 */
function layeringViolations(file: string, own: string, source: string, folders: string[]): string[] {
  const forbidden = [
    ...folders.filter((f) => f !== own).map((f) => join(PROTOCOLS_DIR, f) + sep),
    join(SRC, 'api') + sep,
    join(SRC, 'indexer') + sep,
    join(SRC, 'cli') + sep,
  ]
  return importSpecifiers(source)
    .map((spec) => ({ spec, target: resolve(dirname(file), spec) }))
    .filter(({ target }) => forbidden.some((prefix) => target.startsWith(prefix)))
    .map(({ spec }) => `${relative(SRC, file)} imports ${spec}`)
}

describe('protocol modules are layered', () => {
  it('no protocol imports another protocol, api/, indexer/ or cli/', () => {
    const folders = protocolFolders()
    expect(folders).toContain('vaultprotocol')
    const violations = folders.flatMap((own) =>
      filesUnder(join(PROTOCOLS_DIR, own)).flatMap((file) =>
        layeringViolations(file, own, readFileSync(file, 'utf8'), folders),
      ),
    )
    expect(violations).toEqual([])
  })

  it('the check catches each kind of forbidden import', () => {
    const file = join(PROTOCOLS_DIR, 'vaultprotocol', 'positions.ts')
    const folders = ['vaultprotocol', 'oracle', 'lendingprotocol']
    const source = [
      "import { a } from '../oracle/adapt-ledger.ts'",
      "import type { B } from '../lendingprotocol/index.ts'",
      "export { c } from '../../api/app.ts'",
      "const d = await import('../../indexer/ledger-pipeline.ts')",
      "import '../../cli/main.ts'",
      "import { ok } from '../protocol-module.ts'",
      "import { fine } from './stored-vault.ts'",
      "import { alsoFine } from '../../positions/amounts.ts'",
    ].join('\n')
    expect(layeringViolations(file, 'vaultprotocol', source, folders)).toEqual([
      'protocols/vaultprotocol/positions.ts imports ../oracle/adapt-ledger.ts',
      'protocols/vaultprotocol/positions.ts imports ../lendingprotocol/index.ts',
      'protocols/vaultprotocol/positions.ts imports ../../api/app.ts',
      'protocols/vaultprotocol/positions.ts imports ../../cli/main.ts',
      'protocols/vaultprotocol/positions.ts imports ../../indexer/ledger-pipeline.ts',
    ])
  })
})
