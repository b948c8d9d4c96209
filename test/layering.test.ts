// The architecture's rules, as imports (docs/architecture.md): which folder may import which, and
// no runtime import cycle. Each rule is checked over src/, and each is shown to catch a breach.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = resolve(import.meta.dirname, '../src')

interface Import {
  specifier: string
  /** The imported file, relative to src/ (with '/' separators). */
  target: string
  /** Whether the import only brings types (erased at run time). */
  typeOnly: boolean
}

/** Every relative import or re-export of a TypeScript source (static and dynamic). */
function importsOf(file: string, source: string): Import[] {
  const found: Import[] = []
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return
    const target = relative(SRC, resolve(dirname(file), specifier))
      .split('\\')
      .join('/')
    found.push({ specifier, target, typeOnly })
  }
  for (const m of source.matchAll(/\b(import|export)\s+(type\s+)?([^'";]*?)\s*\bfrom\s*['"]([^'"]+)['"]/g)) {
    const clause = m[3]!
    // `import { type A, type B } from` is erased too; `import { type A, b } from` is not.
    const names = /^\{([\s\S]*)\}$/.exec(clause.trim())?.[1]
    const allTypes = names
      ?.split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '')
      .every((n) => n.startsWith('type '))
    add(m[4]!, m[2] !== undefined || allTypes === true)
  }
  for (const m of source.matchAll(/\bimport\s*['"]([^'"]+)['"]/g)) add(m[1]!, false)
  for (const m of source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) add(m[1]!, false)
  return found
}

/** The TypeScript files under a folder (tests only with `withTests`; cached benchmark data skipped). */
function filesUnder(dir: string, withTests = false): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === '.cache' ? [] : filesUnder(path, withTests)
    return path.endsWith('.ts') && (withTests || !path.endsWith('.test.ts')) ? [path] : []
  })
}

/** The console's TypeScript sources (.ts and .tsx). */
function consoleFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return consoleFiles(path)
    return /\.tsx?$/.test(path) ? [path] : []
  })
}

const inside = (folder: string) => (path: string) => path.startsWith(`${folder}/`)
const anyOf =
  (...tests: Array<(path: string) => boolean>) =>
  (path: string) =>
    tests.some((t) => t(path))

/** The protocol folder a path is in (`protocols/<name>/…`, the kit excluded), or null. */
function protocolOf(path: string): string | null {
  const m = /^protocols\/([^/]+)\//.exec(path)
  return m && m[1] !== 'kit' ? m[1]! : null
}

interface Rule {
  name: string
  /** Whether the rule applies to a file (path relative to src/). */
  applies(path: string): boolean
  /** Whether `from` may not import `target` (both relative to src/). */
  forbids(target: string, from: string): boolean
}

/** Shared utilities any layer may use: they import nothing of the project's layers. */
const UTILITIES = new Set(['awaitable.ts', 'bounded-cache.ts', 'clock.ts', 'errors.ts'])

const RULES: Rule[] = [
  {
    name: 'a protocol imports only its own folder, the kit, chain/ and the shared utilities',
    applies: (path) => protocolOf(path) !== null,
    forbids: (target, from) =>
      !(
        (protocolOf(target) !== null && protocolOf(target) === protocolOf(from)) ||
        inside('protocols/kit')(target) ||
        inside('chain')(target) ||
        UTILITIES.has(target)
      ),
  },
  {
    name: 'the kit imports no protocol, and nothing of the engine, the API, the indexer or the CLI',
    applies: inside('protocols/kit'),
    forbids: (target) =>
      protocolOf(target) !== null ||
      target === 'protocols/registry.ts' ||
      anyOf(inside('positions'), inside('api'), inside('indexer'), inside('cli'), inside('devnet'))(target),
  },
  {
    name: 'store/ imports nothing from protocols/',
    applies: inside('store'),
    forbids: inside('protocols'),
  },
  {
    name: 'chain/ imports no devnet',
    applies: inside('chain'),
    forbids: anyOf(inside('devnet'), inside('protocols'), inside('store'), inside('api'), inside('indexer')),
  },
  {
    name: 'only the CLI and the demo start a devnet: production code imports none of it',
    applies: (path) => !anyOf(inside('devnet'), inside('cli'))(path) && path !== 'demo.ts',
    forbids: inside('devnet'),
  },
  {
    name: 'the devnet imports no production layer but chain/ (it simulates what chain/ reads)',
    applies: inside('devnet'),
    forbids: anyOf(
      inside('protocols'),
      inside('positions'),
      inside('store'),
      inside('api'),
      inside('indexer'),
      inside('cli'),
    ),
  },
  {
    name: 'routes do not import the app that registers them',
    applies: inside('api/routes'),
    forbids: (target) => target === 'api/app.ts',
  },
]

