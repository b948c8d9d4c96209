import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = resolve(import.meta.dirname, '../src')
const PROTOCOLS_DIR = join(SRC, 'protocols')
/** The protocol kit: what protocols and the answer engine share (module interface, amounts, valuation, ...). */
const KIT = 'kit'
const KIT_DIR = join(PROTOCOLS_DIR, KIT)

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

/** The folders under `protocols/` (each a protocol module, or the oracles the pipeline reads), without the kit. */
function protocolFolders(): string[] {
  return readdirSync(PROTOCOLS_DIR).filter(
    (name) => name !== KIT && statSync(join(PROTOCOLS_DIR, name)).isDirectory(),
  )
}

/** Each import of `file` whose target is not under one of `allowed` (folders end with `sep`, files do not). */
function importsOutside(file: string, source: string, allowed: string[]): string[] {
  return importSpecifiers(source)
    .map((spec) => ({ spec, target: resolve(dirname(file), spec) }))
    .filter(({ target }) => !allowed.some((a) => (a.endsWith(sep) ? target.startsWith(a) : target === a)))
    .map(({ spec }) => `${relative(SRC, file)} imports ${spec}`)
}

/** Each import of `file` whose target is under one of the `forbidden` folders (each ending with `sep`). */
function importsInto(file: string, source: string, forbidden: string[]): string[] {
  return importSpecifiers(source)
    .map((spec) => ({ spec, target: resolve(dirname(file), spec) }))
    .filter(({ target }) => forbidden.some((prefix) => target.startsWith(prefix)))
    .map(({ spec }) => `${relative(SRC, file)} imports ${spec}`)
}

/** What a protocol folder may import: itself, the kit, the chain's types (not the devnet) and `awaitable.ts`. */
function protocolAllowed(own: string): string[] {
  return [join(PROTOCOLS_DIR, own) + sep, KIT_DIR + sep, join(SRC, 'chain') + sep, join(SRC, 'awaitable.ts')]
}

/** Imports of a protocol file outside what it may import, or into the devnet. */
function protocolViolations(file: string, own: string, source: string): string[] {
  return [
    ...importsOutside(file, source, protocolAllowed(own)),
    ...importsInto(file, source, [join(SRC, 'chain', 'devnet') + sep]),
  ]
}

/** What the kit may not import: any protocol folder, the answer engine, the API, the indexer, the CLI. */
function kitForbidden(folders: string[]): string[] {
  return [
    ...folders.map((f) => join(PROTOCOLS_DIR, f) + sep),
    ...['positions', 'api', 'indexer', 'cli'].map((d) => join(SRC, d) + sep),
    join(PROTOCOLS_DIR, 'registry.ts'),
  ]
}

/** Imports of a kit file into what the kit may not import (folders, or the registry file itself). */
function kitViolations(file: string, source: string, folders: string[]): string[] {
  const forbidden = kitForbidden(folders)
  return importSpecifiers(source)
    .map((spec) => ({ spec, target: resolve(dirname(file), spec) }))
    .filter(({ target }) => forbidden.some((f) => (f.endsWith(sep) ? target.startsWith(f) : target === f)))
    .map(({ spec }) => `${relative(SRC, file)} imports ${spec}`)
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
      "import { ok } from '../kit/protocol-module.ts'",
      "import { fine } from './stored-vault.ts'",
      "import { alsoFine } from '../kit/amounts.ts'",
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

describe('the protocol kit, the protocols and the store point one way', () => {
  it('protocols import only their own folder, the kit, chain/ (not the devnet) and awaitable.ts', () => {
    const violations = protocolFolders().flatMap((own) =>
      filesUnder(join(PROTOCOLS_DIR, own)).flatMap((file) =>
        protocolViolations(file, own, readFileSync(file, 'utf8')),
      ),
    )
    expect(violations).toEqual([])
  })

  it('the kit imports no protocol folder, no registry, nothing of positions/, api/, indexer/ or cli/', () => {
    const folders = protocolFolders()
    const violations = filesUnder(KIT_DIR).flatMap((file) =>
      kitViolations(file, readFileSync(file, 'utf8'), folders),
    )
    expect(violations).toEqual([])
  })

  it('the store imports nothing from protocols/', () => {
    const violations = filesUnder(join(SRC, 'store')).flatMap((file) =>
      importsInto(file, readFileSync(file, 'utf8'), [PROTOCOLS_DIR + sep]),
    )
    expect(violations).toEqual([])
  })

  it('the checks catch each kind of forbidden import', () => {
    const protocolFile = join(PROTOCOLS_DIR, 'vaultprotocol', 'positions.ts')
    const protocolSource = [
      "import { a } from '../../store/positions-read.ts'",
      "import { b } from '../../positions/answer.ts'",
      "import { c } from '../registry.ts'",
      "import { d } from '../../chain/devnet/index.ts'",
      "import { ok } from '../kit/valuation.ts'",
      "import { fine } from './stored-vault.ts'",
      "import type { alsoFine } from '../../chain/network.ts'",
      "import type { stillFine } from '../../awaitable.ts'",
    ].join('\n')
    expect(protocolViolations(protocolFile, 'vaultprotocol', protocolSource)).toEqual([
      'protocols/vaultprotocol/positions.ts imports ../../store/positions-read.ts',
      'protocols/vaultprotocol/positions.ts imports ../../positions/answer.ts',
      'protocols/vaultprotocol/positions.ts imports ../registry.ts',
      'protocols/vaultprotocol/positions.ts imports ../../chain/devnet/index.ts',
    ])

    const kitFile = join(KIT_DIR, 'valuation.ts')
    const kitSource = [
      "import { a } from '../lendingprotocol/reserves.ts'",
      "import { b } from '../registry.ts'",
      "import { c } from '../../positions/answer.ts'",
      "import { d } from '../../api/app.ts'",
      "import { ok } from './amounts.ts'",
      "import type { fine } from '../../store/positions-read.ts'",
    ].join('\n')
    expect(kitViolations(kitFile, kitSource, ['lendingprotocol', 'vaultprotocol'])).toEqual([
      'protocols/kit/valuation.ts imports ../lendingprotocol/reserves.ts',
      'protocols/kit/valuation.ts imports ../registry.ts',
      'protocols/kit/valuation.ts imports ../../positions/answer.ts',
      'protocols/kit/valuation.ts imports ../../api/app.ts',
    ])

    const storeFile = join(SRC, 'store', 'activities.ts')
    const storeSource =
      "import type { A } from '../protocols/kit/protocol-module.ts'\nimport { ok } from './db.ts'"
    expect(importsInto(storeFile, storeSource, [PROTOCOLS_DIR + sep])).toEqual([
      'store/activities.ts imports ../protocols/kit/protocol-module.ts',
    ])
  })
})
