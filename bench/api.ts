// API benchmark, in ONE run on this machine's two cores: the servers under test are pinned to core 0,
// the load generator (this process) to core 1 (with taskset, when the system has it).
//   1. For each data endpoint (one positions endpoint per registered protocol module, plus the
//      EXTRA_CASES below), alternating pairs of rounds: the real endpoint (API key, rate limiting,
//      request log and metrics on) on a devnet store of >= 100k accounts and >= 1M snapshots, then a
//      ceiling (a bare Fastify route serving a static body of the size of that endpoint's answer),
//      then the ceiling first, and so on. Each pair gives a throughput ratio and a ratio of server
//      CPU per request (utime + stime of the server process over requests served, from /proc): the
//      CPU ratio does not depend on the load generator, which saturates its core before the ceiling
//      saturates its own. Medians over the pairs are reported.
//   2. The vault endpoint at half its peak rate: p99, in the server (its request log) and the client.
//   3. Depth: the vault endpoint on a 10k-snapshot store and on the large store at one fixed rate.
//   4. The host's scale: the ceiling's route made to burn 25 and 50 µs of CPU per request, against
//      the ceiling, in alternating pairs: what a bare route doing that much work reaches on this host.
//   5. A CPU profile of the server per endpoint (V8's sampling profiler, started and stopped around
//      the measured window by bench/cpu-prof-hook.ts), summarized by bench/cpu-profile.ts: busy time
//      per request by part and the top functions.
// The devnet stores are built once through the real indexer and cached under bench/.cache.
// With BENCH_API_BASELINE set to another checkout of Strata (with its node_modules), the run instead
// compares this checkout's server with that one's on the same endpoints (bench/api-compare.ts).
//
//   6. The HTTP conventions on the vault endpoint: its ratio with gzip negotiated, against a ceiling
//      compressing the same way (beside step 1's, where the load generator asks for no encoding);
//      revalidation (If-None-Match answered 304) against plain requests (200), side by side; and,
//      in this process, the ETag's CPU time per answer and each codec's cost and size on its body.
//
// Then on PostgreSQL (at 127.0.0.1:5432, database test, or BENCH_POSTGRES_URL), with Redis for the
// rate limiter (127.0.0.1:6379, or BENCH_REDIS_URL), as production runs:
//   7. The large store copied into a PostgreSQL schema of its own, bench_api_large (migrated by the
//      project's migrations; its rows copied, not re-indexed; kept until the SQLite store is rebuilt).
//   8. The same data endpoints against the same ceiling in alternating pairs, each server's database
//      backends' and Redis's CPU per request beside its own.
//   9. The vault endpoint at half its PostgreSQL peak rate: p99, in the server and the client.
//  10. Two replicas: two servers on that schema and one Redis, one pinned to each core, against one
//      of them alone, in alternating rounds (api-replicas.ts): requests/s per replica and in total.
// BENCH_API_STORES=sqlite (or =postgres) measures one store only; both by default.
//
// The parts: api-env.ts (settings, processes), api-stores.ts (stores and what is queried),
// api-postgres.ts (the PostgreSQL copy, the database's and Redis's CPU), api-rounds.ts (rounds,
// pairs, ceilings, profiles), api-replicas.ts (the two-replica run), api-http.ts (the conventions'
// own costs), api-report.ts (the written report).
//
//   npm run bench:api
//   BENCH_API_DURATION_S=20 BENCH_API_PAIRS=6 npm run bench:api
//   validation at a small size: BENCH_API_LARGE_ACCOUNTS=3000 BENCH_API_LARGE_LEDGERS=1500 \
//     BENCH_API_SMALL_ACCOUNTS=1000 BENCH_API_SMALL_LEDGERS=1000 BENCH_API_DURATION_S=3 \
//     BENCH_API_PAIRS=2 npm run bench:api
//   one store only: BENCH_API_STORES=sqlite npm run bench:api   (or BENCH_API_STORES=postgres)
//   before and after a change: BENCH_API_BASELINE=../strata-before npm run bench:api
//     (BENCH_API_ONLY=vault compares only the endpoints whose name has that word; SQLite only)
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { PROTOCOLS } from '../src/protocols/registry.ts'
import { compareWithBaseline } from './api-compare.ts'
import { CACHE, CLI, CONNECTIONS, DURATION_S, HAS_TASKSET, PAIRS, PROFILE, round3 } from './api-env.ts'
import { measureHttpCosts } from './api-http.ts'
import {
  copyToPostgres,
  POSTGRES_URL,
  type PostgresStore,
  REDIS_URL,
  redisVersion,
  shownUrl,
} from './api-postgres.ts'
import { measureReplicas, type ReplicaResult, runLoadGenerator } from './api-replicas.ts'
import { type PostgresReport, type Report, renderReport, type SqliteReport } from './api-report.ts'
import {
  type CaseResult,
  ceilingFile,
  load,
  type Measured,
  measureCase,
  measureHostScale,
  measureRevalidation,
  profileCase,
  serveCeiling,
  startApi,
  warmPaths,
} from './api-rounds.ts'
import {
  type BenchCase,
  type BuiltStore,
  buildStore,
  EXTRA_CASES,
  LARGE,
  prepareStore,
  SMALL,
  type StoreSpec,
  serveDevnet,
} from './api-stores.ts'
import { updateBenchSection } from './report.ts'

