import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { createTestApp } from '../support/app.ts'

describe('request time and connection bounds', () => {
  it('default to 30 s for a whole request, 128 connections per client and 10 s to stop', () => {
    const config = loadConfig({})
    expect(config.requestTimeoutMs).toBe(30_000)
    expect(config.maxConnectionsPerClient).toBe(128)
    expect(config.shutdownTimeoutMs).toBe(10_000)
    const set = loadConfig({
      STRATA_REQUEST_TIMEOUT_MS: '2000',
      STRATA_MAX_CONNECTIONS_PER_CLIENT: '0',
      STRATA_SHUTDOWN_TIMEOUT_MS: '500',
    })
    expect([set.requestTimeoutMs, set.maxConnectionsPerClient, set.shutdownTimeoutMs]).toEqual([2000, 0, 500])
  })

  it('refuses a request bound that would cut every request, and values that are not whole numbers', () => {
    let error: unknown
    try {
      loadConfig({
        STRATA_REQUEST_TIMEOUT_MS: '0',
        STRATA_MAX_CONNECTIONS_PER_CLIENT: '-1',
        STRATA_SHUTDOWN_TIMEOUT_MS: 'soon',
      })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    const problems = (error as ConfigError).problems
    expect(problems).toHaveLength(3)
    expect(problems.join('\n')).toContain('STRATA_REQUEST_TIMEOUT_MS must be between 1000 and 600000, got 0')
    expect(problems.join('\n')).toContain('STRATA_MAX_CONNECTIONS_PER_CLIENT must be a whole number')
    expect(problems.join('\n')).toContain('STRATA_SHUTDOWN_TIMEOUT_MS must be a whole number')
  })

  it('the HTTP server takes the request bound for headers and body, and checks it every second', async () => {
    const t = await createTestApp({ STRATA_REQUEST_TIMEOUT_MS: '7000' })
    try {
      const server = t.app.server as typeof t.app.server & { connectionsCheckingInterval?: number }
      expect(server.requestTimeout).toBe(7000)
      expect(server.headersTimeout).toBe(7000)
      // Node looks for expired requests at this interval (its default, 30 s, would let a stalled
      // body live 30 s past the bound).
      expect(server.connectionsCheckingInterval).toBe(1000)
      // Fastify's default, kept: above the 60 s idle timeout of common load balancers.
      expect(server.keepAliveTimeout).toBe(72_000)
    } finally {
      await t.close()
    }
  })
})
