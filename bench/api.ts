// API benchmark, in ONE run on this machine's two cores: the server under test is pinned to core 0,
// the load generator (this process) to core 1.
//   1. ceiling: a bare Fastify route returning a static JSON body of the same size as a real answer;
//   2. the real authenticated positions endpoint (API key, rate limiting and request logging on) on a
//      devnet of >= 100k accounts and >= 1M snapshots: peak req/s, p50, p99, ratio to the ceiling;
//   3. the same endpoint at half its peak rate: p99;
//   4. depth: the endpoint on a 10k-snapshot store and on the 1M+ store at one fixed rate: p50 ratio;
//   5. the lending positions endpoint (Blend pools) on the large store at peak, against a ceiling
//      serving a body of the size of a lending answer.
// The devnet stores are built once through the real indexer and cached under bench/.cache.
//
//   npm run bench:api
//   BENCH_API_DURATION_S=20 npm run bench:api
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { createApiKey } from '../src/auth/create-api-key.ts'
import { createIndexer } from '../src/indexer/index.ts'
import { createLogger } from '../src/logger.ts'
import { createDatabase } from '../src/store/db.ts'
import { migrateToLatest } from '../src/store/migrate.ts'
import { loadOrCreateSecret } from '../src/store/secrets.ts'
import { updateBenchSection } from './report.ts'

const ROOT = new URL('..', import.meta.url).pathname
const CACHE = join(ROOT, 'bench/.cache')
const CLI = join(ROOT, 'src/cli/main.ts')
const DURATION_S = Number(process.env.BENCH_API_DURATION_S ?? 10)
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 16)

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
}

const LARGE: StoreSpec = {
  name: 'large',
  layout: 'fxdao-0.6.0+reflector-v3+blend-v2',
  seed: 'bench-api',
  accounts: Number(process.env.BENCH_API_LARGE_ACCOUNTS ?? 100_000),
  // 20,000 ledgers make 1M+ snapshots; the devnet's real layouts take most of an hour to build them.
  ledgers: Number(process.env.BENCH_API_LARGE_LEDGERS ?? 20_000),
  activity: 0.0009,
  // Lending accounts are half the population; at a third of the vault rate they make about a
  // quarter of the store's snapshots.
  lendingActivity: 0.0003,
}
const SMALL: StoreSpec = {
  name: 'small',
  layout: 'fxdao-0.6.0+reflector-v3+blend-v2',
  seed: 'bench-api-small',
  accounts: 2_000,
  ledgers: 5_000,
  activity: 0.0022,
  lendingActivity: 0.0007,
}

interface BuiltStore {
  path: string
  snapshots: number
  /** Of which the lending protocol's. */
  lendingSnapshots: number
  accounts: number
  ledgers: number
}

/** Child mode: serve a devnet and print its URL (generation gets its own process and core). */
async function serveDevnet(spec: StoreSpec): Promise<void> {
  const { startDevnet } = await import('../src/chain/devnet/index.ts')
  const devnet = await startDevnet({
    seed: spec.seed,
    ledgers: spec.ledgers,
    accounts: spec.accounts,
    activity: spec.activity,
    lendingActivity: spec.lendingActivity,
  })
  process.stdout.write(
    `${JSON.stringify({ url: devnet.url, latest: devnet.latestLedger(), network: devnet.network })}\n`,
  )
}

/** Child mode: the ceiling, a bare Fastify route answering a fixed body. */
async function serveCeiling(bodyFile: string): Promise<void> {
  const { default: Fastify } = await import('fastify')
  const body = readFileSync(bodyFile, 'utf8')
  const app = Fastify()
  app.get('/static', async (_request, reply) => reply.type('application/json').send(body))
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
      lendingSnapshots: count("SELECT count(*) AS n FROM snapshots WHERE protocol = 'lendingprotocol'"),
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

/** Addresses and pins to query, spread over each store's history; plus a ready API key. */
async function prepareStore(
  store: BuiltStore,
): Promise<{ key: string; paths: string[]; lendingPaths: string[] }> {
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
    const pathsOf = (protocol: string) => {
      const rows = database.raw
        .prepare('SELECT address, ledger FROM snapshots WHERE protocol = ? ORDER BY random() LIMIT 4000')
        .all(protocol) as Array<{ address: string; ledger: number }>
      return rows.map((r, i) => {
        const pin = r.ledger + ((i * 7919) % 500)
        return `/v1/users/${r.address}/positions/${protocol}?as_of_ledger=${pin}`
      })
    }
    return { key: created.key, paths: pathsOf('vaultprotocol'), lendingPaths: pathsOf('lendingprotocol') }
  } finally {
    await database.close()
  }
}

