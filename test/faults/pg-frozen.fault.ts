import { createServer } from 'node:net'
import { Keypair } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestDatabase } from '../support/database.ts'
import { type ServerProcess, startServerProcess } from '../support/process.ts'
import { createKeyedPostgres, FAULT_PEPPER } from './support/keyed-store.ts'
import { waitFor } from './support/pg-admin.ts'
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts'

// PostgreSQL hangs instead of refusing (a partition, a frozen server): every wait of `strata serve`
// is bounded (issue 28). Health answers 503 within 5 s, a data request 503 within the configured
// bound, /metrics keeps answering; after the thaw everything answers 200 again.

/** STRATA_DB_TIMEOUT_MS of the server under test. */
const DB_TIMEOUT_MS = 2000
/** Slack over a bound for a shared, noisy machine. */
const SLACK_MS = 2000

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** The status and how long it took, in milliseconds. */
async function timed(url: string, headers: Record<string, string> = {}) {
  const started = performance.now()
  const response = await fetch(url, { headers })
  const body = await response.text()
  return { status: response.status, ms: performance.now() - started, body }
}

describe('PostgreSQL frozen behind a proxy', () => {
  let testDb: TestDatabase
  let proxy: TcpProxy
  let server: ServerProcess
  let key: string
  let metricsUrl: string
  beforeAll(async () => {
    const keyed = await createKeyedPostgres('frozen')
    testDb = keyed.testDb
    key = keyed.key
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 })
    const url = new URL(testDb.env.DATABASE_URL!)
    url.host = proxy.address
    const metricsPort = await freePort()
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`
    server = await startServerProcess(['serve'], {
      DATABASE_URL: url.toString(),
      PORT: '0',
      METRICS_PORT: String(metricsPort),
      STRATA_KEY_PEPPER: FAULT_PEPPER,
      STRATA_JWT_SECRET: 'j'.repeat(48),
      STRATA_ADMIN_TOKEN: 'a'.repeat(32),
      STRATA_DB_TIMEOUT_MS: String(DB_TIMEOUT_MS),
    })
  })
  afterAll(async () => {
    proxy?.thaw()
    await server?.stop()
    await proxy?.close()
    await testDb?.drop()
  })

  it('answers health 503 within 5 s, data 503 within the bound, metrics 200; all 200 after the thaw', async () => {
    const data = `${server.url}/v1/users/${Keypair.random().publicKey()}/positions/vaultprotocol`
    const headers = { 'x-svc-token': key }
    expect((await timed(`${server.url}/v1/health`)).status).toBe(200)
    expect((await timed(data, headers)).status).toBe(200)
    const before = await timed(metricsUrl)
    expect(before.status).toBe(200)
    expect(before.body).toMatch(/^strata_database_up 1$/m)

    proxy.freeze()
    try {
      const [health, answer, metrics] = await Promise.all([
        timed(`${server.url}/v1/health`),
        timed(data, headers),
        timed(metricsUrl),
      ])
      expect(health.status).toBe(503)
      expect(JSON.parse(health.body).status).toBe('unavailable')
      expect(health.ms).toBeLessThan(5000)
      expect(answer.status).toBe(503)
      expect(JSON.parse(answer.body).error.code).toBe('unavailable')
      expect(answer.ms).toBeLessThan(2 * DB_TIMEOUT_MS + SLACK_MS)
      expect(metrics.status).toBe(200)
      expect(metrics.body).toMatch(/^strata_database_up 0$/m)
      expect(metrics.ms).toBeLessThan(5000)
    } finally {
      proxy.thaw()
    }

    // Connections that timed out recover or are replaced: everything answers again.
    await waitFor(
      'health 200 after the thaw',
      async () => (await timed(`${server.url}/v1/health`)).status === 200,
      20_000,
    )
    await waitFor('data 200 after the thaw', async () => (await timed(data, headers)).status === 200, 20_000)
    const after = await timed(metricsUrl)
    expect(after.status).toBe(200)
    expect(after.body).toMatch(/^strata_database_up 1$/m)
  })
})
