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
//
//   npm run bench:api
//   BENCH_API_DURATION_S=20 BENCH_API_PAIRS=6 npm run bench:api
//   validation at a small size: BENCH_API_LARGE_ACCOUNTS=3000 BENCH_API_LARGE_LEDGERS=1500 \
//     BENCH_API_SMALL_ACCOUNTS=1000 BENCH_API_SMALL_LEDGERS=1000 BENCH_API_DURATION_S=3 \
//     BENCH_API_PAIRS=2 npm run bench:api
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { createApiKey } from '../src/auth/create-api-key.ts'
import { createIndexer } from '../src/indexer/index.ts'
import { createLogger } from '../src/logger.ts'
import { PROTOCOLS } from '../src/protocols/registry.ts'
import { createDatabase } from '../src/store/db.ts'
import { migrateToLatest } from '../src/store/migrate.ts'
import { loadOrCreateSecret } from '../src/store/secrets.ts'
import {
  type CpuProfile,
  type ProfileSummary,
  renderProfileSummary,
  summarizeProfile,
} from './cpu-profile.ts'
import { updateBenchSection } from './report.ts'

const ROOT = new URL('..', import.meta.url).pathname
const CACHE = join(ROOT, 'bench/.cache')
const CLI = join(ROOT, 'src/cli/main.ts')
const DURATION_S = Number(process.env.BENCH_API_DURATION_S ?? 10)
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 16)
/** Alternating pairs (endpoint round, ceiling round) per endpoint. */
const PAIRS = Number(process.env.BENCH_API_PAIRS ?? 4)
/** Whether to profile each endpoint (BENCH_API_PROFILE=0 skips it). */
const PROFILE = process.env.BENCH_API_PROFILE !== '0'
const HAS_TASKSET = (() => {
  try {
    execFileSync('taskset', ['-c', '0', 'true'])
    return true
  } catch {
    return false
  }
})()
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

interface StoreSpec {
  name: string
  /** The devnet's contract layouts: a cached store of another layout is rebuilt. */
  layout: string
  seed: string
  accounts: number
  ledgers: number
  activity: number
  /** Probability that a lending account submits to its Blend pool in a ledger. */
  lendingActivity: number
  /** Probability that an account acts on Soroswap in a ledger. */
  ammActivity: number
  /** Probability that a DeFindex holder acts in a ledger. */
  yieldActivity: number
}

const LARGE: StoreSpec = {
  name: 'large',
  layout: 'fxdao-0.6.0+reflector-v3+blend-v2+soroswap+defindex+actions',
  seed: 'bench-api',
  accounts: Number(process.env.BENCH_API_LARGE_ACCOUNTS ?? 100_000),
  // 20,000 ledgers make 1M+ snapshots; the devnet's real layouts take most of an hour to build them.
  ledgers: Number(process.env.BENCH_API_LARGE_LEDGERS ?? 20_000),
  activity: 0.0009,
  // Lending accounts are half the population; at a third of the vault rate they make about a
  // quarter of the store's snapshots.
  lendingActivity: 0.0003,
  // Soroswap and DeFindex at the lending rate, so every registered module's endpoint has answers.
  ammActivity: 0.0003,
  yieldActivity: 0.0003,
}
const SMALL: StoreSpec = {
  name: 'small',
  layout: 'fxdao-0.6.0+reflector-v3+blend-v2+soroswap+defindex+actions',
  seed: 'bench-api-small',
  accounts: Number(process.env.BENCH_API_SMALL_ACCOUNTS ?? 2_000),
  ledgers: Number(process.env.BENCH_API_SMALL_LEDGERS ?? 5_000),
  activity: 0.0022,
  lendingActivity: 0.0007,
  ammActivity: 0.0007,
  yieldActivity: 0.0007,
}

interface BuiltStore {
  path: string
  snapshots: number
  /** Snapshots per protocol. */
  byProtocol: Record<string, number>
  accounts: number
  ledgers: number
}

