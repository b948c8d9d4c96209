import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/api/app.ts'
import { loadConfig } from '../../src/config.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { createLogger } from '../../src/logger.ts'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { TEST_DB_KIND } from '../support/database.ts'
import { apiKey, bearer, createKeyFor, type SignedUp, signUp } from '../support/factories.ts'

const QUOTA = 6
const DATA_URL = '/v1/protocols'
const REDIS_URL = process.env.STRATA_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
/** The batches are written when a test says (`orgUsage.flush()`), never by the timer meanwhile. */
const NO_TIMED_FLUSH = { lastUsedFlushMs: 3_600_000 }

type Inject = TestApp['app']['inject']
interface Instance {
  app: { inject: Inject }
  ctx: AppContext
}

/** `count` data requests of `key` through `instance`, with their statuses. */
async function dataRequests(instance: Instance, key: string, count: number): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 0; i < count; i++)
    statuses.push(
      (await instance.app.inject({ method: 'GET', url: DATA_URL, headers: apiKey(key) })).statusCode,
    )
  return statuses
}

async function usageOf(instance: Instance, user: SignedUp) {
  const response = await instance.app.inject({
    method: 'GET',
    url: '/v1/org/usage',
    headers: bearer(user.access_token),
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

/** The 30 dates ending at `last` (YYYY-MM-DD), oldest first, written out independently of the code. */
function thirtyDaysTo(last: string): string[] {
  const end = Date.parse(`${last}T00:00:00Z`)
  return Array.from({ length: 30 }, (_, i) =>
    new Date(end - (29 - i) * 86_400_000).toISOString().slice(0, 10),
  )
}

/** A second instance of the app on `t`'s database (and its clock), as a replica would be. */
async function replicaOf(t: TestApp, env: Record<string, string> = {}) {
  const database = t.testDb.open()
  const config = loadConfig(
    {
      STRATA_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: String(QUOTA),
      ...t.testDb.env,
      ...env,
    },
    { database: t.testDb.config, ...NO_TIMED_FLUSH },
  )
  const ctx = await createContext(config, createLogger('warn'), { database, clock: t.clock })
  const app = await buildApp(ctx)
  return {
    app,
    ctx,
    close: async () => {
      await app.close()
      await ctx.close()
      await database.close()
    },
  }
}

describe(`GET /v1/org/usage (${TEST_DB_KIND})`, () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: String(QUOTA) }, NO_TIMED_FLUSH)
    t.clock.set(Date.UTC(2026, 2, 10, 12, 0, 0))
  })
  afterAll(async () => t.close())

  it('shows the window and the day counting the data requests, before and after they are written', async () => {
    const user = await signUp(t.app)
    const key = await createKeyFor(t.app, user)
    t.clock.advance(2000)
    expect(await dataRequests(t, key.key, 4)).toEqual([200, 200, 200, 200])

    const before = await usageOf(t, user)
    expect(before.plan).toBe('free')
    expect(before.rate_limit).toEqual({
      limit: QUOTA,
      window_seconds: 60,
      used: 4,
      remaining: QUOTA - 4,
      resets_at: '2026-03-10T12:01:00.000Z',
      local: false,
    })
    // Not yet written: this instance's own counts are in the answer.
    expect(before.today).toEqual({ date: '2026-03-10', requests: 4 })
    expect(before.days.map((d: { date: string }) => d.date)).toEqual(thirtyDaysTo('2026-03-10'))
    expect(before.days.at(-1)).toEqual({ date: '2026-03-10', requests: 4 })
    expect(before.days.slice(0, -1).every((d: { requests: number }) => d.requests === 0)).toBe(true)
    const stored = () =>
      t.database.db
        .selectFrom('organization_usage')
        .select(['day', 'requests'])
        .where('organization_id', '=', user.organization_id)
        .execute()
    expect(await stored()).toEqual([])

    await t.ctx.orgUsage.flush()
    expect((await stored()).map((row) => ({ day: row.day, requests: Number(row.requests) }))).toEqual([
      { day: '2026-03-10', requests: 4 },
    ])
    // Written once, counted once; and reading the usage counted nothing.
    const after = await usageOf(t, user)
    expect(after.today).toEqual({ date: '2026-03-10', requests: 4 })
    expect(after.rate_limit.used).toBe(4)

    // More requests add to the stored row.
    await dataRequests(t, key.key, 1)
    await t.ctx.orgUsage.flush()
    expect((await stored()).map((row) => Number(row.requests))).toEqual([5])
    expect((await usageOf(t, user)).today.requests).toBe(5)
  })

  it('counts a request the quota refused, as the window does', async () => {
    const user = await signUp(t.app)
    const key = await createKeyFor(t.app, user)
    const statuses = await dataRequests(t, key.key, QUOTA + 2)
    expect(statuses).toEqual([...Array(QUOTA).fill(200), 429, 429])
    const usage = await usageOf(t, user)
    expect(usage.rate_limit).toMatchObject({ limit: QUOTA, used: QUOTA + 2, remaining: 0 })
    expect(usage.today.requests).toBe(QUOTA + 2)
  })

  it('starts a new day at midnight UTC, keeping the day before in the list', async () => {
    t.clock.set(Date.UTC(2026, 2, 10, 23, 59, 0))
    const user = await signUp(t.app)
    const key = await createKeyFor(t.app, user)
    await dataRequests(t, key.key, 3)
    await t.ctx.orgUsage.flush()
    t.clock.set(Date.UTC(2026, 2, 11, 0, 0, 1))
    await dataRequests(t, key.key, 2)
    const usage = await usageOf(t, user)
    expect(usage.today).toEqual({ date: '2026-03-11', requests: 2 })
    expect(usage.days.map((d: { date: string }) => d.date)).toEqual(thirtyDaysTo('2026-03-11'))
    expect(usage.days.slice(-2)).toEqual([
      { date: '2026-03-10', requests: 3 },
      { date: '2026-03-11', requests: 2 },
    ])
    // A new minute's window: only today's two so far.
    expect(usage.rate_limit).toMatchObject({ used: 2, resets_at: '2026-03-11T00:01:00.000Z' })
  })

  it('keeps a batch that could not be written for the next flush, counted once', async () => {
    const user = await signUp(t.app)
    const key = await createKeyFor(t.app, user)
    await dataRequests(t, key.key, 3)
    const rename = (from: string, to: string) =>
      sql`ALTER TABLE ${sql.table(from)} RENAME TO ${sql.table(to)}`.execute(t.database.db)
    await rename('organization_usage', 'organization_usage_away')
    try {
      await t.ctx.orgUsage.flush()
    } finally {
      await rename('organization_usage_away', 'organization_usage')
    }
    expect(t.logs.filter((line) => line.includes('could not record organization usage'))).toHaveLength(1)
    await dataRequests(t, key.key, 1)
    expect((await usageOf(t, user)).today.requests).toBe(4)
    await t.ctx.orgUsage.flush()
    const row = await t.database.db
      .selectFrom('organization_usage')
      .select('requests')
      .where('organization_id', '=', user.organization_id)
      .executeTakeFirstOrThrow()
    expect(Number(row.requests)).toBe(4)
    expect((await usageOf(t, user)).today.requests).toBe(4)
  })

  it('takes a bearer token only', async () => {
    const user = await signUp(t.app)
    const key = await createKeyFor(t.app, user)
    const none = await t.app.inject({ method: 'GET', url: '/v1/org/usage' })
    expect(none.statusCode).toBe(401)
    expect(none.json().error.message).toContain('authorization header')
    const withKey = await t.app.inject({ method: 'GET', url: '/v1/org/usage', headers: apiKey(key.key) })
    expect(withKey.statusCode).toBe(401)
    expect(withKey.json().error.message).toContain('authorization header')
    expect(withKey.json().error.message).toContain('x-svc-token is not accepted here')
  })
})

