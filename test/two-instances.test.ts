import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from './support/database.ts'
import { type ServerProcess, startServerProcess } from './support/process.ts'

const ADMIN = 'two-instance-admin-token-0123'
const QUOTA = 6
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
      headers: { 'content-type': 'application/json' },
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
})
