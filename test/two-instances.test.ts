import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from './support/database.ts'
import { type ServerProcess, startServerProcess } from './support/process.ts'

const ADMIN = 'two-instance-admin-token-0123'
const QUOTA = 6
const SIGNUPS_PER_HOUR = 3

/** A client address of the documentation range, new for each run: Redis keeps counters between runs. */
const clientAddress = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`
const DATA_PATH = '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions/vaultprotocol'

// Two server processes on one PostgreSQL database and the real Redis: what a production deployment runs.
describe.skipIf(TEST_DB_KIND !== 'postgres')('two instances on one PostgreSQL and Redis', () => {
  let db: TestDatabase
  let a: ServerProcess
  let b: ServerProcess

  beforeAll(async () => {
    db = await createTestDatabase('postgres')
    const env = {
      ...db.env,
      REDIS_URL: process.env.STRATA_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      STRATA_ADMIN_TOKEN: ADMIN,
      RATE_LIMIT_PER_MINUTE: String(QUOTA),
      SIGNUP_ATTEMPTS_PER_WINDOW: String(SIGNUPS_PER_HOUR),
      SIGNUP_WINDOW_S: '3600',
      // Both instances stand behind one load balancer (the test), which names the client.
      TRUST_PROXY: 'loopback',
      PORT: '0',
    }
    ;[a, b] = await Promise.all([startServerProcess(['serve'], env), startServerProcess(['serve'], env)])
  }, 90_000)

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await db?.drop()
  })

  const createKey = async (slug: string) => {
    const response = await fetch(`${a.url}/v1/org/api-keys`, {
      method: 'POST',
      headers: { 'x-svc-admin-token': ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({
        organization_name: 'Two',
        organization_slug: slug,
        key_name: 'k',
        reuse_signup_organization: true,
      }),
    })
    expect(response.status).toBe(201)
    return (await response.json()) as { key: string; api_key_id: string; organization_slug: string }
  }

  it('a key revoked through instance A is refused by instance B on the next request', async () => {
    const slug = `two-${Date.now()}`
    const signup = await fetch(`${a.url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': clientAddress() },
      body: JSON.stringify({
        organization_name: 'Two',
        organization_slug: slug,
        email: `${slug}@example.com`,
        password: 'long password 1',
      }),
    })
    expect(signup.status).toBe(201)
    const { access_token } = (await signup.json()) as { access_token: string }
    const key = await createKey(slug)
    expect((await fetch(`${b.url}${DATA_PATH}`, { headers: { 'x-svc-token': key.key } })).status).toBe(200)
    const revoke = await fetch(`${a.url}/v1/org/api-keys/${key.api_key_id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${access_token}` },
    })
    expect(revoke.status).toBe(204)
    const refused = await fetch(`${b.url}${DATA_PATH}`, { headers: { 'x-svc-token': key.key } })
    expect(refused.status).toBe(401)
    // A token issued by A is valid on B: both read the same signing secret.
    expect(
      (await fetch(`${b.url}/v1/org`, { headers: { authorization: `Bearer ${access_token}` } })).status,
    ).toBe(200)
  })

  it("shares the organization's quota across both instances", async () => {
    // Stay inside one rate-limit window.
    const intoWindow = Date.now() % 60_000
    if (intoWindow > 55_000) await new Promise((r) => setTimeout(r, 60_500 - intoWindow))
    const key = await createKey(`quota-${Date.now()}`)
    const statuses: number[] = []
    for (let i = 0; i < QUOTA + 2; i++) {
      const target = i % 2 === 0 ? a : b
      statuses.push(
        (await fetch(`${target.url}${DATA_PATH}`, { headers: { 'x-svc-token': key.key } })).status,
      )
    }
    expect(statuses).toEqual([...Array(QUOTA).fill(200), 429, 429])
  })

  it('shares the signup throttle of a client address across both instances, per client', async () => {
    const [client, other] = [clientAddress(), clientAddress()]
    const signup = (target: ServerProcess, from: string) => {
      const slug = `thr-${randomBytes(4).toString('hex')}`
      return fetch(`${target.url}/v1/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify({
          organization_name: 'Throttle',
          organization_slug: slug,
          email: `${slug}@example.com`,
          password: 'long password 1',
        }),
      })
    }
    // Stay inside one throttle window.
    const intoWindow = Date.now() % 3_600_000
    if (intoWindow > 3_590_000) await new Promise((r) => setTimeout(r, 3_600_500 - intoWindow))
    const statuses: number[] = []
    for (let i = 0; i < SIGNUPS_PER_HOUR + 1; i++) statuses.push((await signup(i % 2 ? b : a, client)).status)
    expect(statuses).toEqual([...Array(SIGNUPS_PER_HOUR).fill(201), 429])
    const refused = await signup(a, client)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another client behind the same proxy has its own bucket, on either instance.
    expect((await signup(b, other)).status).toBe(201)
  })
})