interface Measured {
  requestsPerSecond: number
  /** As the load generator saw them (autocannon, millisecond resolution). */
  p50Ms: number
  p99Ms: number
  non2xx: number
  /** Server-side handling time of the same requests, from the API's request log (0.01 ms resolution). */
  server?: { p50Ms: number; p99Ms: number }
}

interface ApiProcess {
  url: string
  /** Handling times (ms) of the requests logged since the last call. */
  takeServerTimes(): number[]
  stop(): void
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

async function load(
  url: string,
  options: { paths?: string[]; key?: string; rate?: number; api?: ApiProcess },
): Promise<Measured> {
  let next = 0
  options.api?.takeServerTimes()
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    ...(options.rate ? { overallRate: options.rate } : {}),
    headers: options.key ? { 'x-svc-token': options.key } : {},
    requests: [
      {
        setupRequest: (request) => {
          if (options.paths) request.path = options.paths[next++ % options.paths.length]!
          return request
        },
      },
    ],
  })
  const measured: Measured = {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  }
  if (options.api) {
    const times = options.api.takeServerTimes().sort((a, b) => a - b)
    measured.server = { p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99) }
  }
  return measured
}

async function startApi(store: BuiltStore): Promise<ApiProcess> {
  const child = spawn('taskset', ['-c', '0', process.execPath, CLI, 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${store.path}`,
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '1000000',
    },
  })
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
  const match = await readLine(child, 'stderr', /listening on (http:\/\/\S+)/)
  return {
    url: match[1]!,
    takeServerTimes: () => {
      const taken = times
      times = []
      return taken
    },
    stop: () => child.kill(),
  }
}

async function startCeiling(body: string): Promise<{ url: string; stop: () => void }> {
  const file = join(CACHE, 'ceiling-body.json')
  writeFileSync(file, body)
  const child = spawn(
    'taskset',
    ['-c', '0', process.execPath, import.meta.filename, '--serve-ceiling', file],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  const match = await readLine(child, 'stderr', /listening on (http:\/\/\S+)/)
  return { url: match[1]!, stop: () => child.kill() }
}

async function main(): Promise<void> {
  if (!process.env.BENCH_PINNED) {
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

  const api = await startApi(large)
  const sample = await fetch(`${api.url}${largeQueries.paths[0]}`, {
    headers: { 'x-svc-token': largeQueries.key },
  })
  const body = await sample.text()
  if (sample.status !== 200) throw new Error(`positions answered ${sample.status}: ${body}`)
  await load(api.url, { paths: largeQueries.paths, key: largeQueries.key }) // warm-up
  const peak = await load(api.url, { paths: largeQueries.paths, key: largeQueries.key, api })
  const half = await load(api.url, {
    paths: largeQueries.paths,
    key: largeQueries.key,
    rate: Math.round(peak.requestsPerSecond / 2),
    api,
  })
  // A lending answer that holds something, for the ceiling's body.
  let lendingBody = ''
  for (const path of largeQueries.lendingPaths.slice(0, 50)) {
    const response = await fetch(`${api.url}${path}`, { headers: { 'x-svc-token': largeQueries.key } })
    lendingBody = await response.text()
    if (response.status !== 200)
      throw new Error(`lending positions answered ${response.status}: ${lendingBody}`)
    if (lendingBody.includes('"position_type"')) break
  }
  await load(api.url, { paths: largeQueries.lendingPaths, key: largeQueries.key }) // warm-up
  const lendingPeak = await load(api.url, { paths: largeQueries.lendingPaths, key: largeQueries.key, api })
  api.stop()

  const ceilingServer = await startCeiling(body)
  await load(`${ceilingServer.url}/static`, {})
  const ceiling = await load(`${ceilingServer.url}/static`, {})
  ceilingServer.stop()
  const lendingCeilingServer = await startCeiling(lendingBody)
  await load(`${lendingCeilingServer.url}/static`, {})
  const lendingCeiling = await load(`${lendingCeilingServer.url}/static`, {})
  lendingCeilingServer.stop()

  const smallApi = await startApi(small)
  await load(smallApi.url, { paths: smallQueries.paths, key: smallQueries.key })
  const depthRate = Math.round(peak.requestsPerSecond / 2)
  const shallow = await load(smallApi.url, {
    paths: smallQueries.paths,
    key: smallQueries.key,
    rate: depthRate,
    api: smallApi,
  })
  smallApi.stop()
  const deepApi = await startApi(large)
  await load(deepApi.url, { paths: largeQueries.paths, key: largeQueries.key })
  const deep = await load(deepApi.url, {
    paths: largeQueries.paths,
    key: largeQueries.key,
    rate: depthRate,
    api: deepApi,
  })
  deepApi.stop()

  const report: Report = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, SQLite (node:sqlite)`,
    durationSPerRun: DURATION_S,
    connections: CONNECTIONS,
    bodyBytes: Buffer.byteLength(body),
    largeStore: {
      snapshots: large.snapshots,
      lendingSnapshots: large.lendingSnapshots,
      accounts: large.accounts,
      ledgers: large.ledgers,
    },
    smallStore: { snapshots: small.snapshots, accounts: small.accounts, ledgers: small.ledgers },
    ceiling,
    positionsPeak: peak,
    ratioToCeiling: round3(peak.requestsPerSecond / ceiling.requestsPerSecond),
    positionsAtHalfPeak: { rate: Math.round(peak.requestsPerSecond / 2), ...half },
    lending: {
      bodyBytes: Buffer.byteLength(lendingBody),
      ceiling: lendingCeiling,
      peak: lendingPeak,
      ratioToCeiling: round3(lendingPeak.requestsPerSecond / lendingCeiling.requestsPerSecond),
    },
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
  durationSPerRun: number
  connections: number
  bodyBytes: number
  largeStore: { snapshots: number; lendingSnapshots: number; accounts: number; ledgers: number }
  smallStore: { snapshots: number; accounts: number; ledgers: number }
  ceiling: Measured
  positionsPeak: Measured
  ratioToCeiling: number
  positionsAtHalfPeak: Measured & { rate: number }
  lending: { bodyBytes: number; ceiling: Measured; peak: Measured; ratioToCeiling: number }
  depth: { rate: number; small: Measured; large: Measured; serverP50Ratio: number; clientP50Ratio: number }
}

function renderReport(r: Report): string {
  const row = (name: string, m: Measured) =>
    `| ${name} | ${m.requestsPerSecond} | ${m.p50Ms} | ${m.p99Ms} | ${m.server ? `${m.server.p50Ms} / ${m.server.p99Ms}` : 'n/a'} | ${m.non2xx} |`
  const n = (value: number) => value.toLocaleString('en')
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:api\` on ${r.machine}; server pinned to core 0, autocannon to core 1, ${r.connections} connections, ${r.durationSPerRun} s per run.`,
    `Large store: ${n(r.largeStore.snapshots)} snapshots (${n(r.largeStore.lendingSnapshots)} of them lending) of ${n(r.largeStore.accounts)} accounts over ${n(r.largeStore.ledgers)} ledgers; small store: ${n(r.smallStore.snapshots)} snapshots. Response body ${r.bodyBytes} bytes (lending: ${r.lending.bodyBytes}). Client latencies are autocannon's (whole milliseconds); server latencies come from the API's own request log.`,
    '',
    '| run | req/s | client p50 ms | client p99 ms | server p50 / p99 ms | non-2xx |',
    '|---|---|---|---|---|---|',
    row('ceiling: bare Fastify, static body of the same size', r.ceiling),
    row('positions, peak (API key, rate limit, logging, metrics on)', r.positionsPeak),
    row(`positions at half the peak rate (${r.positionsAtHalfPeak.rate}/s)`, r.positionsAtHalfPeak),
    row(`depth: ${n(r.smallStore.snapshots)} snapshots at ${r.depth.rate}/s`, r.depth.small),
    row(`depth: ${n(r.largeStore.snapshots)} snapshots at ${r.depth.rate}/s`, r.depth.large),
    row("ceiling for lending: bare Fastify, static body of a lending answer's size", r.lending.ceiling),
    row('lending positions, peak (Blend pools, same store and load)', r.lending.peak),
    '',
    `- Ratio to the ceiling: **${r.ratioToCeiling}** (aim: 0.45 or better); lending positions: **${r.lending.ratioToCeiling}** to its own ceiling.`,
    `- p99 at half the peak rate: **${r.positionsAtHalfPeak.p99Ms} ms** seen by the client, ${r.positionsAtHalfPeak.server?.p99Ms} ms in the server (aim: under 5 ms).`,
    `- Depth: server p50 ratio large/small **${r.depth.serverP50Ratio}**, client p50 ratio ${r.depth.clientP50Ratio} (aim: under 1.2).`,
  ].join('\n')
}

const mode = process.argv[2]
if (mode === '--serve-devnet') await serveDevnet(JSON.parse(process.argv[3]!) as StoreSpec)
else if (mode === '--serve-ceiling') await serveCeiling(process.argv[3]!)
else await main()
