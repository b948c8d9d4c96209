import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, grantPlan, type TestApp } from '../support/app.ts'
import { apiKey, bearer, createKey, createKeyFor, signUp } from '../support/factories.ts'

const URL = '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions/vaultprotocol'
const FREE_QUOTA = 4

describe('per-organization rate limits', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: String(FREE_QUOTA) })
    // Start at the beginning of a window so the test cannot straddle two.
    t.clock.set(Math.ceil(t.clock.now() / 60_000) * 60_000)
  })
  afterAll(async () => t.close())

  it('shares one quota across every key of the organization, with draft headers and 429 + Retry-After', async () => {
    const user = await signUp(t.app)
    const a = await createKeyFor(t.app, user)
    const b = await createKeyFor(t.app, user)
    const seen: Array<{ status: number; policy: unknown; limit: unknown }> = []
    for (const key of [a, b, a, b]) {
      t.clock.advance(1000)
      const response = await t.app.inject({ method: 'GET', url: URL, headers: apiKey(key.key) })
      seen.push({
        status: response.statusCode,
        policy: response.headers['ratelimit-policy'],
        limit: response.headers.ratelimit,
      })
    }
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200])
    expect(seen[0]?.policy).toBe(`"org";q=${FREE_QUOTA};w=60`)
    expect(seen.map((s) => s.limit)).toEqual([
      '"org";r=3;t=59',
      '"org";r=2;t=58',
      '"org";r=1;t=57',
      '"org";r=0;t=56',
    ])

    const limited = await t.app.inject({ method: 'GET', url: URL, headers: apiKey(b.key) })
    expect(limited.statusCode).toBe(429)
    expect(limited.json().error.code).toBe('rate_limited')
    expect(limited.json().meta.request_id).toBeTruthy()
    expect(limited.headers['retry-after']).toBe('56')
    expect(limited.headers.ratelimit).toBe('"org";r=0;t=56')

    // Another organization has its own quota.
    const other = await createKey(t.app)
    expect((await t.app.inject({ method: 'GET', url: URL, headers: apiKey(other.key) })).statusCode).toBe(200)

    // The window resets.
    t.clock.advance(56_000)
    expect((await t.app.inject({ method: 'GET', url: URL, headers: apiKey(a.key) })).statusCode).toBe(200)
  })

  it('changes the quota at once when the plan changes', async () => {
    const user = await signUp(t.app)
    const key = await createKeyFor(t.app, user)
    for (let i = 0; i < FREE_QUOTA; i++)
      await t.app.inject({ method: 'GET', url: URL, headers: apiKey(key.key) })
    expect((await t.app.inject({ method: 'GET', url: URL, headers: apiKey(key.key) })).statusCode).toBe(429)

    // The operator allows pro (strata set-plan pro), then the organization moves down and back up.
    await grantPlan(t, user.organization_id, 'pro')
    const patch = async (payload: Record<string, unknown>) => {
      const response = await t.app.inject({
        method: 'PATCH',
        url: '/v1/org/billing',
        headers: { ...bearer(user.access_token), 'content-type': 'application/json' },
        payload,
      })
      expect(response.statusCode, response.body).toBe(200)
      return response
    }
    expect((await patch({ plan: 'free' })).json().rate_limit.limit).toBe(FREE_QUOTA)
    expect((await t.app.inject({ method: 'GET', url: URL, headers: apiKey(key.key) })).statusCode).toBe(429)
    const upgraded = await patch({ plan: 'pro', billing_email: 'Billing@Example.com' })
    expect(upgraded.json()).toEqual({
      plan: 'pro',
      max_plan: 'pro',
      billing_email: 'billing@example.com',
      rate_limit: { limit: FREE_QUOTA * 10, window_seconds: 60 },
    })
    const next = await t.app.inject({ method: 'GET', url: URL, headers: apiKey(key.key) })
    expect(next.statusCode).toBe(200)
    expect(next.headers['ratelimit-policy']).toBe(`"org";q=${FREE_QUOTA * 10};w=60`)

    const org = await t.app.inject({ method: 'GET', url: '/v1/org', headers: bearer(user.access_token) })
    expect(org.json()).toMatchObject({
      id: user.organization_id,
      slug: user.organization_slug,
      plan: 'pro',
      billing_email: 'billing@example.com',
      rate_limit: { limit: FREE_QUOTA * 10, window_seconds: 60 },
    })
    expect(Date.parse(org.json().created_at)).not.toBeNaN()
  })

  it('rejects an unknown plan and an empty billing update', async () => {
    const user = await signUp(t.app)
    for (const payload of [{ plan: 'platinum' }, {}, { billing_email: 'not-an-email' }]) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: '/v1/org/billing',
        headers: { ...bearer(user.access_token), 'content-type': 'application/json' },
        payload,
      })
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json().error.code).toBe('invalid_request')
    }
  })
})

describe('rate limits while Redis does not answer', () => {
  let t: TestApp
  beforeAll(async () => {
    // Nothing listens on port 1: every command fails, and the breaker opens after 2 of them.
    t = await createTestApp({
      REDIS_URL: 'redis://127.0.0.1:1',
      RATE_LIMIT_PER_MINUTE: '5',
      STRATA_REPLICAS: '2',
      STRATA_REDIS_BREAKER_FAILURES: '2',
    })
    t.clock.set(Math.ceil(t.clock.now() / 60_000) * 60_000)
  })
  afterAll(async () => t.close())

  it("enforces this instance's share of the quota, says so in the headers, and health says why", async () => {
    const key = await createKey(t.app)
    const responses = []
    // A quota of 5 shared by 2 replicas: 3 for this instance.
    for (let i = 0; i < 4; i++)
      responses.push(await t.app.inject({ method: 'GET', url: URL, headers: apiKey(key.key) }))
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 429])
    for (const response of responses) {
      expect(response.headers['strata-ratelimit-scope']).toBe('local')
      expect(response.headers['ratelimit-policy']).toBe('"org";q=3;w=60')
    }
    expect(responses.map((r) => r.headers.ratelimit)).toEqual([
      '"org";r=2;t=60',
      '"org";r=1;t=60',
      '"org";r=0;t=60',
      '"org";r=0;t=60',
    ])
    expect(responses[3]?.headers['retry-after']).toBe('60')

    const health = await t.app.inject({ method: 'GET', url: '/v1/health' })
    expect(health.json()).toMatchObject({
      status: 'degraded',
      rate_limiter: 'redis',
      problems: [{ component: 'rate_limiter', code: 'rate_limiter_local' }],
    })
    expect(health.json().problems[0].message).toContain('1/2 of every quota')
  })
})
