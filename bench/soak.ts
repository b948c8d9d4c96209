// Soak benchmark (issue 28): `strata serve` held at half of its peak rate for five minutes, in slices.
//   1. The large store of bench:api (built once through the real devnet and indexer, cached under
//      bench/.cache, the same BENCH_API_LARGE_* knobs) and a key, served by `strata serve` in a
//      child process (so its RSS is its own), pinned to core 0; this process, the load generator,
//      runs on core 1 (taskset, when the system has it).
//   2. Peak: a warm-up, then BENCH_SOAK_PEAK_S (10) seconds at full concurrency on a mix of data
//      endpoints (each protocol's positions for thousands of addresses and pins, all positions,
//      positions history, an activities page, health): requests per second.
//   3. Soak: one autocannon run at half that peak as a fixed overall rate, for --minutes (5), cut
//      into BENCH_SOAK_SLICE_S (30) second slices: requests, errors (non-2xx answers and socket
//      errors, timeouts included), client p50/p99/max latency, the server's own p50/p99 (its
//      request log), its RSS (/proc/<pid>/status VmRSS) at the slice's end and the highest of the
//      readings taken every second, its V8 heap in use (its Prometheus metrics) and the CPU of
//      both sides over the slice.
//   4. A verdict: growth of the slices' highest RSS from the 2nd slice to the last, p99 of the last
//      slice against the first, the rate answered, errors in total; the exit code is 1 when there
//      was any error.
// The Markdown table goes to stdout, the JSON result to bench/.cache/soak.json; a run of the full
// default length (5 minutes, 30 s slices) also rewrites its section of docs/performance.md.
//
//   npm run bench:soak
//   npm run bench:soak -- --minutes 1                                     (a check)
//   npm run bench:soak -- --rate 2000          (a fixed rate instead of half the peak, to compare runs)
//   BENCH_API_LARGE_ACCOUNTS=20000 BENCH_API_LARGE_LEDGERS=5000 npm run bench:soak   (a smaller store)
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { PROTOCOLS } from '../src/protocols/registry.ts'
import { CACHE, CONNECTIONS, cpuUs, HAS_TASKSET, percentile, round3 } from './api-env.ts'
import { type ApiProcess, load, startApi } from './api-rounds.ts'
import { buildStore, EXTRA_CASES, LARGE, type PreparedStore, prepareStore } from './api-stores.ts'
import { updateBenchSection } from './report.ts'

const flag = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? process.argv[at + 1] : undefined
}
const MINUTES = Number(flag('minutes') ?? process.env.BENCH_SOAK_MINUTES ?? 5)
const SLICE_S = Number(process.env.BENCH_SOAK_SLICE_S ?? 30)
const PEAK_S = Number(process.env.BENCH_SOAK_PEAK_S ?? 10)
/** A fixed soak rate (req/s) instead of half the measured peak, to compare runs at one rate. */
const FIXED_RATE = flag('rate') ?? process.env.BENCH_SOAK_RATE
/** Only a run of the documented kind (5 minutes, 30 s slices, half of peak) replaces the numbers in docs/performance.md. */
const FULL_LENGTH = MINUTES === 5 && SLICE_S === 30 && FIXED_RATE === undefined

/** The mix: each kind of request with its weight (requests of it in one turn of the mix). */
interface MixKind {
  name: string
  weight: number
  paths: string[]
}

function buildMix(store: PreparedStore): MixKind[] {
  const positions = PROTOCOLS.map((module) => ({
    name: `${module.name} positions`,
    weight: 2,
    paths: store.positionsPaths(module.name),
  }))
  const history = PROTOCOLS.flatMap((module) =>
    store
      .samples(module.name)
      .slice(0, 1000)
      .map((r) => `/v1/users/${r.address}/positions/${module.name}/history?limit=20`),
  )
  const [allPositions, activities] = EXTRA_CASES.map((make) => make(store))
  return [
    ...positions,
    { name: 'all positions', weight: 1, paths: allPositions!.paths },
    { name: 'positions history (limit 20)', weight: 1, paths: history },
    { name: activities!.name, weight: 1, paths: activities!.paths },
    { name: 'health', weight: 1, paths: ['/v1/health'] },
  ].filter((kind) => kind.paths.length > 0)
}