/** The breaches of the rules by one file: a line per forbidden import. */
function violations(path: string, imports: Import[], rules: Rule[] = RULES): string[] {
  return rules.flatMap((rule) =>
    rule.applies(path)
      ? imports
          .filter((i) => rule.forbids(i.target, path))
          .map((i) => `${path} imports ${i.specifier} (${rule.name})`)
      : [],
  )
}

/** Runtime import cycles (type-only imports erased), each as the files around it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (node: string) => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node)
  return found
}

function sourceGraph(): {
  files: Array<{ path: string; imports: Import[] }>
  runtime: Map<string, string[]>
} {
  const files = filesUnder(SRC).map((file) => ({
    path: relative(SRC, file).split('\\').join('/'),
    imports: importsOf(file, readFileSync(file, 'utf8')),
  }))
  const runtime = new Map(
    files.map((f) => [f.path, f.imports.filter((i) => !i.typeOnly).map((i) => i.target)] as const),
  )
  return { files, runtime }
}

describe('the architecture holds', () => {
  const { files, runtime } = sourceGraph()

  it('finds the layers it checks', () => {
    const folders = new Set(files.map((f) => f.path.split('/')[0]))
    for (const folder of ['api', 'chain', 'devnet', 'indexer', 'positions', 'protocols', 'store', 'cli']) {
      expect(folders).toContain(folder)
    }
    expect(files.some((f) => f.path.startsWith('protocols/kit/'))).toBe(true)
    expect(files.length).toBeGreaterThan(100)
  })

  for (const rule of RULES) {
    it(rule.name, () => {
      expect(files.flatMap((f) => violations(f.path, f.imports, [rule]))).toEqual([])
    })
  }

  it('has no runtime import cycle', () => {
    expect(cycles(runtime)).toEqual([])
  })

  it('has a console that knows the server only through the typed client', () => {
    const consoleSrc = resolve(SRC, '../console/src')
    const sources = consoleFiles(consoleSrc)
    expect(sources.length).toBeGreaterThan(10)
    const allowedPackages =
      /^(preact|preact\/[a-z-]+|preact-iso|@preact\/signals|uplot|uplot\/dist\/uPlot\.min\.css|@strata\/client)$/
    const breaches = sources.flatMap((file) => {
      const source = readFileSync(file, 'utf8')
      const specifiers = [
        ...source.matchAll(/(?:^|[\s}])from\s*['"]([^'"]+)['"]/gm),
        ...source.matchAll(/\bimport\s*\(?\s*['"]([^'"]+)['"]/g),
      ].map((m) => m[1]!)
      return specifiers
        .filter((specifier) =>
          specifier.startsWith('.')
            ? !resolve(dirname(file), specifier).startsWith(`${consoleSrc}/`)
            : !allowedPackages.test(specifier),
        )
        .map((specifier) => `${relative(consoleSrc, file)} imports ${specifier}`)
    })
    expect(breaches).toEqual([])
  })

  it('has no source file over 600 lines (a longer one is split by role)', () => {
    const root = resolve(SRC, '..')
    const everywhere = [
      ...['src', 'test', 'bench', 'scripts'].flatMap((dir) => filesUnder(join(root, dir), true)),
      ...consoleFiles(join(root, 'console/src')),
    ]
    const long = everywhere
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter((f) => f.lines > 600)
    expect(everywhere.length).toBeGreaterThan(200)
    expect(long).toEqual([])
  })
})

describe('the checks catch a breach', () => {
  const file = (path: string) => join(SRC, path)
  const imports = (path: string, ...lines: string[]) => importsOf(file(path), lines.join('\n'))

  it('of each rule', () => {
    const [protocol, kit, store, chain, production, devnet, routes] = RULES as [Rule, ...Rule[]]
    const cases: Array<[Rule | undefined, string, string]> = [
      [
        protocol,
        'protocols/vaultprotocol/positions.ts',
        "import { a } from '../lendingprotocol/reserves.ts'",
      ],
      [
        protocol,
        'protocols/vaultprotocol/positions.ts',
        "import type { B } from '../../store/positions-read.ts'",
      ],
      [protocol, 'protocols/vaultprotocol/positions.ts', "export { c } from '../../api/app.ts'"],
      [
        protocol,
        'protocols/vaultprotocol/positions.ts',
        "const d = await import('../../indexer/ledger-pipeline.ts')",
      ],
      [kit, 'protocols/kit/valuation.ts', "import { e } from '../vaultprotocol/index.ts'"],
      [kit, 'protocols/kit/valuation.ts', "import { f } from '../../positions/answer.ts'"],
      [kit, 'protocols/kit/valuation.ts', "import { g } from '../registry.ts'"],
      [store, 'store/activities.ts', "import type { H } from '../protocols/kit/protocol-module.ts'"],
      [chain, 'chain/ledger-source.ts', "import { i } from '../devnet/world/world.ts'"],
      [production, 'indexer/index.ts', "import '../devnet/rpc/server.ts'"],
      [devnet, 'devnet/blend/calls.ts', "import { j } from '../../protocols/lendingprotocol/reserves.ts'"],
      [routes, 'api/routes/health.ts', "import type { App } from '../app.ts'"],
    ]
    for (const [rule, path, line] of cases) {
      expect(violations(path, imports(path, line), [rule!]), `${path}: ${line}`).toHaveLength(1)
    }
  })

  it('and lets the allowed imports through', () => {
    const allowed: Array<[string, string]> = [
      ['protocols/vaultprotocol/positions.ts', "import { a } from './stored-vault.ts'"],
      ['protocols/vaultprotocol/positions.ts', "import { b } from '../kit/amounts.ts'"],
      ['protocols/vaultprotocol/positions.ts', "import type { C } from '../../chain/network.ts'"],
      ['protocols/vaultprotocol/positions.ts', "import { type D, andThen } from '../../awaitable.ts'"],
      ['protocols/kit/valuation.ts', "import type { E } from '../../store/positions-read.ts'"],
      ['cli/commands/devnet.ts', "import { f } from '../../devnet/index.ts'"],
      ['devnet/blend/calls.ts', "import { g } from '../../chain/network.ts'"],
      ['api/routes/health.ts', "import type { App } from '../app-type.ts'"],
    ]
    for (const [path, line] of allowed)
      expect(violations(path, imports(path, line)), `${path}: ${line}`).toEqual([])
  })

  it('tells type-only imports from runtime ones', () => {
    const kinds = imports(
      'positions/answer.ts',
      "import type { A } from './a.ts'",
      "import { type B, type C } from './b.ts'",
      "import { type D, e } from './c.ts'",
      "import f from './d.ts'",
      "export type { G } from './e.ts'",
      "export { h } from './f.ts'",
    ).map((i) => [i.target, i.typeOnly])
    expect(kinds).toEqual([
      ['positions/a.ts', true],
      ['positions/b.ts', true],
      ['positions/c.ts', false],
      ['positions/d.ts', false],
      ['positions/e.ts', true],
      ['positions/f.ts', false],
    ])
  })

  it('finds a cycle through runtime imports, and none through a tree', () => {
    const cyclic = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ])
    expect(cycles(cyclic)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']])
    const tree = new Map([
      ['a.ts', ['b.ts', 'c.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', []],
    ])
    expect(cycles(tree)).toEqual([])
  })
})