describe(`two instances on one database (${TEST_DB_KIND})`, () => {
  let t: TestApp
  let b: Awaited<ReturnType<typeof replicaOf>>
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: String(QUOTA) }, NO_TIMED_FLUSH)
    t.clock.set(Date.UTC(2026, 4, 20, 8, 30, 0))
    b = await replicaOf(t)
  })
  afterAll(async () => {
    await b?.close()
    await t?.close()
  })

  it('adds up the days each counted', async () => {
    const user = await signUp(t.app)
    const key = await createKeyFor(t.app, user)
    await dataRequests(t, key.key, 3)
    await dataRequests(b, key.key, 2)
    // Each sees its own unwritten counts at once, the other's once written.
    expect((await usageOf(t, user)).today.requests).toBe(3)
    expect((await usageOf(b, user)).today.requests).toBe(2)
    await t.ctx.orgUsage.flush()
    await b.ctx.orgUsage.flush()
    expect((await usageOf(t, user)).today).toEqual({ date: '2026-05-20', requests: 5 })
    expect((await usageOf(b, user)).today).toEqual({ date: '2026-05-20', requests: 5 })
    await dataRequests(b, key.key, 1)
    await b.ctx.orgUsage.flush()
    await dataRequests(t, key.key, 1)
    await t.ctx.orgUsage.flush()
    const row = await t.database.db
      .selectFrom('organization_usage')
      .select('requests')
      .where('organization_id', '=', user.organization_id)
      .executeTakeFirstOrThrow()
    expect(Number(row.requests)).toBe(7)
    expect((await usageOf(b, user)).today.requests).toBe(7)
  })
})

describe(`two instances sharing Redis (${TEST_DB_KIND})`, () => {
  let t: TestApp
  let b: Awaited<ReturnType<typeof replicaOf>>
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: String(QUOTA), REDIS_URL }, NO_TIMED_FLUSH)
    // The real time, at a window's start: Redis expires the window's key in real time.
    t.clock.set(Math.ceil(Date.now() / 60_000) * 60_000)
    b = await replicaOf(t, { REDIS_URL })
  })
  afterAll(async () => {
    await b?.close()
    await t?.close()
  })

  it("shows the window's shared count, which reading it does not change", async () => {
    const user = await signUp(t.app)
    const key = await createKeyFor(t.app, user)
    await dataRequests(t, key.key, 3)
    await dataRequests(b, key.key, 2)
    for (const instance of [t, b, t]) {
      const usage = await usageOf(instance, user)
      expect(usage.rate_limit).toMatchObject({ limit: QUOTA, used: 5, remaining: QUOTA - 5, local: false })
    }
  })
})
