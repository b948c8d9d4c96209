import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/api/app.ts'
import { UNKNOWN_KEY_TTL_MS } from '../../src/api/auth/key-cache.ts'
import { generateApiKey } from '../../src/auth/api-key.ts'
import { loadConfig } from '../../src/config.ts'
import { createContext } from '../../src/context.ts'
import { createLogger } from '../../src/logger.ts'
import { changePlan } from '../../src/org/plans.ts'
import { updateKeysLastUsed } from '../../src/store/api-keys.ts'
import type { Database } from '../../src/store/db.ts'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { TEST_DB_KIND } from '../support/database.ts'
import { apiKey, bearer, createKeyFor, signUp } from '../support/factories.ts'

const ADDRESS = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'
const URL = `/v1/users/${ADDRESS}/positions/vaultprotocol`
const QUOTA = 50

/**
 * The guarantee of the in-memory key records: a key revoked (expired, rescoped, its organization's
 * plan changed) by a write committed before a request starts is judged on the new record by that
 * request, on this instance and on any other sharing the database. Instance A below serves the
 * requests; instance B is a second, independent context and app on the same database (with
 * STRATA_TEST_DB=postgres: two instances sharing one PostgreSQL), and raw SQL goes through a
 * third connection, as an operator's hand-written statement would.
 */