/** The mix laid out as one list of paths, the kinds interleaved by weight (the list repeats). */
function mixPaths(kinds: MixKind[], length: number): string[] {
  const turn = kinds.flatMap((kind) => Array.from({ length: kind.weight }, () => kind))
  const taken = new Map<MixKind, number>()
  return Array.from({ length }, (_, i) => {
    const kind = turn[i % turn.length]!
    const n = taken.get(kind) ?? 0
    taken.set(kind, n + 1)
    return kind.paths[n % kind.paths.length]!
  })
}

/** A free port on the loopback, for the server's metrics listener (so this process knows its URL). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** A field of /proc/<pid>/status in MB (VmRSS: resident now, VmHWM: the most it has been). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return kb ? Math.round(Number(kb[1]) / 102.4) / 10 : null
  } catch {
    return null
  }
}

/** The server's V8 heap in use, MB, from its Prometheus metrics (null when they cannot be read). */
async function heapUsedMb(metricsUrl: string): Promise<number | null> {
  try {
    const text = await (await fetch(metricsUrl)).text()
    const match = /^strata_nodejs_heap_size_used_bytes ([0-9.e+]+)$/m.exec(text)
    return match ? Math.round(Number(match[1]) / 1024 / 102.4) / 10 : null
  } catch {
    return null
  }
}

interface Slice {
  /** Seconds since the soak started, at the slice's end. */
  endS: number
  requests: number
  requestsPerSecond: number
  non2xx: number
  /** Socket errors and timeouts. */
  socketErrors: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  /** Handling time in the server, from its request log (0.01 ms resolution). */
  serverP50Ms: number
  serverP99Ms: number
  /** The server's RSS at the slice's end, and the most it was in the slice (sampled every second). */
  rssMb: number | null
  rssMaxMb: number | null
  heapUsedMb: number | null
  /** Server CPU over the slice (user + system, all threads), in cores. */
  serverCores: number | null
  /** The load generator's CPU over the slice (this process), in cores. */
  clientCores: number
}

function serverPercentiles(times: number[]): { serverP50Ms: number; serverP99Ms: number } {
  const sorted = times.sort((a, b) => a - b)
  return { serverP50Ms: percentile(sorted, 0.5), serverP99Ms: percentile(sorted, 0.99) }
}

/** One autocannon run at `rate` requests a second, cut into slices as it goes. */
async function soak(api: ApiProcess, metricsUrl: string, key: string, paths: string[], rate: number) {
  const slices: Slice[] = []
  const statuses: Record<string, number> = {}
  let times: number[] = []
  let non2xx = 0
  let socketErrors = 0
  let next = 0
  const count = Math.max(1, Math.round((MINUTES * 60) / SLICE_S))
  let finished: (error: unknown) => void = () => {}
  const done = new Promise<void>((resolve, reject) => {
    finished = (error) => (error ? reject(error) : resolve())
  })
  const instance = autocannon(
    {
      url: api.url,
      connections: CONNECTIONS,
      // Stopped by this function once the last slice is closed.
      duration: count * SLICE_S + 60,
      overallRate: rate,
      headers: { 'x-svc-token': key },
      requests: [
        {
          setupRequest: (request) => {
            request.path = paths[next++ % paths.length]!
            return request
          },
        },
      ],
    },
    (error) => finished(error),
  )
  instance.on('response', (_client, status, _bytes, ms) => {
    times.push(ms)
    if (status < 200 || status > 299) {
      non2xx++
      statuses[status] = (statuses[status] ?? 0) + 1
    }
  })
  instance.on('reqError', (error: NodeJS.ErrnoException) => {
    socketErrors++
    const name = error.code ?? error.name ?? 'error'
    statuses[name] = (statuses[name] ?? 0) + 1
  })
  // RSS rises and falls with each garbage collection: its highest point in a slice, sampled every
  // second, is steadier than one reading, and it climbs from slice to slice when memory leaks.
  let rssMax: number | null = null
  const sampler = setInterval(() => {
    const rss = statusMb(api.pid, 'VmRSS')
    if (rss !== null) rssMax = Math.max(rssMax ?? 0, rss)
  }, 1000)
  const started = performance.now()
  api.takeServerTimes()
  let cpuBefore = cpuUs(api.pid)
  let clientBefore = process.cpuUsage()
  for (let i = 1; i <= count; i++) {
    const wait = started + i * SLICE_S * 1000 - performance.now()
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)))
    const taken = times.sort((a, b) => a - b)
    const slice: Omit<Slice, 'heapUsedMb'> = {
      endS: Math.round((performance.now() - started) / 100) / 10,
      requests: taken.length,
      requestsPerSecond: Math.round(taken.length / SLICE_S),
      non2xx,
      socketErrors,
      p50Ms: round3(percentile(taken, 0.5)),
      p99Ms: round3(percentile(taken, 0.99)),
      maxMs: round3(taken.at(-1) ?? 0),
      ...serverPercentiles(api.takeServerTimes()),
      rssMb: statusMb(api.pid, 'VmRSS'),
      rssMaxMb: null,
      serverCores: null,
      clientCores: 0,
    }
    const client = process.cpuUsage(clientBefore)
    clientBefore = process.cpuUsage()
    slice.clientCores = round3((client.user + client.system) / (SLICE_S * 1e6))
    slice.rssMaxMb = slice.rssMb === null ? rssMax : Math.max(rssMax ?? 0, slice.rssMb)
    rssMax = null
    times = []
    non2xx = 0
    socketErrors = 0
    const cpuAfter = cpuUs(api.pid)
    if (cpuBefore !== null && cpuAfter !== null)
      slice.serverCores = round3((cpuAfter - cpuBefore) / (SLICE_S * 1e6))
    cpuBefore = cpuAfter
    const full = { ...slice, heapUsedMb: await heapUsedMb(metricsUrl) }
    slices.push(full)
    process.stderr.write(
      `  slice ${i}/${count} (${full.endS} s): ${full.requestsPerSecond} req/s, errors ${full.non2xx + full.socketErrors}, p50/p99/max ${full.p50Ms}/${full.p99Ms}/${full.maxMs} ms (server p99 ${full.serverP99Ms}), RSS ${full.rssMb} MB (max ${full.rssMaxMb}), heap ${full.heapUsedMb} MB, CPU server ${full.serverCores} / load generator ${full.clientCores}\n`,
    )
  }
  clearInterval(sampler)
  instance.stop()
  await done
  return { slices, statuses }
}

