// bench:api's before-and-after mode (BENCH_API_BASELINE=<another checkout of Strata, with its
// node_modules>): this checkout's server against the baseline's on the same endpoints, in one run.
//
// Three servers run side by side on core 0, each on its own store: A (this checkout), A' (this
// checkout again, on a copy of A's store) and B (the baseline, on a store its own indexer wrote from
// the same devnet). Each pair of rounds measures the three in a rotating order, so drift hits them
// alike. A / B is the change; A' / A is the A/A spread: what two identical servers differ by on this
// host in this run, the noise a change must exceed before it counts.
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { PROTOCOLS } from '../src/protocols/registry.ts'
import { CACHE, DURATION_S, median, PAIRS, round3 } from './api-env.ts'
import { type ApiProcess, load, type Measured, startApi } from './api-rounds.ts'
import {
  type BenchCase,
  buildStore,
  createBenchKey,
  EXTRA_CASES,
  LARGE,
  prepareStore,
  type StoreTools,
} from './api-stores.ts'
import { updateBenchSection } from './report.ts'

/** BENCH_API_ONLY=<part of a case's name>: compare only the matching endpoints (more rounds in the time). */
const ONLY = process.env.BENCH_API_ONLY || undefined

/** The baseline checkout's own modules, for building and keying the store it serves. */
async function baselineTools(dir: string): Promise<StoreTools> {
  const from = (path: string) => import(join(dir, path))
  return {
    createDatabase: (await from('src/store/db.ts')).createDatabase,
    migrateToLatest: (await from('src/store/migrate.ts')).migrateToLatest,
    createIndexer: (await from('src/indexer/index.ts')).createIndexer,
    createLogger: (await from('src/logger.ts')).createLogger,
    createApiKey: (await from('src/auth/create-api-key.ts')).createApiKey,
    loadOrCreateSecret: (await from('src/store/secrets.ts')).loadOrCreateSecret,
  }
}

/** The baseline's commit, naming its cached store (a new baseline commit builds a new one). */
function commitOf(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {
    return 'unversioned'
  }
}

interface Server {
  label: 'A' | "A'" | 'B'
  api: ApiProcess
  key: string
}

interface ComparePair {
  a: Measured
  aa: Measured
  b: Measured
}

export interface CompareResult {
  name: string
  pairs: ComparePair[]
  /** A / B throughput, median and range over the pairs (above 1: this checkout is faster). */
  change: number
  changeRange: [number, number]
  /** B / A server CPU per request (above 1: this checkout spends less). */
  cpuChange: number | null
  /** A' / A throughput: the A/A spread. */
  spread: number
  spreadRange: [number, number]
  /** A' / A server CPU per request, inverted like cpuChange. */
  cpuSpread: number | null
}

/** The three servers' rounds of one case, in a rotating order, after a warm-up of each. */
async function comparePairs(c: BenchCase, servers: Server[]): Promise<ComparePair[]> {
  const round = (s: Server) => load(s.api, { paths: c.paths, key: s.key, api: s.api })
  for (const s of servers) await round(s)
  const pairs: ComparePair[] = []
  for (let i = 0; i < PAIRS; i++) {
    const order = servers.map((_, j) => servers[(i + j) % servers.length]!)
    const measured = new Map<string, Measured>()
    for (const s of order) {
      const m = await round(s)
      if (m.non2xx > 0) throw new Error(`${c.name} on ${s.label}: ${m.non2xx} non-2xx answers`)
      measured.set(s.label, m)
    }
    const pair = { a: measured.get('A')!, aa: measured.get("A'")!, b: measured.get('B')! }
    pairs.push(pair)
    process.stderr.write(
      `  ${c.name} pair ${i + 1} (${order.map((s) => s.label).join(', ')}): A ${pair.a.requestsPerSecond}, A' ${pair.aa.requestsPerSecond}, B ${pair.b.requestsPerSecond} req/s; CPU ${pair.a.cpuUsPerRequest} / ${pair.aa.cpuUsPerRequest} / ${pair.b.cpuUsPerRequest} µs/req; GC ${pair.a.gcUsPerRequest ?? '?'} / ${pair.aa.gcUsPerRequest ?? '?'} / ${pair.b.gcUsPerRequest ?? '?'} µs/req\n`,
    )
  }
  return pairs
}

type Side = 'a' | 'aa' | 'b'

/** Median and range over the pairs of `top / bottom` of one measure; null when one is unknown. */
function ratioStats(
  pairs: ComparePair[],
  measure: (m: Measured) => number | null,
  top: Side,
  bottom: Side,
): { median: number; range: [number, number] } | null {
  const values = pairs.map((p) => {
    const t = measure(p[top])
    const b = measure(p[bottom])
    return t === null || b === null || b === 0 ? null : t / b
  })
  if (values.some((v) => v === null)) return null
  const numbers = values as number[]
  return {
    median: round3(median(numbers)),
    range: [round3(Math.min(...numbers)), round3(Math.max(...numbers))],
  }
}