describe(`API-key records served from memory (${TEST_DB_KIND})`, () => {
  let a: TestApp
  let b: { app: Awaited<ReturnType<typeof buildApp>>; close: () => Promise<void> }
  let raw: Database

  beforeAll(async () => {
    a = await createTestApp({ RATE_LIMIT_PER_MINUTE: String(QUOTA) })
    const database = a.testDb.open()
    const config = loadConfig(
      {
        STRATA_ADMIN_TOKEN: ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: String(QUOTA),
        ...a.testDb.env,
      },
      { database: a.testDb.config },
    )
    const ctx = await createContext(config, createLogger('warn'), { database })
    const app = await buildApp(ctx)
    b = {
      app,
      close: async () => {
        await app.close()
        await ctx.close()
        await database.close()
      },
    }
    raw = a.testDb.open()
  })

  afterAll(async () => {
    await raw?.close()
    await b?.close()
    await a?.close()
  })

  const get = (key: string) => a.app.inject({ method: 'GET', url: URL, headers: apiKey(key) })
  const generation = async () =>
    String(
      (await raw.db.selectFrom('auth_generation').select('generation').executeTakeFirstOrThrow()).generation,
    )

  /** A key that instance A has already authenticated, so its record is in A's memory. */
  const cachedKey = async () => {
    const user = await signUp(a.app)
    const key = await createKeyFor(a.app, user)
    expect((await get(key.key)).statusCode).toBe(200)
    expect((await get(key.key)).statusCode).toBe(200)
    expect(a.ctx.caches.keyRecords.get(key.key)?.key.id).toBe(key.api_key_id)
    return { user, key }
  }

  it('refuses a key revoked through another instance on the very next request', async () => {
    const { user, key } = await cachedKey()
    const revoke = await b.app.inject({
      method: 'DELETE',
      url: `/v1/org/api-keys/${key.api_key_id}`,
      headers: bearer(user.access_token),
    })
    expect(revoke.statusCode).toBe(204)
    const refused = await get(key.key)
    expect(refused.statusCode).toBe(401)
    expect(refused.json().error.message).toBe('the API key has been revoked')
  })

  it('refuses a key revoked, expired or rescoped by a hand-written SQL statement on the next request', async () => {
    const revoked = await cachedKey()
    await raw.db
      .updateTable('api_keys')
      .set({ revoked_at: 1 })
      .where('id', '=', revoked.key.api_key_id)
      .execute()
    expect((await get(revoked.key.key)).statusCode).toBe(401)

    const expired = await cachedKey()
    await raw.db
      .updateTable('api_keys')
      .set({ expires_at: a.clock.now() - 1 })
      .where('id', '=', expired.key.api_key_id)
      .execute()
    const refused = await get(expired.key.key)
    expect(refused.statusCode).toBe(401)
    expect(refused.json().error.message).toBe('the API key has expired')

    const rescoped = await cachedKey()
    await raw.db
      .updateTable('api_keys')
      .set({ scopes: JSON.stringify(['other:scope']) })
      .where('id', '=', rescoped.key.api_key_id)
      .execute()
    expect((await get(rescoped.key.key)).statusCode).toBe(403)

    const deleted = await cachedKey()
    await raw.db.deleteFrom('api_keys').where('id', '=', deleted.key.api_key_id).execute()
    const gone = await get(deleted.key.key)
    expect(gone.statusCode).toBe(401)
    expect(gone.json().error.message).toBe('the API key is invalid')
  })

  it("applies a plan change made through another instance to the next request's quota", async () => {
    const { user, key } = await cachedKey()
    expect((await get(key.key)).headers['ratelimit-policy']).toBe(`"org";q=${QUOTA};w=60`)
    await raw.db.transaction().execute((trx) =>
      changePlan(trx, {
        organizationId: user.organization_id,
        plan: 'pro',
        by: { kind: 'admin' },
        clientIp: null,
        now: a.clock.now(),
      }),
    )
    // Pro multiplies the base quota by 10 (PLAN_QUOTA_MULTIPLIER).
    expect((await get(key.key)).headers['ratelimit-policy']).toBe(`"org";q=${QUOTA * 10};w=60`)
  })

  it('expires a cached key by the clock, without any write', async () => {
    const user = await signUp(a.app)
    const expiresAt = a.clock.now() + 60_000
    const key = await createKeyFor(a.app, user, { expires_at: new Date(expiresAt).toISOString() })
    expect((await get(key.key)).statusCode).toBe(200)
    expect(a.ctx.caches.keyRecords.get(key.key)).toBeDefined()
    a.clock.set(expiresAt)
    expect((await get(key.key)).statusCode).toBe(401)
  })

  it('raises the generation on every write authentication reads, and not on last-use times', async () => {
    const { user, key } = await cachedKey()
    const before = await generation()
    await updateKeysLastUsed(raw.db, new Map([[key.api_key_id, a.clock.now() + 1000]]))
    expect(await generation()).toBe(before)
    expect(a.ctx.caches.keyRecords.get(key.key)?.generation).toBe(before)
    await raw.db
      .updateTable('organizations')
      .set({ billing_email: 'x@example.com' })
      .where('id', '=', user.organization_id)
      .execute()
    const after = await generation()
    expect(after).not.toBe(before)
    // The next request reads the record again, at the new generation.
    expect((await get(key.key)).statusCode).toBe(200)
    expect(a.ctx.caches.keyRecords.get(key.key)?.generation).toBe(after)
  })

  it('never keeps a record for a key the store does not know', async () => {
    const user = await signUp(a.app)
    const key = await createKeyFor(a.app, user)
    await raw.db.deleteFrom('api_keys').where('id', '=', key.api_key_id).execute()
    expect((await get(key.key)).statusCode).toBe(401)
    expect((await get(key.key)).statusCode).toBe(401)
    expect(a.ctx.caches.keyRecords.get(key.key)).toBeUndefined()
  })

  /** Counts A's key lookups (the statement after the request's own) while `fn` runs. */
  const lookupsDuring = async (fn: () => Promise<void>): Promise<number> => {
    const lookup = a.ctx.lookupApiKey
    let calls = 0
    a.ctx.lookupApiKey = (hash) => {
      calls++
      return lookup(hash)
    }
    try {
      await fn()
    } finally {
      a.ctx.lookupApiKey = lookup
    }
    return calls
  }

  it('refuses a repeated unknown key with the request statement alone, and accepts a key created right after', async () => {
    const unknown = generateApiKey()
    const calls = await lookupsDuring(async () => {
      for (let i = 0; i < 5; i++) {
        const refused = await get(unknown)
        expect(refused.statusCode).toBe(401)
        expect(refused.json().error.message).toBe('the API key is invalid')
      }
    })
    expect(calls).toBe(1)
    // A key created a moment later (its secret never presented before) works at once.
    const user = await signUp(a.app)
    const created = await createKeyFor(a.app, user)
    expect((await get(created.key)).statusCode).toBe(200)
  })

  it('looks an unknown key up again when the generation changes, or after UNKNOWN_KEY_TTL_MS', async () => {
    const { user, key } = await cachedKey()
    const row = await raw.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.api_key_id)
      .executeTakeFirstOrThrow()
    await raw.db.deleteFrom('api_keys').where('id', '=', key.api_key_id).execute()
    expect(await lookupsDuring(async () => void (await get(key.key)))).toBe(1)
    expect(await lookupsDuring(async () => void (await get(key.key)))).toBe(0)
    // Put back by hand: an insert does not raise the generation, so the key is still refused
    // from memory, until the entry's time is over.
    await raw.db.insertInto('api_keys').values(row).execute()
    expect((await get(key.key)).statusCode).toBe(401)
    a.clock.advance(UNKNOWN_KEY_TTL_MS)
    expect((await get(key.key)).statusCode).toBe(200)

    // Refused again after a deletion, then any write that raises the generation ends it at once.
    await raw.db.deleteFrom('api_keys').where('id', '=', key.api_key_id).execute()
    expect((await get(key.key)).statusCode).toBe(401)
    await raw.db.insertInto('api_keys').values(row).execute()
    await raw.db
      .updateTable('organizations')
      .set({ billing_email: 'y@example.com' })
      .where('id', '=', user.organization_id)
      .execute()
    expect((await get(key.key)).statusCode).toBe(200)
  })
})
