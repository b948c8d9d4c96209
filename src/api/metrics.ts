import { createServer, type Server } from 'node:http'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { IndexerHead } from '../store/positions-read.ts'

/** Prometheus metrics of one API process: requests by route and status, latency, indexer lag. */
export interface ApiMetrics {
  registry: Registry
  observeRequest(method: string, route: string, status: number, seconds: number): void
}

export function createApiMetrics(readHead: () => Promise<IndexerHead>, nowS: () => number): ApiMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'strata_' })
  const requests = new Counter({
    name: 'strata_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'strata_http_request_duration_seconds',
    help: 'Time from request to response, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  })
  new Gauge({
    name: 'strata_indexer_last_ledger',
    help: 'The indexer checkpoint (last ledger written), as this API process reads it',
    registers: [registry],
    async collect() {
      const head = await readHead()
      if (head.lastIndexedLedger !== null) this.set(head.lastIndexedLedger)
    },
  })
  new Gauge({
    name: 'strata_indexer_data_staleness_seconds',
    help: 'Now minus the close time of the checkpoint ledger',
    registers: [registry],
    async collect() {
      const head = await readHead()
      if (head.lastCloseTime !== null) this.set(Math.max(0, nowS() - head.lastCloseTime))
    },
  })
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) })
      duration.observe({ method, route }, seconds)
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