/** The CPU's model name, from /proc/cpuinfo (os.cpus() where there is none). */
function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))
    if (match) return match[1]!.trim()
  } catch {}
  return cpus()[0]?.model ?? 'unknown'
}

/** The command line of this run, with the settings it was given in the environment. */
function commandLine(): string {
  const settings = [
    'BENCH_API_LARGE_ACCOUNTS',
    'BENCH_API_LARGE_LEDGERS',
    'BENCH_API_CONNECTIONS',
    'BENCH_SOAK_MINUTES',
    'BENCH_SOAK_RATE',
    'BENCH_SOAK_SLICE_S',
    'BENCH_SOAK_PEAK_S',
  ].flatMap((name) => (process.env[name] === undefined ? [] : [`${name}=${process.env[name]}`]))
  const args = process.argv.slice(2)
  return [...settings, 'npm run bench:soak', ...(args.length ? ['--', ...args] : [])].join(' ')
}

interface SoakReport {
  date: string
  command: string
  host: {
    nproc: number
    cpu: string
    node: string
    pinned: boolean
    loadBefore: number[]
    loadAfter: number[]
  }
  store: { snapshots: number; accounts: number; ledgers: number; byProtocol: Record<string, number> }
  mix: Array<{ name: string; weight: number; distinctPaths: number }>
  connections: number
  peak: {
    seconds: number
    requestsPerSecond: number
    p99Ms: number
    non2xx: number
    /** Cores busy at the peak (rate × CPU per request): which side bound it. */
    serverCores: number | null
    clientCores: number
  }
  rate: number
  /** Whether the rate was given (--rate) rather than half the peak. */
  fixedRate: boolean
  minutes: number
  sliceS: number
  slices: Slice[]
  /** Non-2xx statuses and socket error codes over the soak, with their counts. */
  errorsByKind: Record<string, number>
  verdict: {
    /** The slices' highest RSS is compared from this slice (the 2nd; the 1st with fewer than three) to the last. */
    rssFromSlice: number
    rssGrowthMb: number | null
    rssGrowthPercent: number | null
    /** The server's peak RSS over its whole life (VmHWM). */
    rssPeakMb: number | null
    p99FirstMs: number
    p99LastMs: number
    p99LastOverFirst: number
    serverP99FirstMs: number
    serverP99LastMs: number
    /** Requests answered a second over the whole soak, against the rate asked for. */
    achievedRequestsPerSecond: number
    errors: number
  }
}

