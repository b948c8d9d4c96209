import { createServer, type Server } from 'node:http'
import { collectDefaultMetrics, Registry } from 'prom-client'
import { within } from '../awaitable.ts'
import type { IndexerHead } from '../store/positions-read.ts'

/** Prometheus metrics of one API process: requests by route and status, latency, indexer lag. */
export interface ApiMetrics {
  registry: Registry
  observeRequest(method: string, route: string, status: number, seconds: number): void
}

/** How long a scrape waits for the database: /metrics answers, with `strata_database_up 0`, when it hangs. */
export const METRICS_DB_TIMEOUT_MS = 2000

/**
 * The registry, with the indexer's gauges read from the store once per scrape. A database that
 * fails or does not answer within `timeoutMs` never fails the scrape: `strata_database_up` says 0
 * and the gauges read from it are left out (Prometheus then sees them absent, not stale).
 */
export function createApiMetrics(
  readHead: () => Promise<IndexerHead>,
  nowS: () => number,
  options: {
    /** The scrape's bound on the database (METRICS_DB_TIMEOUT_MS). */
    timeoutMs?: number
    /** PostgreSQL's commit watch: whether its lease holds (CommittedReads.live); null on SQLite. */
    watchLive?: (() => boolean) | null
  } = {},
): ApiMetrics {
  const { timeoutMs = METRICS_DB_TIMEOUT_MS, watchLive = null } = options
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'strata_' })
  const requests = createRequestMetrics(registry)
  // The registry asks every metric at once: one read serves the gauges of a scrape.
  let reading: Promise<IndexerHead | null> | null = null
  const headOfScrape = (): Promise<IndexerHead | null> => {
    reading ??= within(readHead(), timeoutMs)
      .catch(() => null)
      .finally(() => {
        reading = null
      })
    return reading
  }
  const gauge = (name: string, help: string, value: (head: IndexerHead | null) => number | null) =>
    registerComputed(registry, name, help, 'gauge', async () => {
      const found = value(await headOfScrape())
      return found === null ? [] : [{ labels: {}, value: found }]
    })
  gauge(
    'strata_database_up',
    'Whether the database answered this scrape within its bound (1) or not (0)',
    (head) => (head === null ? 0 : 1),
  )
  gauge(
    'strata_indexer_last_ledger',
    'The indexer checkpoint (last ledger written), as this API process reads it',
    (head) => head?.lastIndexedLedger ?? null,
  )
  gauge(
    'strata_indexer_data_staleness_seconds',
    'Now minus the close time of the checkpoint ledger',
    (head) => (head?.lastCloseTime == null ? null : Math.max(0, nowS() - head.lastCloseTime)),
  )
  // PostgreSQL only: whether this process answers request state from memory (the commit watch's
  // lease holds) or reads it with a statement per request (docs/operations.md).
  if (watchLive !== null) {
    registerComputed(
      registry,
      'strata_commit_watch_live',
      "Whether this process's commit watch holds its lease (1: request state from memory) or not (0: a statement per request)",
      'gauge',
      async () => [{ labels: {}, value: watchLive() ? 1 : 0 }],
    )
  }
  return { registry, observeRequest: requests.observe }
}

/** Upper bounds of the request duration histogram's buckets, in seconds (then +Inf). */
const DURATION_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

/** One (method, route)'s requests: counts by status, and their durations' histogram. */
interface RouteSeries {
  method: string
  route: string
  byStatus: Map<number, number>
  /** Observations per bucket (the last one is +Inf), not yet cumulative. */
  buckets: number[]
  sum: number
  count: number
}

/** One line of a metric as prom-client's registry writes it. */
interface ExposedValue {
  labels: Record<string, string | number>
  value: number
  metricName?: string
}

/** What prom-client's registry asks of a metric it writes out. */
interface ExposedMetric {
  name: string
  help: string
  type: 'counter' | 'histogram' | 'gauge'
  aggregator: 'sum'
  get(): Promise<Omit<ExposedMetric, 'get' | 'reset'> & { values: ExposedValue[] }>
  reset(): void
}

/**
 * A metric the registry writes from `values`, computed at each scrape; an empty list leaves it out.
 * The registry writes any metric that answers `get` with its values; these are not prom-client
 * classes, so its type for them is not theirs.
 */
function registerComputed(
  registry: Registry,
  name: string,
  help: string,
  type: ExposedMetric['type'],
  values: () => Promise<ExposedValue[]>,
  reset: () => void = () => {},
): void {
  const metric: ExposedMetric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: await values() }),
    reset,
  }
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0])
}

/**
 * `strata_http_requests_total` and `strata_http_request_duration_seconds`, counted in plain numbers
 * per (route, method) and written out by the registry like its own counter and histogram (same
 * names, labels, buckets and text). prom-client's own `inc` and `observe` build and hash a label
 * string on every call; one per request of each was about 4% of a kept positions answer's CPU.
 */
function createRequestMetrics(registry: Registry) {
  const routes = new Map<string, Map<string, RouteSeries>>()
  const all: RouteSeries[] = []
  const reset = () => {
    routes.clear()
    all.length = 0
  }
  const exposed = (
    name: string,
    help: string,
    type: 'counter' | 'histogram',
    values: () => ExposedValue[],
  ): void => registerComputed(registry, name, help, type, async () => values(), reset)
  exposed(
    'strata_http_requests_total',
    'HTTP requests answered, by method, route template and status',
    'counter',
    () =>
      all.flatMap((s) =>
        [...s.byStatus].map(([status, value]) => ({
          labels: { method: s.method, route: s.route, status: String(status) },
          value,
        })),
      ),
  )
  const durationName = 'strata_http_request_duration_seconds'
  exposed(durationName, 'Time from request to response, by method and route template', 'histogram', () =>
    all.flatMap((s) => {
      let cumulative = 0
      const labels = { method: s.method, route: s.route }
      return [
        ...s.buckets.map((n, i) => {
          cumulative += n
          return {
            labels: { le: i < DURATION_BUCKETS_S.length ? DURATION_BUCKETS_S[i]! : '+Inf', ...labels },
            value: cumulative,
            metricName: `${durationName}_bucket`,
          }
        }),
        { labels, value: s.sum, metricName: `${durationName}_sum` },
        { labels, value: s.count, metricName: `${durationName}_count` },
      ]
    }),
  )
  return {
    observe(method: string, route: string, status: number, seconds: number): void {
      let methods = routes.get(route)
      if (methods === undefined) {
        methods = new Map()
        routes.set(route, methods)
      }
      let series = methods.get(method)
      if (series === undefined) {
        series = {
          method,
          route,
          byStatus: new Map(),
          buckets: new Array<number>(DURATION_BUCKETS_S.length + 1).fill(0),
          sum: 0,
          count: 0,
        }
        methods.set(method, series)
        all.push(series)
      }
      series.byStatus.set(status, (series.byStatus.get(status) ?? 0) + 1)
      let bucket = 0
      while (bucket < DURATION_BUCKETS_S.length && seconds > DURATION_BUCKETS_S[bucket]!) bucket++
      series.buckets[bucket]! += 1
      series.sum += seconds
      series.count += 1
    },
  }
}

/**
 * Serves `GET /metrics` on its own port, so scrapers reach it on an internal network while the
 * public API port does not expose it.
 */
export async function startMetricsServer(metrics: ApiMetrics, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
      return
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) =>
        response.writeHead(500, { 'content-type': 'text/plain' }).end(`${(error as Error).message}\n`),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return server
}
