// The API benchmark's rounds: a server under load for a fixed time (autocannon), its CPU per request
// and its own request log's timings; endpoints against a bare Fastify ceiling in alternating pairs.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { compressAnswer } from '../src/api/http-conventions.ts'
import {
  CACHE,
  CLI,
  CONNECTIONS,
  cpuUs,
  DURATION_S,
  median,
  PAIRS,
  percentile,
  ROOT,
  readLine,
  round3,
  spawnOnCores,
  spawnOnServerCore,
} from './api-env.ts'
import {
  type PostgresStore,
  postgresServerEnv,
  readSideCpu,
  type SideCpu,
  sideCpuBetween,
} from './api-postgres.ts'
import type { BenchCase, BuiltStore } from './api-stores.ts'
import { type CpuProfile, type ProfileSummary, summarizeProfile } from './cpu-profile.ts'

/**
 * The ceiling: a bare Fastify route serving a static body. With `spinUs`, the route first burns
 * that much CPU (a busy loop on the clock), which makes it a calibration of the host (see
 * `measureHostScale`). With `compressed`, it compresses as the API does (the same `compressAnswer`,
 * in an `onSend` hook like the API's), so an endpoint asked for gzip is measured against a ceiling
 * asked for gzip.
 */
export async function serveCeiling(bodyFile: string, spinUs: number, compressed = false): Promise<void> {
  const { default: Fastify } = await import('fastify')
  const body = readFileSync(bodyFile, 'utf8')
  const app = Fastify()
  if (compressed) {
    app.addHook('onSend', (request, reply, payload, done) =>
      done(null, compressAnswer(request, reply, payload)),
    )
  }
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

export interface Measured {
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
  /** The server's garbage-collection pauses in the round, µs per request (its metrics). */
  gcUsPerRequest?: number
  /**
   * On PostgreSQL, what the server's requests cost beside its own process, µs per request: its
   * database backends' CPU (null when PostgreSQL runs on another host) and Redis's (all its clients).
   */
  side?: { databaseCpuUsPerRequest: number | null; redisCpuUsPerRequest: number | null }
}

export interface ServerProcess {
  url: string
  pid: number
  stop(): void
}

export interface ApiProcess extends ServerProcess {
  /** Handling times (ms) of the requests logged since the last call. */
  takeServerTimes(): number[]
  /** The answer cache's hit and miss counts so far (its Prometheus counters). */
  cacheCounts(): Promise<{ hits: number; misses: number; gcSeconds: number }>
  /** On PostgreSQL: the CPU its database backends and Redis spent so far (see api-postgres.ts). */
  sideCpu?: () => Promise<SideCpu>
}

export async function load(
  target: ServerProcess,
  options: {
    path?: string
    paths?: string[]
    key?: string
    rate?: number
    api?: ApiProcess
    durationS?: number
    /** Headers of every request beside the key (`accept-encoding`). */
    headers?: Record<string, string>
    /** Headers of the requests for one path (an `if-none-match` naming that path's ETag). */
    pathHeaders?: (path: string) => Record<string, string>
  },
): Promise<Measured> {
  let next = 0
  options.api?.takeServerTimes()
  // Scraped outside the CPU window: the scrape is not part of the requests' cost.
  const cacheBefore = await options.api?.cacheCounts()
  const sideBefore = await options.api?.sideCpu?.()
  const cpuBefore = cpuUs(target.pid)
  const clientBefore = process.cpuUsage()
  const result = await autocannon({
    url: `${target.url}${options.path ?? ''}`,
    connections: CONNECTIONS,
    duration: options.durationS ?? DURATION_S,
    ...(options.rate ? { overallRate: options.rate } : {}),
    headers: { ...(options.key ? { 'x-svc-token': options.key } : {}), ...options.headers },
    // A request set up per call is rebuilt each time; a fixed one is built once, so the ceiling's
    // load costs the load generator less and the ceiling is less bound by it.
    ...(options.paths
      ? {
          requests: [
            {
              setupRequest: (request) => {
                const path = options.paths![next++ % options.paths!.length]!
                request.path = path
                if (options.pathHeaders)
                  request.headers = { ...request.headers, ...options.pathHeaders(path) }
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
  const sideAfter = await options.api?.sideCpu?.()
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
    if (requests > 0) {
      measured.gcUsPerRequest =
        Math.round(((cacheAfter.gcSeconds - cacheBefore.gcSeconds) * 1e6 * 10) / requests) / 10
    }
  }
  if (sideBefore && sideAfter) measured.side = sidePerRequest(sideBefore, sideAfter, requests)
  return measured
}

/** The side CPU between two readings, per request, µs. */
export function sidePerRequest(
  before: SideCpu,
  after: SideCpu,
  requests: number,
): NonNullable<Measured['side']> {
  const { databaseUs, redisUs } = sideCpuBetween(before, after)
  const per = (us: number | null) =>
    us === null || requests === 0 ? null : Math.round((us / requests) * 10) / 10
  return { databaseCpuUsPerRequest: per(databaseUs), redisCpuUsPerRequest: per(redisUs) }
}

/** Servers started by this process, naming each one's PostgreSQL connections apart. */
let serversStarted = 0

/**
 * `strata serve` on a store, pinned to core 0, with rate limiting out of the way and its metrics on
 * a port of their own. `cli` is another checkout's entry point when comparing with a baseline.
 * On PostgreSQL the store's URL names the server's connections (their backends' CPU is read per
 * round) and Redis counts the rate limits, as in production. `placement.cores` pins it elsewhere
 * (a taskset list); `placement.discardLog` sends its request log nowhere instead of to this
 * process, which then reads no handling times from it (and spends no CPU reading them).
 */
export async function startApi(
  store: Pick<BuiltStore, 'path'> | PostgresStore,
  profileTo?: string,
  env: Record<string, string> = {},
  cli: string = CLI,
  placement: { cores?: string; discardLog?: boolean } = {},
): Promise<ApiProcess> {
  const hook = join(ROOT, 'bench/cpu-prof-hook.ts')
  const applicationName = `strata-bench-${process.pid}-${++serversStarted}`
  const onPostgres = 'kind' in store
  const storeEnv = onPostgres
    ? postgresServerEnv(store, applicationName)
    : { DATABASE_URL: `sqlite:${store.path}` }
  const child = spawnOnCores(
    placement.cores ?? '0',
    [...(profileTo ? ['--import', hook] : []), cli, 'serve', '--port', '0'],
    {
      ...process.env,
      ...storeEnv,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      RATE_LIMIT_PER_MINUTE: '1000000',
      // Metrics on a port of their own: the answer cache's counters are read from there.
      METRICS_PORT: '0',
      ...(profileTo ? { BENCH_CPU_PROFILE: profileTo } : {}),
      ...env,
    },
    ['ignore', placement.discardLog ? 'ignore' : 'pipe', 'pipe'],
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
      // The collector's pauses, every kind summed (prom-client's histogram of GC durations).
      const gcSeconds = [
        ...text.matchAll(/^strata_nodejs_gc_duration_seconds_sum\{[^}]*\} ([0-9.e+-]+)$/gm),
      ].reduce((sum, m) => sum + Number(m[1]), 0)
      return {
        hits: read('strata_answer_cache_hits_total'),
        misses: read('strata_answer_cache_misses_total'),
        gcSeconds,
      }
    },
    takeServerTimes: () => {
      const taken = times
      times = []
      return taken
    },
    ...(onPostgres ? { sideCpu: () => readSideCpu(applicationName) } : {}),
    stop: () => child.kill(),
  }
}

/** Where a case's ceiling body is written (and stays, for reading after the run). */
export const ceilingFile = (name: string) => join(CACHE, `ceiling-${name.replace(/[^a-z0-9]+/gi, '-')}.json`)

export async function startCeiling(
  name: string,
  body: string,
  spinUs = 0,
  compressed = false,
): Promise<ServerProcess> {
  const file = ceilingFile(name)
  writeFileSync(file, body)
  const child = spawnOnServerCore(
    [join(ROOT, 'bench/api.ts'), '--serve-ceiling', file, String(spinUs), compressed ? 'gzip' : 'plain'],
    process.env,
    ['ignore', 'ignore', 'pipe'],
  )
  const match = await readLine(child, 'stderr', /listening on (http:\/\/\S+)/)
  return { url: `${match[1]!}`, pid: child.pid!, stop: () => child.kill() }
}

/**
 * Asks every path once (CONNECTIONS at a time), so a server's answer cache holds what the rounds
 * will ask. A warm-up round reaches every path of a case only on a server fast enough to go round
 * its list in the round's time; a slower one (PostgreSQL, a second replica) would otherwise be
 * measured partly cold.
 */
export async function warmPaths(target: ServerProcess, key: string, paths: string[]): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!
      const response = await fetch(`${target.url}${path}`, { headers: { 'x-svc-token': key } })
      const body = await response.arrayBuffer()
      if (response.status !== 200) {
        throw new Error(`${path} answered ${response.status}: ${Buffer.from(body).toString().slice(0, 500)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS }, worker))
}

/** The largest of the first answers of a case: the ceiling serves a body of that size. */
export async function sampleBody(api: ApiProcess, key: string, paths: string[]): Promise<string> {
  let largest = ''
  for (const path of paths.slice(0, 25)) {
    const response = await fetch(`${api.url}${path}`, { headers: { 'x-svc-token': key } })
    const body = await response.text()
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${body}`)
    if (body.length > largest.length) largest = body
  }
  return largest
}

export interface CaseResult {
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
  /** On PostgreSQL, the endpoint's database backends' and Redis's CPU per request (µs), medians; else null. */
  apiDatabaseCpuUs: number | null
  apiRedisCpuUs: number | null
  profile?: ProfileSummary
}

/** Hits over lookups of the answer cache in some rounds; null when nothing was looked up. */
export function hitRate(rounds: Measured[]): number | null {
  const hits = rounds.reduce((sum, m) => sum + (m.cache?.hits ?? 0), 0)
  const misses = rounds.reduce((sum, m) => sum + (m.cache?.misses ?? 0), 0)
  return hits + misses === 0 ? null : Math.round((hits / (hits + misses)) * 10000) / 10000
}

export type Pair = CaseResult['pairs'][number]

/** Alternating pairs: endpoint then ceiling, ceiling then endpoint, … (drift hits both alike). */
export async function alternatePairs(
  name: string,
  endpointRound: () => Promise<Measured>,
  ceilingRound: () => Promise<Measured>,
  /** The endpoint's answers are meant to be other than 2xx (304s). */
  endpointNon2xx = false,
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
    if (endpointNon2xx ? a.non2xx !== a.requests : a.non2xx > 0) {
      throw new Error(`${name}: ${endpointNon2xx ? a.requests - a.non2xx : a.non2xx} unexpected answers`)
    }
    pairs.push({
      api: a,
      ceiling: b,
      ratio: round3(a.requestsPerSecond / b.requestsPerSecond),
      cpuRatio: a.cpuUsPerRequest && b.cpuUsPerRequest ? round3(b.cpuUsPerRequest / a.cpuUsPerRequest) : null,
    })
    const side = a.side
      ? `, database ${a.side.databaseCpuUsPerRequest} and Redis ${a.side.redisCpuUsPerRequest} µs/req`
      : ''
    process.stderr.write(
      `  ${name} pair ${i + 1}: ${a.requestsPerSecond} vs ${b.requestsPerSecond} req/s (ratio ${pairs.at(-1)!.ratio}), CPU ${a.cpuUsPerRequest} vs ${b.cpuUsPerRequest} µs/req${side}, client CPU ${a.clientCpuUsPerRequest} vs ${b.clientCpuUsPerRequest} µs/req\n`,
    )
  }
  return pairs
}

/** Medians of a case's pairs. */
export function summarizePairs(name: string, body: string, pairs: Pair[]): CaseResult {
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
    apiDatabaseCpuUs: cpu(pairs.map((p) => p.api.side?.databaseCpuUsPerRequest ?? null)),
    apiRedisCpuUs: cpu(pairs.map((p) => p.api.side?.redisCpuUsPerRequest ?? null)),
  }
}

/**
 * An endpoint against the ceiling serving a body of the size of its largest sampled answer. With
 * `headers` (`accept-encoding: gzip`), both are asked with them, and `compressed` makes the ceiling
 * compress as the API does.
 */
export async function measureCase(
  api: ApiProcess,
  key: string,
  c: BenchCase,
  options: { headers?: Record<string, string>; compressed?: boolean } = {},
): Promise<CaseResult> {
  const body = await sampleBody(api, key, c.paths)
  const ceiling = await startCeiling(c.name, body, 0, options.compressed)
  try {
    const pairs = await alternatePairs(
      c.name,
      () => load(api, { paths: c.paths, key, api, headers: options.headers }),
      () => load(ceiling, { path: '/static', headers: options.headers }),
    )
    return summarizePairs(c.name, body, pairs)
  } finally {
    ceiling.stop()
  }
}

/** Spins of the host-scale calibration, µs of CPU burnt per request by the ceiling's route. */
export const HOST_SCALE_SPINS_US = [25, 50]

/**
 * The host's scale: the ceiling made slower by a fixed CPU spin per request, against the same
 * ceiling without it, in alternating pairs like an endpoint. On a host where a slower answer cost
 * only its own work, the spun route would cost the ceiling's CPU plus the spin; what it costs
 * beyond that is what this host charges the exchange for being slower (the load generator waiting
 * on the server, and woken by each answer), which an endpoint pays too. It reads an endpoint's
 * ratio against what a bare route doing the same amount of work would reach on this host.
 */
export async function measureHostScale(body: string): Promise<CaseResult[]> {
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
export async function profileCase(
  api: ApiProcess,
  profileBase: string,
  round: number,
  key: string,
  c: BenchCase,
) {
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

/**
 * The cost of the ETag on the wire: the endpoint asked with each path's current ETag in
 * `If-None-Match` (every answer a 304 without a body) against the same endpoint asked without it
 * (every answer a 200 with its body), in alternating pairs. `ratio` is 304s over 200s.
 */
export async function measureRevalidation(api: ApiProcess, key: string, c: BenchCase): Promise<CaseResult> {
  const paths = c.paths.slice(0, 2000)
  const tags = new Map<string, string>()
  for (const path of paths) {
    const response = await fetch(`${api.url}${path}`, { headers: { 'x-svc-token': key } })
    await response.arrayBuffer()
    const tag = response.headers.get('etag')
    if (response.status !== 200 || tag === null)
      throw new Error(`${path} answered ${response.status}, ETag ${tag}`)
    tags.set(path, tag)
  }
  const name = `${c.name}, If-None-Match (304) against without (200)`
  const pairs = await alternatePairs(
    name,
    () => load(api, { paths, key, api, pathHeaders: (path) => ({ 'if-none-match': tags.get(path)! }) }),
    () => load(api, { paths, key, api }),
    true,
  )
  return summarizePairs(name, await sampleBody(api, key, paths), pairs)
}