/** The stores the run measures: BENCH_API_STORES=sqlite or =postgres for one of them, both by default. */
const STORES = (() => {
  const named = (process.env.BENCH_API_STORES ?? 'sqlite,postgres').split(',').map((s) => s.trim())
  const unknown = named.filter((s) => s !== 'sqlite' && s !== 'postgres')
  if (unknown.length > 0 || named.length === 0) {
    throw new Error(
      `BENCH_API_STORES names sqlite, postgres or both (comma-separated), got ${unknown.join(', ')}`,
    )
  }
  return new Set(named)
})()

async function main(): Promise<void> {
  if (!process.env.BENCH_PINNED && HAS_TASKSET) {
    // Re-run pinned to core 1; the servers take core 0.
    execFileSync('taskset', ['-c', '1', process.execPath, import.meta.filename], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_PINNED: '1' },
    })
    return
  }
  const baseline = process.env.BENCH_API_BASELINE
  if (baseline) return compareWithBaseline(baseline)
  const large = await buildStore(LARGE)
  const largeQueries = await prepareStore(large)
  const key = largeQueries.key

  const cases: BenchCase[] = [
    ...PROTOCOLS.map((module) => ({
      name: `${module.name} positions`,
      paths: largeQueries.positionsPaths(module.name),
    })),
    ...EXTRA_CASES.map((make) => make(largeQueries)),
  ]
  const skipped = cases.filter((c) => c.paths.length === 0).map((c) => c.name)
  for (const name of skipped) process.stderr.write(`  ${name}: no snapshots in the store, skipped\n`)
  const measured = cases.filter((c) => c.paths.length > 0)

  // The PostgreSQL copy first: a database or a Redis that does not answer stops the run before the
  // SQLite part rather than after it.
  const pgStore = STORES.has('postgres') ? await preparePostgres(large) : null
  const sqlite = STORES.has('sqlite') ? await measureSqlite(large, key, measured) : null
  const postgres = pgStore ? await measurePostgres(pgStore, key, measured) : null

  const report: Report = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
    pinned: HAS_TASKSET,
    durationSPerRun: DURATION_S,
    pairs: PAIRS,
    connections: CONNECTIONS,
    largeStore: {
      snapshots: large.snapshots,
      byProtocol: large.byProtocol,
      accounts: large.accounts,
      ledgers: large.ledgers,
    },
    skipped,
    sqlite,
    postgres,
  }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  const markdown = renderReport(report)
  process.stdout.write(`\n${markdown}\n`)
  updateBenchSection('api', markdown)
}