/** Child mode: serve a devnet and print its URL (generation gets its own process and core). */
async function serveDevnet(spec: StoreSpec): Promise<void> {
  const { startDevnet } = await import('../src/devnet/devnet.ts')
  const devnet = await startDevnet({
    seed: spec.seed,
    ledgers: spec.ledgers,
    accounts: spec.accounts,
    activity: spec.activity,
    lendingActivity: spec.lendingActivity,
    ammActivity: spec.ammActivity,
    yieldActivity: spec.yieldActivity,
  })
  process.stdout.write(
    `${JSON.stringify({ url: devnet.url, latest: devnet.latestLedger(), network: devnet.network })}\n`,
  )
}

/** Child mode: the ceiling, a bare Fastify route answering a fixed body. */
/**
 * The ceiling: a bare Fastify route serving a static body. With `spinUs`, the route first burns
 * that much CPU (a busy loop on the clock), which makes it a calibration of the host (see
 * `measureHostScale`).
 */
async function serveCeiling(bodyFile: string, spinUs: number): Promise<void> {
  const { default: Fastify } = await import('fastify')
  const body = readFileSync(bodyFile, 'utf8')
  const app = Fastify()
  const spinMs = spinUs / 1000
  app.get('/static', async (_request, reply) => {
    if (spinMs > 0) {
      const until = performance.now() + spinMs
      while (performance.now() < until) {
        // burning the route's CPU time on purpose
      }
    }
    return reply.type('application/json').send(body)
  })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  process.stderr.write(`listening on ${address}\n`)
}

function readLine(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  pattern: RegExp,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let out = ''
    child[stream]?.on('data', (chunk) => {
      out += chunk
      const match = pattern.exec(out)
      if (match) resolve(match)
    })
    child.once('exit', (code) => reject(new Error(`child exited with ${code}: ${out.slice(-2000)}`)))
  })
}