function renderSoak(r: SoakReport): string {
  const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(' / ')
  const v = r.verdict
  return [
    `Measured ${r.date} with \`${r.command}\` on ${r.host.nproc} × ${r.host.cpu} (nproc ${r.host.nproc}), Node ${r.host.node}, SQLite (node:sqlite); ${r.host.pinned ? 'server pinned to core 0, autocannon to core 1' : 'no taskset: server and load generator unpinned'}, ${r.connections} connections. Load average (1 / 5 / 15 min) before: ${load(r.host.loadBefore)}, after: ${load(r.host.loadAfter)}.`,
    `Store: ${r.store.snapshots.toLocaleString('en')} snapshots of ${r.store.accounts.toLocaleString('en')} accounts over ${r.store.ledgers.toLocaleString('en')} ledgers. Mix per turn: ${r.mix.map((k) => `${k.weight} × ${k.name} (${k.distinctPaths.toLocaleString('en')} paths)`).join(', ')}.`,
    `Peak (${r.peak.seconds} s at full concurrency, after a warm-up): **${r.peak.requestsPerSecond} req/s** (p99 ${r.peak.p99Ms} ms, non-2xx ${r.peak.non2xx}; cores busy: server ${r.peak.serverCores ?? 'n/a'}, load generator ${r.peak.clientCores}); the soak runs at ${r.fixedRate ? 'a fixed rate' : 'half of it'}, **${r.rate} req/s**, for ${r.minutes} min.`,
    '',
    '| slice | end s | requests | req/s | errors (non-2xx + socket) | p50 ms | p99 ms | max ms | server p50 / p99 ms | RSS MB: end / max | heap used MB | CPU cores: server / load generator |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...r.slices.map(
      (s, i) =>
        `| ${i + 1} | ${s.endS} | ${s.requests} | ${s.requestsPerSecond} | ${s.non2xx + s.socketErrors} | ${s.p50Ms} | ${s.p99Ms} | ${s.maxMs} | ${s.serverP50Ms} / ${s.serverP99Ms} | ${s.rssMb ?? 'n/a'} / ${s.rssMaxMb ?? 'n/a'} | ${s.heapUsedMb ?? 'n/a'} | ${s.serverCores ?? 'n/a'} / ${s.clientCores} |`,
    ),
    '',
    `**Verdict:** highest RSS of a slice ${v.rssGrowthMb === null ? 'n/a' : `${v.rssGrowthMb >= 0 ? '+' : ''}${v.rssGrowthMb} MB (${v.rssGrowthPercent! >= 0 ? '+' : ''}${v.rssGrowthPercent}%)`} from slice ${v.rssFromSlice} to slice ${r.slices.length} (peak RSS ${v.rssPeakMb ?? 'n/a'} MB); p99 ${v.p99LastMs} ms in the last slice against ${v.p99FirstMs} ms in the first (×${v.p99LastOverFirst}; in the server ${v.serverP99LastMs} against ${v.serverP99FirstMs} ms); ${v.achievedRequestsPerSecond} req/s answered on average against ${r.rate} asked; errors: ${v.errors}${
      v.errors > 0
        ? ` (${Object.entries(r.errorsByKind)
            .map(([kind, n]) => `${kind}: ${n}`)
            .join(', ')})`
        : ''
    }.`,
  ].join('\n')
}