/** Steps 1 to 6 on the SQLite store (see the header). */
async function measureSqlite(large: BuiltStore, key: string, cases: BenchCase[]): Promise<SqliteReport> {
  const small = await buildStore(SMALL)
  const smallQueries = await prepareStore(small)
  const api = await startApi(large)
  const results: CaseResult[] = []
  for (const c of cases) results.push(await measureCase(api, key, c))
  const vault = results[0]!
  const vaultPaths = cases[0]!.paths
  // The HTTP conventions on the vault endpoint: asked for gzip against a ceiling compressing the
  // same way, and revalidated (If-None-Match, 304) against asked plainly (200).
  const gzip = await measureCase(
    api,
    key,
    { name: `${cases[0]!.name}, gzip negotiated`, paths: vaultPaths },
    { headers: { 'accept-encoding': 'gzip' }, compressed: true },
  )
  const revalidation = await measureRevalidation(api, key, cases[0]!)
  const half = await load(api, {
    paths: vaultPaths,
    key,
    rate: Math.round(vault.medianApi / 2),
    api,
  })
  api.stop()

  // The vault endpoint again with the answer cache off: every answer rendered and serialized.
  const coldApi = await startApi(large, undefined, { STRATA_ANSWER_CACHE_MB: '0' })
  const cold = await measureCase(coldApi, key, {
    name: `${cases[0]!.name}, answer cache off`,
    paths: vaultPaths,
  })
  coldApi.stop()

  // The host's scale, with a body of the vault answer's size.
  const vaultBody = readFileSync(ceilingFile(vault.name), 'utf8')
  const hostScale = await measureHostScale(vaultBody)

  if (PROFILE) {
    const profileBase = join(CACHE, `profile-${process.pid}`)
    const profiled = await startApi(large, profileBase)
    let round = 0
    for (const result of results) {
      const c = cases.find((x) => x.name === result.name)!
      result.profile = await profileCase(profiled, profileBase, round++, key, c)
    }
    profiled.stop()
  }

  const smallApi = await startApi(small)
  const smallPaths = smallQueries.positionsPaths('vaultprotocol')
  await load(smallApi, { paths: smallPaths, key: smallQueries.key })
  const depthRate = Math.round(vault.medianApi / 2)
  const shallow = await load(smallApi, {
    paths: smallPaths,
    key: smallQueries.key,
    rate: depthRate,
    api: smallApi,
  })
  smallApi.stop()
  const deepApi = await startApi(large)
  await load(deepApi, { paths: vaultPaths, key })
  const deep = await load(deepApi, { paths: vaultPaths, key, rate: depthRate, api: deepApi })
  deepApi.stop()

  return {
    smallStore: { snapshots: small.snapshots, accounts: small.accounts, ledgers: small.ledgers },
    cases: results,
    cold,
    hostScale,
    http: { gzip, revalidation, costs: measureHttpCosts(vaultBody) },
    vaultAtHalfPeak: { rate: Math.round(vault.medianApi / 2), ...half },
    depth: {
      rate: depthRate,
      small: shallow,
      large: deep,
      serverP50Ratio: round3((deep.server?.p50Ms ?? 0) / Math.max(shallow.server?.p50Ms ?? 0, 0.001)),
      clientP50Ratio: round3(deep.p50Ms / Math.max(shallow.p50Ms, 0.001)),
    },
  }
}

/** Step 7: the large store's copy on PostgreSQL, and Redis's version (it must answer). */
async function preparePostgres(large: BuiltStore): Promise<{ store: PostgresStore; redis: string }> {
  const hint = 'BENCH_API_STORES=sqlite runs without PostgreSQL and Redis'
  let store: PostgresStore
  try {
    store = await copyToPostgres(large, `bench_api_${LARGE.name}`)
  } catch (error) {
    throw new Error(`PostgreSQL at ${shownUrl(POSTGRES_URL)}: ${(error as Error).message} (${hint})`, {
      cause: error,
    })
  }
  const redis = await redisVersion()
  if (redis === null) throw new Error(`Redis at ${shownUrl(REDIS_URL)} does not answer (${hint})`)
  return { store, redis }
}

/** Steps 8 to 10 on the PostgreSQL copy of the large store (see the header). */
async function measurePostgres(
  { store, redis }: { store: PostgresStore; redis: string },
  key: string,
  cases: BenchCase[],
): Promise<PostgresReport> {
  const api = await startApi(store)
  const results: CaseResult[] = []
  let half: Measured
  try {
    for (const c of cases) {
      await warmPaths(api, key, c.paths)
      results.push(await measureCase(api, key, c))
    }
    half = await load(api, { paths: cases[0]!.paths, key, rate: Math.round(results[0]!.medianApi / 2), api })
  } finally {
    api.stop()
  }

  // Two replicas, as production runs them: STRATA_REPLICAS says how many share the quotas.
  const replicaEnv = { STRATA_REPLICAS: '2' }
  const first = await startApi(store, undefined, replicaEnv, CLI, { cores: '0', discardLog: true })
  const second = await startApi(store, undefined, replicaEnv, CLI, { cores: '1', discardLog: true })
  let replicas: ReplicaResult
  try {
    replicas = await measureReplicas([first, second], cases[0]!.paths, key)
  } finally {
    first.stop()
    second.stop()
  }
  return {
    version: store.version,
    redisVersion: redis,
    schema: store.schema,
    rows: store.rows,
    copiedS: store.copiedS,
    cases: results,
    vaultAtHalfPeak: { rate: Math.round(results[0]!.medianApi / 2), ...half },
    replicas,
  }
}

const mode = process.argv[2]
if (mode === '--serve-devnet') await serveDevnet(JSON.parse(process.argv[3]!) as StoreSpec)
else if (mode === '--serve-ceiling')
  await serveCeiling(process.argv[3]!, Number(process.argv[4] ?? 0), process.argv[5] === 'gzip')
else if (mode === '--load-generator')
  await runLoadGenerator(process.argv[3]!, process.argv[4]!, Number(process.argv[5] ?? 0))
else await main()
