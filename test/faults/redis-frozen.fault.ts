import { randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/api/app.ts'
import { loadConfig } from '../../src/config.ts'
import { createContext } from '../../src/context.ts'
import { createLogger } from '../../src/logger.ts'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts'

const REDIS = new URL(process.env.STRATA_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379')
const DATA_URL = '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions/vaultprotocol'
const QUOTA = 1000
const LOGIN_LIMIT = 10
const COOL_DOWN_MS = 5000
const FAILURES = 3

/**
 * Redis hung behind a frozen proxy: the rate limiter's breaker opens after its failures, and then
 * data requests no longer wait for Redis, the login throttle is still enforced (by this instance),
 * health and the headers say the counting is local; after the thaw the breaker closes and two
 * instances count into one window again.
 */
describe('Redis frozen under the rate limiter', () => {
  let proxy: TcpProxy
  let a: TestApp
  let b: { app: App; close(): Promise<void> }
  /** A client address of the documentation range, new for each run: Redis keeps counters between runs. */
  const client = `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`

  beforeAll(async () => {
    proxy = await startTcpProxy({ host: REDIS.hostname, port: Number(REDIS.port || 6379) })
    const env = {
      REDIS_URL: `redis://${proxy.address}`,
      RATE_LIMIT_PER_MINUTE: String(QUOTA),
      LOGIN_ATTEMPTS_PER_WINDOW: String(LOGIN_LIMIT),
      STRATA_REDIS_BREAKER_FAILURES: String(FAILURES),
      STRATA_REDIS_BREAKER_COOLDOWN_MS: String(COOL_DOWN_MS),
    }
    a = await createTestApp(env)
    // A second instance on the same database and Redis, on the same (manual) clock.
    const database = a.testDb.open()
    const config = loadConfig(
      { STRATA_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'warn', ...a.testDb.env, ...env },
      { database: a.testDb.config },
    )
    const ctx = await createContext(config, createLogger('warn'), { database, clock: a.clock })
    const app = await buildApp(ctx)
    b = {
      app,
      async close() {
        await app.close()
        await ctx.close()
        await database.close()
      },
    }
    // Start at the beginning of a minute, so the quota's window cannot change during the test.
    a.clock.set(Math.ceil(Date.now() / 60_000) * 60_000)
  })

  afterAll(async () => {
    proxy?.thaw()
    await b?.close()
    await a?.close()
    await proxy?.close()
  })

  const data = (app: App, key: string) =>
    app.inject({ method: 'GET', url: DATA_URL, headers: apiKey(key), remoteAddress: client })
  const problems = async () =>
    (await a.app.inject({ method: 'GET', url: '/v1/health' })).json() as {
      status: string
      rate_limiter: string
      problems: Array<{ component: string; code: string; message: string }>
    }

  it('fails fast and counts locally while Redis is frozen, then shares counts again after the thaw', async () => {
    const { key } = await createKey(a.app)
    const before = await data(a.app, key)
    expect(before.statusCode).toBe(200)
    expect(before.headers['strata-ratelimit-scope']).toBeUndefined()

    proxy.freeze()
    // The places this instance reserved in Redis before the freeze are its own: requests take them
    // without asking Redis (the next block, asked for in the background, times out meanwhile).
    let shared = 0
    let response = await data(a.app, key)
    while (response.headers['strata-ratelimit-scope'] === undefined && shared < QUOTA) {
      shared++
      expect(response.statusCode).toBe(200)
      response = await data(a.app, key)
    }
    expect(shared).toBeGreaterThan(0)
    // Then the breaker's failures: each waits for the command timeout and is decided locally.
    for (let i = 0; i < FAILURES && (await problems()).problems.length === 0; i++) {
      expect(response.statusCode).toBe(200)
      expect(response.headers['strata-ratelimit-scope']).toBe('local')
      response = await data(a.app, key)
    }
    expect(response.headers['strata-ratelimit-scope']).toBe('local')
    const health = await problems()
    expect(health.status).toBe('degraded')
    expect(health.rate_limiter).toBe('redis')
    expect(health.problems).toEqual([
      expect.objectContaining({ component: 'rate_limiter', code: 'rate_limiter_local' }),
    ])
    expect(health.problems[0]?.message).toContain('timed out')
    expect(a.logs.join('')).toContain('rate limiter: Redis failing; counting locally until it answers again')

    // Open: no request waits for Redis any more (it used to wait for the timeout, every time).
    const durations: number[] = []
    for (let i = 0; i < 20; i++) {
      const started = performance.now()
      const response = await data(a.app, key)
      durations.push(performance.now() - started)
      expect(response.statusCode).toBe(200)
      expect(response.headers['strata-ratelimit-scope']).toBe('local')
      expect(response.headers['ratelimit-policy']).toBe(`"org";q=${QUOTA};w=60`)
    }
    durations.sort((x, y) => x - y)
    expect(durations[10]).toBeLessThan(50)
    expect(durations[19]).toBeLessThan(200)

    // The login throttle stays enforced, by this instance's own count.
    const email = `frozen-${randomBytes(4).toString('hex')}@example.com`
    const statuses: number[] = []
    let last = null as Awaited<ReturnType<typeof a.app.inject>> | null
    for (let i = 0; i <= LOGIN_LIMIT; i++) {
      last = await a.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email, password: 'not the password' },
        remoteAddress: client,
      })
      statuses.push(last.statusCode)
    }
    expect(statuses).toEqual([...Array(LOGIN_LIMIT).fill(401), 429])
    expect(last?.headers['strata-ratelimit-scope']).toBe('local')
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0)

    // Redis answers again: after the cool-down one probe closes the breaker.
    proxy.thaw()
    for (let i = 0; i < 100 && (await problems()).problems.length > 0; i++) {
      a.clock.advance(COOL_DOWN_MS)
      await data(a.app, key)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect((await problems()).status).toBe('ok')
    expect(a.logs.join('')).toContain('rate limiter: Redis answers again; counting shared')

    // Both instances count into the one shared window again: each request its own place in it,
    // each instance's in the order of its own reserved places.
    const remaining: number[] = []
    for (const app of [a.app, b.app, a.app, b.app]) {
      const response = await data(app, key)
      expect(response.headers['strata-ratelimit-scope']).toBeUndefined()
      remaining.push(Number(/r=(\d+)/.exec(String(response.headers.ratelimit))?.[1]))
    }
    expect(new Set(remaining).size).toBe(4)
    expect(remaining[2]).toBe(remaining[0]! - 1)
    expect(remaining[3]).toBe(remaining[1]! - 1)
  })
})
