import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiMetrics, startMetricsServer } from '../../src/api/metrics.ts'
import { createTestApp, seedCheckpoint, type TestApp } from '../support/app.ts'

describe('Prometheus metrics', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  it('counts requests by route template and status, and reports the indexer checkpoint', async () => {
    await t.app.inject({ method: 'GET', url: '/v1/health' })
    await t.app.inject({ method: 'GET', url: '/v1/health' })
    await t.app.inject({ method: 'GET', url: '/v1/org/api-keyz/key_x', headers: {} })
    await t.app.inject({ method: 'GET', url: '/v1/no/such/route' })
    await seedCheckpoint(t, 777, 30)

    const server = await startMetricsServer(t.ctx.metrics, 0, '127.0.0.1')
    try {
      const { port } = server.address() as AddressInfo
      const response = await fetch(`http://127.0.0.1:${port}/metrics`)
      expect(response.status).toBe(200)
      const text = await response.text()
      expect(text).toContain('strata_http_requests_total{method="GET",route="/v1/health",status="200"} 2')
      expect(text).toContain('strata_http_requests_total{method="GET",route="unmatched",status="404"} 2')
      expect(text).toMatch(
        /strata_http_request_duration_seconds_count\{method="GET",route="\/v1\/health"\} 2/,
      )
      // The histogram as Prometheus reads one: cumulative buckets ending at +Inf with the count.
      expect(text).toContain('# TYPE strata_http_request_duration_seconds histogram')
      expect(text).toContain('# TYPE strata_http_requests_total counter')
      const buckets = [
        ...text.matchAll(
          /^strata_http_request_duration_seconds_bucket\{le="([^"]+)",method="GET",route="\/v1\/health"\} (\d+)$/gm,
        ),
      ].map((m) => [m[1], Number(m[2])] as const)
      expect(buckets.map(([le]) => le)).toEqual([
        '0.0005',
        '0.001',
        '0.0025',
        '0.005',
        '0.01',
        '0.025',
        '0.05',
        '0.1',
        '0.25',
        '0.5',
        '1',
        '2.5',
        '+Inf',
      ])
      for (let i = 1; i < buckets.length; i++)
        expect(buckets[i]![1]).toBeGreaterThanOrEqual(buckets[i - 1]![1])
      expect(buckets.at(-1)![1]).toBe(2)
      const sum =
        /^strata_http_request_duration_seconds_sum\{method="GET",route="\/v1\/health"\} (\S+)$/m.exec(text)
      expect(Number(sum?.[1])).toBeGreaterThan(0)
      expect(text).toContain('strata_indexer_last_ledger 777')
      expect(text).toContain('strata_indexer_data_staleness_seconds 30')
      expect(text).toContain('strata_process_cpu_user_seconds_total')
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404)
    } finally {
      server.close()
    }
  })

  it('reports the database up, with the indexer gauges, when it answers', async () => {
    // The checkpoint the first test seeded.
    const text = await t.ctx.metrics.registry.metrics()
    expect(text).toMatch(/^strata_database_up 1$/m)
    expect(text).toMatch(/^strata_indexer_last_ledger 777$/m)
  })

  it('still answers when the database fails or hangs: database down, its gauges left out', async () => {
    const failing = createApiMetrics(
      () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
      () => 100,
    )
    const hanging = createApiMetrics(
      () => new Promise(() => {}),
      () => 100,
      { timeoutMs: 50 },
    )
    for (const metrics of [failing, hanging]) {
      const server = await startMetricsServer(metrics, 0, '127.0.0.1')
      try {
        const { port } = server.address() as AddressInfo
        const response = await fetch(`http://127.0.0.1:${port}/metrics`)
        expect(response.status).toBe(200)
        const text = await response.text()
        expect(text).toMatch(/^strata_database_up 0$/m)
        expect(text).not.toMatch(/^strata_indexer_last_ledger /m)
        expect(text).not.toMatch(/^strata_indexer_data_staleness_seconds /m)
        expect(text).toContain('strata_process_cpu_user_seconds_total')
      } finally {
        server.close()
      }
    }
  })

  it('reads the store once per scrape for all its gauges', async () => {
    let reads = 0
    const metrics = createApiMetrics(
      async () => {
        reads++
        return { lastIndexedLedger: 5, firstIndexedLedger: 1, lastCloseTime: 90 }
      },
      () => 100,
    )
    const text = await metrics.registry.metrics()
    expect(reads).toBe(1)
    expect(text).toMatch(/^strata_indexer_data_staleness_seconds 10$/m)
  })
})