async function main(): Promise<void> {
  if (!process.env.BENCH_PINNED && HAS_TASKSET) {
    // Re-run pinned to core 1; the server takes core 0.
    try {
      execFileSync('taskset', ['-c', '1', process.execPath, import.meta.filename, ...process.argv.slice(2)], {
        stdio: 'inherit',
        env: { ...process.env, BENCH_PINNED: '1' },
      })
    } catch (error) {
      process.exitCode = (error as { status?: number }).status ?? 1
    }
    return
  }
  if (!(MINUTES > 0) || !(SLICE_S > 0) || !(PEAK_S > 0) || !(Number(FIXED_RATE ?? 1) >= 1))
    throw new Error(
      '--minutes, --rate, BENCH_SOAK_SLICE_S and BENCH_SOAK_PEAK_S must be positive numbers (the rate at least 1)',
    )
  const loadBefore = loadavg()
  const store = await buildStore(LARGE)
  const prepared = await prepareStore(store)
  const kinds = buildMix(prepared)
  const paths = mixPaths(kinds, 40_000)
  const metricsPort = await freePort()
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`
  const api = await startApi(store, undefined, { METRICS_PORT: String(metricsPort) })
  try {
    // Each kind is tried first: a mix that answers errors would measure nothing.
    for (const kind of kinds) {
      for (const path of kind.paths.slice(0, 3)) {
        const response = await fetch(`${api.url}${path}`, { headers: { 'x-svc-token': prepared.key } })
        if (response.status !== 200)
          throw new Error(`${kind.name}: ${path} answered ${response.status}: ${await response.text()}`)
      }
    }
    process.stderr.write('peak: warm-up...\n')
    await load(api, { paths, key: prepared.key, durationS: Math.min(PEAK_S, 5) })
    const peak = await load(api, { paths, key: prepared.key, durationS: PEAK_S })
    const rate = Math.round(Number(FIXED_RATE ?? Math.max(1, peak.requestsPerSecond / 2)))
    process.stderr.write(
      `peak: ${peak.requestsPerSecond} req/s; soak at ${rate} req/s for ${MINUTES} min in ${SLICE_S} s slices\n`,
    )
    const { slices, statuses } = await soak(api, metricsUrl, prepared.key, paths, rate)
    const first = slices[0]!
    const last = slices.at(-1)!
    // The first slice warms the server up (caches fill, code is compiled): growth is read from the
    // second, when there are at least three.
    const fromSlice = slices.length > 2 ? 2 : 1
    const from = slices[fromSlice - 1]!
    const growth =
      from.rssMaxMb !== null && last.rssMaxMb !== null ? round3(last.rssMaxMb - from.rssMaxMb) : null
    const report: SoakReport = {
      date: new Date().toISOString().slice(0, 10),
      command: commandLine(),
      host: {
        nproc: cpus().length,
        cpu: cpuModel(),
        node: process.version,
        pinned: HAS_TASKSET,
        loadBefore,
        loadAfter: loadavg(),
      },
      store: {
        snapshots: store.snapshots,
        accounts: store.accounts,
        ledgers: store.ledgers,
        byProtocol: store.byProtocol,
      },
      mix: kinds.map((k) => ({ name: k.name, weight: k.weight, distinctPaths: k.paths.length })),
      connections: CONNECTIONS,
      peak: {
        seconds: PEAK_S,
        requestsPerSecond: peak.requestsPerSecond,
        p99Ms: peak.p99Ms,
        non2xx: peak.non2xx,
        serverCores:
          peak.cpuUsPerRequest === null
            ? null
            : round3((peak.requestsPerSecond * peak.cpuUsPerRequest) / 1e6),
        clientCores: round3((peak.requestsPerSecond * peak.clientCpuUsPerRequest) / 1e6),
      },
      rate,
      fixedRate: FIXED_RATE !== undefined,
      minutes: MINUTES,
      sliceS: SLICE_S,
      slices,
      errorsByKind: statuses,
      verdict: {
        rssFromSlice: fromSlice,
        rssGrowthMb: growth,
        rssGrowthPercent:
          growth !== null && from.rssMaxMb ? Math.round((growth / from.rssMaxMb) * 1000) / 10 : null,
        rssPeakMb: statusMb(api.pid, 'VmHWM'),
        p99FirstMs: first.p99Ms,
        p99LastMs: last.p99Ms,
        p99LastOverFirst: round3(last.p99Ms / Math.max(first.p99Ms, 0.001)),
        serverP99FirstMs: first.serverP99Ms,
        serverP99LastMs: last.serverP99Ms,
        achievedRequestsPerSecond: Math.round(
          slices.reduce((sum, s) => sum + s.requests, 0) / (slices.length * SLICE_S),
        ),
        errors: slices.reduce((sum, s) => sum + s.non2xx + s.socketErrors, 0),
      },
    }
    const markdown = renderSoak(report)
    const file = join(CACHE, 'soak.json')
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
    process.stdout.write(`${markdown}\n`)
    process.stderr.write(`result: ${file}\n`)
    if (FULL_LENGTH) updateBenchSection('soak', markdown)
    else process.stderr.write('not the full 5-minute soak: docs/performance.md left as it is\n')
    if (report.verdict.errors > 0) process.exitCode = 1
  } finally {
    api.stop()
  }
}

await main()
