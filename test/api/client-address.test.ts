import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.ts'
import { bearer, uniqueSlug } from '../support/factories.ts'

const json = { 'content-type': 'application/json' }
const PROXY = '10.0.0.5'
const CLIENT_A = '203.0.113.10'
const CLIENT_B = '203.0.113.20'

/** A request as a load balancer at PROXY forwards it for `client`. */
const viaProxy = (client: string) => ({
  remoteAddress: PROXY,
  headers: { ...json, 'x-forwarded-for': client },
})

describe('the client address behind a proxy (TRUST_PROXY) and the throttles that use it', () => {
  const apps: TestApp[] = []
  afterAll(async () => {
    for (const t of apps) await t.close()
  })
  const app = async (env: Record<string, string>) => {
    const t = await createTestApp(env)
    // Start at the beginning of a throttle window so no test straddles two.
    t.clock.set(Math.ceil(t.clock.now() / 3_600_000) * 3_600_000)
    apps.push(t)
    return t
  }

  const signup = (t: TestApp, client: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      ...viaProxy(client),
      payload: {
        organization_name: 'x',
        organization_slug: uniqueSlug(),
        email: `${uniqueSlug()}@example.com`,
        password: 'long enough pw',
      },
    })
  const login = (t: TestApp, client: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      ...viaProxy(client),
      payload: { email: `${uniqueSlug()}@example.com`, password: 'wrong password' },
    })

  it('throttles signup per client address with 429 and Retry-After', async () => {
    const t = await app({ SIGNUP_ATTEMPTS_PER_WINDOW: '2', SIGNUP_WINDOW_S: '3600', TRUST_PROXY: 'true' })
    expect((await signup(t, CLIENT_A)).statusCode).toBe(201)
    expect((await signup(t, CLIENT_A)).statusCode).toBe(201)
    t.clock.advance(1000)
    const refused = await signup(t, CLIENT_A)
    expect(refused.statusCode).toBe(429)
    expect(refused.json().error.code).toBe('rate_limited')
    expect(refused.json().error.message).toBe('too many signups from this address; try again in 3599 s')
    expect(refused.headers['retry-after']).toBe('3599')
    expect(refused.json().meta.request_id).toBe(refused.headers['x-request-id'])
    // Another address is not held back, and the window ends.
    expect((await signup(t, CLIENT_B)).statusCode).toBe(201)
    t.clock.advance(3_599_000)
    expect((await signup(t, CLIENT_A)).statusCode).toBe(201)
  })

  it('ignores x-forwarded-for without TRUST_PROXY: every client behind the proxy shares its bucket', async () => {
    const t = await app({ SIGNUP_ATTEMPTS_PER_WINDOW: '1' })
    expect(t.ctx.config.trustProxy).toBe(false)
    const first = await signup(t, CLIENT_A)
    expect(first.statusCode).toBe(201)
    expect((await signup(t, CLIENT_B)).statusCode).toBe(429)
    // The audit log records the proxy's address, not the header's claim.
    const events = await t.app.inject({
      method: 'GET',
      url: '/v1/org/audit-log',
      headers: bearer(first.json().access_token),
    })
    expect(new Set(events.json().data.map((e: { client_ip: string }) => e.client_ip))).toEqual(
      new Set([PROXY]),
    )
  })

  it('with TRUST_PROXY, two clients behind one proxy get separate buckets and their own addresses', async () => {
    for (const trust of ['true', '1', PROXY, '10.0.0.0/8']) {
      const t = await app({ SIGNUP_ATTEMPTS_PER_WINDOW: '1', TRUST_PROXY: trust })
      const first = await signup(t, CLIENT_A)
      expect(first.statusCode, trust).toBe(201)
      expect((await signup(t, CLIENT_A)).statusCode, trust).toBe(429)
      expect((await signup(t, CLIENT_B)).statusCode, trust).toBe(201)
      const events = await t.app.inject({
        method: 'GET',
        url: '/v1/org/audit-log',
        headers: bearer(first.json().access_token),
      })
      expect(events.json().data.map((e: { client_ip: string }) => e.client_ip)).toEqual([
        CLIENT_A,
        CLIENT_A,
        CLIENT_A,
      ])
    }
  })

  it('trusts only the listed proxies: a client cannot name itself through an untrusted hop', async () => {
    const t = await app({ SIGNUP_ATTEMPTS_PER_WINDOW: '1', TRUST_PROXY: '192.0.2.1' })
    expect((await signup(t, CLIENT_A)).statusCode).toBe(201)
    // The request comes from PROXY, which is not trusted: its header is not believed.
    expect((await signup(t, CLIENT_B)).statusCode).toBe(429)
  })

  it('gives the login throttle a bucket per client address behind the proxy', async () => {
    // One attempt per email, ten per client address.
    for (const [trust, clientBAllowed] of [
      ['false', false],
      ['true', true],
    ] as const) {
      const t = await app({ LOGIN_ATTEMPTS_PER_WINDOW: '1', TRUST_PROXY: trust })
      for (let i = 0; i < 10; i++) expect((await login(t, CLIENT_A)).statusCode).toBe(401)
      expect((await login(t, CLIENT_A)).statusCode).toBe(429)
      expect((await login(t, CLIENT_B)).statusCode, `TRUST_PROXY=${trust}`).toBe(clientBAllowed ? 401 : 429)
    }
  })
})