async function buildStore(spec: StoreSpec): Promise<BuiltStore> {
  const path = join(CACHE, `${spec.name}.db`)
  const meta = join(CACHE, `${spec.name}.json`)
  if (existsSync(path) && existsSync(meta)) {
    const cached = JSON.parse(readFileSync(meta, 'utf8')) as BuiltStore & { spec: StoreSpec }
    if (JSON.stringify(cached.spec) === JSON.stringify(spec)) return cached
  }
  mkdirSync(CACHE, { recursive: true })
  const started = performance.now()
  process.stderr.write(
    `building the ${spec.name} store (${spec.accounts} accounts, ${spec.ledgers} ledgers)...\n`,
  )
  const child = spawn(process.execPath, [import.meta.filename, '--serve-devnet', JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const [line] = await readLine(child, 'stdout', /^.*\n/)
  const { url, latest, network } = JSON.parse(line)
  const building = `${path}.building`
  rmSync(building, { force: true })
  const database = createDatabase({ kind: 'sqlite', path: building })
  try {
    await migrateToLatest(database)
    const indexer = createIndexer({ database, logger: createLogger('warn'), rpcUrl: url, network })
    await indexer.syncTo(latest)
    const count = (sql: string) =>
      Number((database.kind === 'sqlite' ? database.raw.prepare(sql).get() : { n: 0 })?.n ?? 0)
    const built: BuiltStore = {
      path,
      snapshots: count('SELECT count(*) AS n FROM snapshots'),
      byProtocol: Object.fromEntries(
        database.kind === 'sqlite'
          ? (
              database.raw
                .prepare('SELECT protocol, count(*) AS n FROM snapshots GROUP BY protocol')
                .all() as Array<{ protocol: string; n: number }>
            ).map((r) => [r.protocol, Number(r.n)])
          : [],
      ),
      accounts: count('SELECT count(DISTINCT address) AS n FROM snapshots'),
      ledgers: count('SELECT count(*) AS n FROM ledgers'),
    }
    await database.close()
    renameSync(building, path)
    writeFileSync(meta, JSON.stringify({ ...built, spec }))
    process.stderr.write(
      `  built in ${Math.round((performance.now() - started) / 1000)} s: ${built.snapshots} snapshots\n`,
    )
    return built
  } finally {
    child.kill()
  }
}

/** What the cases query: a ready API key and, per protocol, paths drawn from random snapshots. */
interface PreparedStore {
  key: string
  /** Paths of a protocol's snapshot endpoint: random snapshots, pins up to 500 ledgers above them. */
  positionsPaths(protocol: string): string[]
  /** Random (address, ledger) pairs of a protocol's snapshots, for the extra endpoint cases. */
  samples(protocol: string): Array<{ address: string; ledger: number }>
  /** The accounts with the most stored actions, most first, with their counts. */
  busiestAccounts(): Array<{ account: string; actions: number }>
}

/** Addresses and pins to query, spread over each store's history; plus a ready API key. */
async function prepareStore(store: BuiltStore): Promise<PreparedStore> {
  const database = createDatabase({ kind: 'sqlite', path: store.path })
  try {
    const pepper = await loadOrCreateSecret(database.db, 'key_pepper')
    const created = await createApiKey(database.db, pepper, Date.now(), {
      organizationName: 'Bench',
      organizationSlug: 'bench',
      keyName: `bench ${new Date().toISOString()}`,
      scopes: ['data:read'],
      expiresAt: null,
    })
    await database.db
      .updateTable('organizations')
      .set({ plan: 'enterprise' })
      .where('slug', '=', 'bench')
      .execute()
    if (database.kind !== 'sqlite') throw new Error('unreachable')
    const samples = new Map<string, Array<{ address: string; ledger: number }>>()
    for (const module of PROTOCOLS) {
      samples.set(
        module.name,
        database.raw
          .prepare('SELECT address, ledger FROM snapshots WHERE protocol = ? ORDER BY random() LIMIT 4000')
          .all(module.name) as Array<{ address: string; ledger: number }>,
      )
    }
    const busiest = database.raw
      .prepare(
        'SELECT account, count(*) AS actions FROM account_actions GROUP BY account ORDER BY actions DESC LIMIT 500',
      )
      .all() as Array<{ account: string; actions: number }>
    return {
      key: created.key,
      samples: (protocol) => samples.get(protocol) ?? [],
      busiestAccounts: () => busiest,
      positionsPaths: (protocol) =>
        (samples.get(protocol) ?? []).map((r, i) => {
          const pin = r.ledger + ((i * 7919) % 500)
          return `/v1/users/${r.address}/positions/${protocol}?as_of_ledger=${pin}`
        }),
    }
  } finally {
    await database.close()
  }
}

/** One endpoint the bench measures against its own ceiling. */
interface BenchCase {
  name: string
  /** Paths requested in turn (each with the API key). */
  paths: string[]
}

/**
 * Endpoints beyond each module's positions: every protocol in one answer at a pin (snapshots of
 * all protocols mixed), and a 100-item activities page of the accounts with at least 100 stored
 * actions (the busiest accounts otherwise, so the page is as long as the store allows).
 */
const EXTRA_CASES: Array<(store: PreparedStore) => BenchCase> = [
  (store) => ({
    name: 'all positions',
    paths: PROTOCOLS.flatMap((m) => store.samples(m.name).slice(0, 1000)).map(
      (r, i) => `/v1/users/${r.address}/positions?as_of_ledger=${r.ledger + ((i * 7919) % 500)}`,
    ),
  }),
  (store) => {
    const full = store.busiestAccounts().filter((a) => a.actions >= 100)
    const accounts = full.length > 0 ? full : store.busiestAccounts().slice(0, 50)
    return {
      name: `activities page (limit 100${full.length > 0 ? '' : `, busiest has ${accounts[0]?.actions ?? 0}`})`,
      paths: accounts.map((a) => `/v1/users/${a.account}/activities?limit=100`),
    }
  },
]

interface Measured {
  requestsPerSecond: number
  /** As the load generator saw them (autocannon, millisecond resolution). */
  p50Ms: number
  p99Ms: number
  non2xx: number
  /** Requests answered in the round. */
  requests: number
  /** Server CPU (all threads, user + system) per request, µs; null when /proc cannot be read. */
  cpuUsPerRequest: number | null
  /** The load generator's own CPU per request (this process: autocannon and the log reader), µs. */
  clientCpuUsPerRequest: number
  /** Server-side handling time of the same requests, from the API's request log (0.01 ms resolution). */
  server?: { p50Ms: number; p99Ms: number }
  /** Answer-cache lookups in the round (a snapshot surface, or a whole all-protocols answer), from the server's metrics. */
  cache?: { hits: number; misses: number }
}

interface ServerProcess {
  url: string
  pid: number
  stop(): void
}

interface ApiProcess extends ServerProcess {
  /** Handling times (ms) of the requests logged since the last call. */
  takeServerTimes(): number[]
  /** The answer cache's hit and miss counts so far (its Prometheus counters). */
  cacheCounts(): Promise<{ hits: number; misses: number }>
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** A process's CPU time so far (user + system, all threads), in µs; null without /proc. */
function cpuUs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1e6
  } catch {
    return null
  }
}

async function load(
  target: ServerProcess,
  options: {
    path?: string
    paths?: string[]
    key?: string
    rate?: number
    api?: ApiProcess
    durationS?: number
  },
): Promise<Measured> {
  let next = 0
  options.api?.takeServerTimes()
  // Scraped outside the CPU window: the scrape is not part of the requests' cost.
  const cacheBefore = await options.api?.cacheCounts()
  const cpuBefore = cpuUs(target.pid)
  const clientBefore = process.cpuUsage()
  const result = await autocannon({
    url: `${target.url}${options.path ?? ''}`,
    connections: CONNECTIONS,
    duration: options.durationS ?? DURATION_S,
    ...(options.rate ? { overallRate: options.rate } : {}),
    headers: options.key ? { 'x-svc-token': options.key } : {},
    // A request set up per call is rebuilt each time; a fixed one is built once, so the ceiling's
    // load costs the load generator less and the ceiling is less bound by it.
    ...(options.paths
      ? {
          requests: [
            {
              setupRequest: (request) => {
                request.path = options.paths![next++ % options.paths!.length]!
                return request
              },
            },
          ],
        }
      : {}),
  })
  const cpuAfter = cpuUs(target.pid)
  const client = process.cpuUsage(clientBefore)
  const cacheAfter = await options.api?.cacheCounts()
  const requests = result.requests.total
  const measured: Measured = {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    requests,
    cpuUsPerRequest:
      cpuBefore === null || cpuAfter === null || requests === 0
        ? null
        : Math.round(((cpuAfter - cpuBefore) / requests) * 10) / 10,
    clientCpuUsPerRequest:
      requests === 0 ? 0 : Math.round(((client.user + client.system) / requests) * 10) / 10,
  }
  if (options.api) {
    const times = options.api.takeServerTimes().sort((a, b) => a - b)
    measured.server = { p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99) }
  }
  if (cacheBefore && cacheAfter) {
    measured.cache = {
      hits: cacheAfter.hits - cacheBefore.hits,
      misses: cacheAfter.misses - cacheBefore.misses,
    }
  }
  return measured
}