function summarize(name: string, pairs: ComparePair[]): CompareResult {
  const rps = (m: Measured) => m.requestsPerSecond
  const cpu = (m: Measured) => m.cpuUsPerRequest
  const change = ratioStats(pairs, rps, 'a', 'b')!
  const spread = ratioStats(pairs, rps, 'aa', 'a')!
  return {
    name,
    pairs,
    change: change.median,
    changeRange: change.range,
    // CPU per request inverted: above 1, the first named spends less.
    cpuChange: ratioStats(pairs, cpu, 'b', 'a')?.median ?? null,
    spread: spread.median,
    spreadRange: spread.range,
    cpuSpread: ratioStats(pairs, cpu, 'a', 'aa')?.median ?? null,
  }
}

/**
 * Whether a case's change is beyond the noise of the same case. The widest the two identical
 * servers A and A' differed in any round, either way up, is d; the change counts only when A / B
 * and A' / B (medians) both lie beyond d on the same side of 1.
 */
function verdict(r: CompareResult, second: number | undefined): string {
  if (second === undefined) return 'n/a'
  const d = Math.max(r.spreadRange[1], 1 / r.spreadRange[0])
  if (r.change < 1 / d && second < 1 / d) return 'slower beyond the noise'
  if (r.change > d && second > d) return 'faster beyond the noise'
  return 'within the noise'
}

/** Both copies of this checkout against the baseline, every pair pooled: the change's median. */
function pooledChange(r: CompareResult): number {
  return round3(
    median(r.pairs.flatMap((p) => [p.a, p.aa].map((m) => m.requestsPerSecond / p.b.requestsPerSecond))),
  )
}

/** The markdown report of a comparison (also re-rendered from the JSON a run prints). */
export function renderComparison(
  results: CompareResult[],
  commit: string,
  run: { pairs: number; durationS: number } = { pairs: PAIRS, durationS: DURATION_S },
): string {
  const rps = (r: CompareResult, side: 'a' | 'aa' | 'b') =>
    Math.round(median(r.pairs.map((p) => p[side].requestsPerSecond)))
  const second = (r: CompareResult) => ratioStats(r.pairs, (m) => m.requestsPerSecond, 'aa', 'b')?.median
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`BENCH_API_BASELINE=<checkout of ${commit}> npm run bench:api\` (${run.pairs} rotating rounds of ${run.durationS} s per endpoint; A: this checkout, A': this checkout again on a copy of its store, B: the baseline ${commit} on a store its own indexer wrote from the same devnet).`,
    '',
    "| endpoint | A / A' / B req/s (medians) | A / B (median [range]) | A' / B | both / B, pooled | CPU per request B / A | A/A: A' / A (median [range]) | verdict |",
    '|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${rps(r, 'a')} / ${rps(r, 'aa')} / ${rps(r, 'b')} | **${r.change}** [${r.changeRange[0]}–${r.changeRange[1]}] | ${second(r) ?? 'n/a'} | **${pooledChange(r)}** | ${r.cpuChange ?? 'n/a'} | ${r.spread} [${r.spreadRange[0]}–${r.spreadRange[1]}] | ${verdict(r, second(r))} |`,
    ),
    '',
    "A verdict compares a case's change with its own A/A disagreement: the change is beyond the noise only when both copies of this checkout (A / B and A' / B, medians) differ from the baseline, on the same side, by more than the copies ever differed from each other in a round (A' / A, either way up). Both / B, pooled, is the median of A / B and A' / B over every pair.",
  ].join('\n')
}

/** The before-and-after run: every data endpoint of bench:api, this checkout against the baseline. */
export async function compareWithBaseline(baselineDir: string): Promise<void> {
  const baseline = resolve(baselineDir)
  if (!existsSync(join(baseline, 'src/cli/main.ts'))) {
    throw new Error(`BENCH_API_BASELINE=${baselineDir} is not a checkout of Strata (no src/cli/main.ts)`)
  }
  if (!existsSync(join(baseline, 'node_modules'))) {
    throw new Error(`BENCH_API_BASELINE=${baselineDir} has no node_modules: run npm ci there first`)
  }
  const commit = commitOf(baseline)
  const own = await buildStore(LARGE)
  const queries = await prepareStore(own)
  const copy = join(CACHE, `${LARGE.name}-aa.db`)
  copyFileSync(own.path, copy)
  const tools = await baselineTools(baseline)
  const theirs = await buildStore(LARGE, tools, `${LARGE.name}-baseline-${commit}`)
  const baselineKey = await createBenchKey(theirs.path, tools)

  const cases: BenchCase[] = [
    ...PROTOCOLS.map((module) => ({
      name: `${module.name} positions`,
      paths: queries.positionsPaths(module.name),
    })),
    ...EXTRA_CASES.map((make) => make(queries)),
  ].filter((c) => c.paths.length > 0 && (ONLY === undefined || c.name.includes(ONLY)))

  const servers: Server[] = [
    { label: 'A', api: await startApi(own), key: queries.key },
    { label: "A'", api: await startApi({ path: copy }), key: queries.key },
    {
      label: 'B',
      api: await startApi(theirs, undefined, {}, join(baseline, 'src/cli/main.ts')),
      key: baselineKey,
    },
  ]
  try {
    const results: CompareResult[] = []
    for (const c of cases) results.push(summarize(c.name, await comparePairs(c, servers)))
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
    const markdown = renderComparison(results, commit)
    process.stdout.write(`\n${markdown}\n`)
    updateBenchSection('api-compare', markdown)
  } finally {
    for (const s of servers) s.api.stop()
  }
}