/** `node args…` on core 0 (when taskset exists). */
function spawnOnServerCore(args: string[], env: NodeJS.ProcessEnv, stdio: Array<'ignore' | 'pipe'>) {
  return HAS_TASKSET
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio, env })
    : spawn(process.execPath, args, { stdio, env })
}

async function startApi(
  store: BuiltStore,
  profileTo?: string,
  env: Record<string, string> = {},
): Promise<ApiProcess> {
  const hook = join(ROOT, 'bench/cpu-prof-hook.ts')
  const child = spawnOnServerCore(
    [...(profileTo ? ['--import', hook] : []), CLI, 'serve', '--port', '0'],
    {
      ...process.env,
      DATABASE_URL: `sqlite:${store.path}`,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      RATE_LIMIT_PER_MINUTE: '1000000',
      // Metrics on a port of their own: the answer cache's counters are read from there.
      METRICS_PORT: '0',
      ...(profileTo ? { BENCH_CPU_PROFILE: profileTo } : {}),
      ...env,
    },
    ['ignore', 'pipe', 'pipe'],
  )
  // The request log is the server's own record of how long each request took.
  let times: number[] = []
  let partial = ''
  child.stdout?.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n')
    partial = lines.pop() ?? ''
    for (const line of lines) {
      const match = /"ms":([0-9.]+)/.exec(line)
      if (match) times.push(Number(match[1]))
    }
  })
  const match = await readLine(
    child,
    'stderr',
    /listening on (http:\/\/\S+)[\s\S]*?metrics:\s+(http:\/\/\S+)/,
  )
  const metricsUrl = match[2]!
  return {
    url: match[1]!,
    pid: child.pid!,
    async cacheCounts() {
      const text = await (await fetch(metricsUrl)).text()
      const read = (name: string) => Number(new RegExp(`^${name} ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? 0)
      return {
        hits: read('strata_answer_cache_hits_total'),
        misses: read('strata_answer_cache_misses_total'),
      }
    },
    takeServerTimes: () => {
      const taken = times
      times = []
      return taken
    },
    stop: () => child.kill(),
  }
}

/** Where a case's ceiling body is written (and stays, for reading after the run). */
const ceilingFile = (name: string) => join(CACHE, `ceiling-${name.replace(/[^a-z0-9]+/gi, '-')}.json`)

async function startCeiling(name: string, body: string, spinUs = 0): Promise<ServerProcess> {
  const file = ceilingFile(name)
  writeFileSync(file, body)
  const child = spawnOnServerCore(
    [import.meta.filename, '--serve-ceiling', file, String(spinUs)],
    process.env,
    ['ignore', 'ignore', 'pipe'],
  )
  const match = await readLine(child, 'stderr', /listening on (http:\/\/\S+)/)
  return { url: `${match[1]!}`, pid: child.pid!, stop: () => child.kill() }
}

/** The largest of the first answers of a case: the ceiling serves a body of that size. */
async function sampleBody(api: ApiProcess, key: string, paths: string[]): Promise<string> {
  let largest = ''
  for (const path of paths.slice(0, 25)) {
    const response = await fetch(`${api.url}${path}`, { headers: { 'x-svc-token': key } })
    const body = await response.text()
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${body}`)
    if (body.length > largest.length) largest = body
  }
  return largest
}

interface CaseResult {
  name: string
  bodyBytes: number
  pairs: Array<{ api: Measured; ceiling: Measured; ratio: number; cpuRatio: number | null }>
  medianApi: number
  medianCeiling: number
  ratio: number
  ratioRange: [number, number]
  apiCpuUs: number | null
  ceilingCpuUs: number | null
  cpuRatio: number | null
  /** The load generator's CPU per request (µs), medians: against the endpoint and the ceiling. */
  apiClientCpuUs: number
  ceilingClientCpuUs: number
  /** Answer-cache hits over lookups in the measured rounds (null: none looked up). */
  cacheHitRate: number | null
  profile?: ProfileSummary
}

/** Hits over lookups of the answer cache in some rounds; null when nothing was looked up. */
function hitRate(rounds: Measured[]): number | null {
  const hits = rounds.reduce((sum, m) => sum + (m.cache?.hits ?? 0), 0)
  const misses = rounds.reduce((sum, m) => sum + (m.cache?.misses ?? 0), 0)
  return hits + misses === 0 ? null : Math.round((hits / (hits + misses)) * 10000) / 10000
}

type Pair = CaseResult['pairs'][number]

/** Alternating pairs: endpoint then ceiling, ceiling then endpoint, … (drift hits both alike). */
async function alternatePairs(
  name: string,
  endpointRound: () => Promise<Measured>,
  ceilingRound: () => Promise<Measured>,
): Promise<Pair[]> {
  await endpointRound() // warm-up
  await ceilingRound()
  const pairs: Pair[] = []
  for (let i = 0; i < PAIRS; i++) {
    let a: Measured
    let b: Measured
    if (i % 2 === 0) {
      a = await endpointRound()
      b = await ceilingRound()
    } else {
      b = await ceilingRound()
      a = await endpointRound()
    }
    if (a.non2xx > 0) throw new Error(`${name}: ${a.non2xx} non-2xx answers`)
    pairs.push({
      api: a,
      ceiling: b,
      ratio: round3(a.requestsPerSecond / b.requestsPerSecond),
      cpuRatio: a.cpuUsPerRequest && b.cpuUsPerRequest ? round3(b.cpuUsPerRequest / a.cpuUsPerRequest) : null,
    })
    process.stderr.write(
      `  ${name} pair ${i + 1}: ${a.requestsPerSecond} vs ${b.requestsPerSecond} req/s (ratio ${pairs.at(-1)!.ratio}), CPU ${a.cpuUsPerRequest} vs ${b.cpuUsPerRequest} µs/req, client CPU ${a.clientCpuUsPerRequest} vs ${b.clientCpuUsPerRequest} µs/req\n`,
    )
  }
  return pairs
}

/** Medians of a case's pairs. */
function summarizePairs(name: string, body: string, pairs: Pair[]): CaseResult {
  const ratios = pairs.map((p) => p.ratio)
  const cpu = (values: Array<number | null>) =>
    values.every((v) => v !== null) ? round3(median(values as number[])) : null
  return {
    name,
    bodyBytes: Buffer.byteLength(body),
    pairs,
    medianApi: Math.round(median(pairs.map((p) => p.api.requestsPerSecond))),
    medianCeiling: Math.round(median(pairs.map((p) => p.ceiling.requestsPerSecond))),
    ratio: round3(median(ratios)),
    ratioRange: [Math.min(...ratios), Math.max(...ratios)],
    apiCpuUs: cpu(pairs.map((p) => p.api.cpuUsPerRequest)),
    ceilingCpuUs: cpu(pairs.map((p) => p.ceiling.cpuUsPerRequest)),
    cpuRatio: cpu(pairs.map((p) => p.cpuRatio)),
    apiClientCpuUs: round3(median(pairs.map((p) => p.api.clientCpuUsPerRequest))),
    ceilingClientCpuUs: round3(median(pairs.map((p) => p.ceiling.clientCpuUsPerRequest))),
    cacheHitRate: hitRate(pairs.map((p) => p.api)),
  }
}

/** An endpoint against the ceiling serving a body of the size of its largest sampled answer. */
async function measureCase(api: ApiProcess, key: string, c: BenchCase): Promise<CaseResult> {
  const body = await sampleBody(api, key, c.paths)
  const ceiling = await startCeiling(c.name, body)
  try {
    const pairs = await alternatePairs(
      c.name,
      () => load(api, { paths: c.paths, key, api }),
      () => load(ceiling, { path: '/static' }),
    )
    return summarizePairs(c.name, body, pairs)
  } finally {
    ceiling.stop()
  }
}

/** Spins of the host-scale calibration, µs of CPU burnt per request by the ceiling's route. */
const HOST_SCALE_SPINS_US = [25, 50]

/**
 * The host's scale: the ceiling made slower by a fixed CPU spin per request, against the same
 * ceiling without it, in alternating pairs like an endpoint. On a host where a slower answer cost
 * only its own work, the spun route would cost the ceiling's CPU plus the spin; what it costs
 * beyond that is what this host charges the exchange for being slower (the load generator waiting
 * on the server, and woken by each answer), which an endpoint pays too. It reads an endpoint's
 * ratio against what a bare route doing the same amount of work would reach on this host.
 */
async function measureHostScale(body: string): Promise<CaseResult[]> {
  const ceiling = await startCeiling('host-scale', body)
  try {
    const results: CaseResult[] = []
    for (const spinUs of HOST_SCALE_SPINS_US) {
      const name = `bare route + ${spinUs} µs of CPU`
      const spun = await startCeiling(`host-scale-${spinUs}`, body, spinUs)
      try {
        const pairs = await alternatePairs(
          name,
          () => load(spun, { path: '/static' }),
          () => load(ceiling, { path: '/static' }),
        )
        results.push(summarizePairs(name, body, pairs))
      } finally {
        spun.stop()
      }
    }
    return results
  } finally {
    ceiling.stop()
  }
}

/** Profiles a case's measured window in a server started with the profiler hook. */
async function profileCase(api: ApiProcess, profileBase: string, round: number, key: string, c: BenchCase) {
  await load(api, { paths: c.paths, key, durationS: Math.min(DURATION_S, 3) }) // warm-up
  process.kill(api.pid, 'SIGUSR2')
  const measured = await load(api, { paths: c.paths, key })
  process.kill(api.pid, 'SIGUSR2')
  const file = `${profileBase}.${round}.cpuprofile`
  for (let waited = 0; !existsSync(file); waited += 100) {
    if (waited > 30_000) throw new Error(`no CPU profile at ${file}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  rmSync(file)
  return summarizeProfile(profile, measured.requests)
}

async function main(): Promise<void> {
  if (!process.env.BENCH_PINNED && HAS_TASKSET) {
    // Re-run pinned to core 1; the servers take core 0.
    execFileSync('taskset', ['-c', '1', process.execPath, import.meta.filename], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_PINNED: '1' },
    })
    return
  }
  const large = await buildStore(LARGE)
  const small = await buildStore(SMALL)
  const largeQueries = await prepareStore(large)
  const smallQueries = await prepareStore(small)
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

  const api = await startApi(large)
  const results: CaseResult[] = []
  for (const c of cases) if (c.paths.length > 0) results.push(await measureCase(api, key, c))
  const vault = results[0]!
  const vaultPaths = cases[0]!.paths
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
  const hostScale = await measureHostScale(readFileSync(ceilingFile(vault.name), 'utf8'))

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

  const report: Report = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, SQLite (node:sqlite)`,
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
    smallStore: { snapshots: small.snapshots, accounts: small.accounts, ledgers: small.ledgers },
    cases: results,
    cold,
    hostScale,
    skipped,
    vaultAtHalfPeak: { rate: Math.round(vault.medianApi / 2), ...half },
    depth: {
      rate: depthRate,
      small: shallow,
      large: deep,
      serverP50Ratio: round3((deep.server?.p50Ms ?? 0) / Math.max(shallow.server?.p50Ms ?? 0, 0.001)),
      clientP50Ratio: round3(deep.p50Ms / Math.max(shallow.p50Ms, 0.001)),
    },
  }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  updateBenchSection('api', renderReport(report))
}

const round3 = (value: number) => Math.round(value * 1000) / 1000

interface Report {
  machine: string
  pinned: boolean
  durationSPerRun: number
  pairs: number
  connections: number
  largeStore: { snapshots: number; byProtocol: Record<string, number>; accounts: number; ledgers: number }
  smallStore: { snapshots: number; accounts: number; ledgers: number }
  cases: CaseResult[]
  /** The vault endpoint with STRATA_ANSWER_CACHE_MB=0. */
  cold: CaseResult
  /** The ceiling with a fixed CPU spin per request, against the ceiling (see `measureHostScale`). */
  hostScale: CaseResult[]
  skipped: string[]
  vaultAtHalfPeak: Measured & { rate: number }
  depth: { rate: number; small: Measured; large: Measured; serverP50Ratio: number; clientP50Ratio: number }
}

function renderReport(r: Report): string {
  const n = (value: number) => value.toLocaleString('en')
  const use = (rate: number, us: number | null) =>
    us === null ? 'n/a' : (Math.round((rate * us) / 1e4) / 100).toFixed(2)
  const row = (name: string, m: Measured) =>
    `| ${name} | ${m.requestsPerSecond} | ${m.p50Ms} | ${m.p99Ms} | ${m.server ? `${m.server.p50Ms} / ${m.server.p99Ms}` : 'n/a'} | ${m.non2xx} |`
  const stores = Object.entries(r.largeStore.byProtocol)
    .map(([protocol, count]) => `${protocol} ${n(count)}`)
    .join(', ')
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:api\` on ${r.machine}; ${r.pinned ? 'servers pinned to core 0, autocannon to core 1' : 'no taskset: servers and load generator unpinned'}, ${r.connections} connections, ${r.durationSPerRun} s per round, ${r.pairs} alternating pairs per endpoint.`,
    `Large store: ${n(r.largeStore.snapshots)} snapshots (${stores}) of ${n(r.largeStore.accounts)} accounts over ${n(r.largeStore.ledgers)} ledgers; small store: ${n(r.smallStore.snapshots)} snapshots.${r.skipped.length ? ` Skipped (no snapshots): ${r.skipped.join(', ')}.` : ''}`,
    '',
    '| endpoint | body bytes | endpoint req/s | ceiling req/s | ratio (median [range]) | server CPU µs/req: endpoint / ceiling | CPU ratio | load generator CPU µs/req: endpoint / ceiling | answer-cache hits |',
    '|---|---|---|---|---|---|---|---|---|',
    ...[...r.cases, r.cold].map(
      (c) =>
        `| ${c.name} | ${c.bodyBytes} | ${c.medianApi} | ${c.medianCeiling} | **${c.ratio}** [${c.ratioRange[0]}–${c.ratioRange[1]}] | ${c.apiCpuUs ?? 'n/a'} / ${c.ceilingCpuUs ?? 'n/a'} | ${c.cpuRatio ?? 'n/a'} | ${c.apiClientCpuUs} / ${c.ceilingClientCpuUs} | ${c.cacheHitRate === null ? 'n/a' : `${Math.round(c.cacheHitRate * 1000) / 10}%`} |`,
    ),
    '',
    `Core use in the median round (rate × CPU per request): ${[...r.cases, r.cold]
      .map(
        (c) =>
          `${c.name}: server ${use(c.medianApi, c.apiCpuUs)}, load generator ${use(c.medianApi, c.apiClientCpuUs)}; its ceiling: server ${use(c.medianCeiling, c.ceilingCpuUs)}, load generator ${use(c.medianCeiling, c.ceilingClientCpuUs)}`,
      )
      .join('; ')}. A side near 1.0 is the one that limits the round's rate.`,
    '',
    "The host's scale: the ceiling's route made to burn a fixed amount of CPU per request, against the same route without it, in alternating pairs (vault-sized body). On a host where a slower answer cost only its own work, the spun route would cost the ceiling's CPU plus the spin; the column beyond it is what this host charges for the slower exchange (the load generator waits and is woken by each answer), which an endpoint pays too. Read an endpoint's ratio against the ratio of a bare route doing as much work.",
    '',
    '| route | req/s | ceiling req/s | ratio (median [range]) | server CPU µs/req: route / ceiling | beyond the ceiling and the spin, µs/req | load generator CPU µs/req: route / ceiling |',
    '|---|---|---|---|---|---|---|',
    ...r.hostScale.map((c, i) => {
      const spin = HOST_SCALE_SPINS_US[i]!
      const beyond =
        c.apiCpuUs === null || c.ceilingCpuUs === null ? 'n/a' : round3(c.apiCpuUs - c.ceilingCpuUs - spin)
      return `| ${c.name} | ${c.medianApi} | ${c.medianCeiling} | **${c.ratio}** [${c.ratioRange[0]}–${c.ratioRange[1]}] | ${c.apiCpuUs ?? 'n/a'} / ${c.ceilingCpuUs ?? 'n/a'} | ${beyond} | ${c.apiClientCpuUs} / ${c.ceilingClientCpuUs} |`
    }),
    '',
    '| run | req/s | client p50 ms | client p99 ms | server p50 / p99 ms | non-2xx |',
    '|---|---|---|---|---|---|',
    row(`vault positions at half its peak rate (${r.vaultAtHalfPeak.rate}/s)`, r.vaultAtHalfPeak),
    row(`depth: ${n(r.smallStore.snapshots)} snapshots at ${r.depth.rate}/s`, r.depth.small),
    row(`depth: ${n(r.largeStore.snapshots)} snapshots at ${r.depth.rate}/s`, r.depth.large),
    '',
    `- Vault positions: **${r.cases[0]?.ratio}** of the ceiling (goal 0.4, aim 0.5); other endpoints: ${r.cases
      .slice(1)
      .map((c) => `${c.name} **${c.ratio}**`)
      .join(', ')} (goal 0.3).`,
    `- Answer-cache hits are per lookup (a snapshot surface, or a whole all-protocols answer; one per request when it hits) over the measured rounds; the warm-up round before them renders what the paths ask. With the cache off, the vault endpoint is at **${r.cold.ratio}** of its ceiling (CPU ratio ${r.cold.cpuRatio ?? 'n/a'}, ${r.cold.apiCpuUs ?? 'n/a'} µs/request against ${r.cases[0]?.apiCpuUs ?? 'n/a'} with it).`,
    `- Server p99 at half the peak rate: **${r.vaultAtHalfPeak.server?.p99Ms} ms** (goal under 1 ms); client p99 ${r.vaultAtHalfPeak.p99Ms} ms.`,
    `- Depth: server p50 ratio large/small **${r.depth.serverP50Ratio}**, client p50 ratio ${r.depth.clientP50Ratio} (aim: under 1.2).`,
    '',
    'CPU profiles (V8 sampler at 1 ms, main thread, measured window only; the profiler adds a few percent):',
    '',
    ...r.cases.flatMap((c) => (c.profile ? [renderProfileSummary(`**${c.name}**`, c.profile), ''] : [])),
  ].join('\n')
}

const mode = process.argv[2]
if (mode === '--serve-devnet') await serveDevnet(JSON.parse(process.argv[3]!) as StoreSpec)
else if (mode === '--serve-ceiling') await serveCeiling(process.argv[3]!, Number(process.argv[4] ?? 0))
else await main()
