import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/api/app.ts'
import { UNKNOWN_KEY_TTL_MS } from '../../src/api/auth/key-cache.ts'
import { generateApiKey } from '../../src/auth/api-key.ts'
import { loadConfig } from '../../src/config.ts'
import { createContext } from '../../src/context.ts'
import { createLogger } from '../../src/logger.ts'
import { changePlan } from '../../src/org/plans.ts'
import { updateKeysLastUsed } from '../../src/store/api-keys.ts'
import { watchApplicationName } from '../../src/store/commit-watch.ts'
import type { Database } from '../../src/store/db.ts'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { TEST_DB_KIND, untilStateLive } from '../support/database.ts'
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
 *
 * On PostgreSQL each instance answers from memory while its commit watch's lease holds
 * (src/store/commit-watch.ts): a write through the API is answered once every instance has
 * received it, so the next request anywhere sees it; a hand-written statement is seen by an
 * instance when its notification arrives there (`settled` below waits for that on A), at most
 * LEASE_MS later.
 */
describe(`API-key records served from memory (${TEST_DB_KIND})`, () => {
  let a: TestApp
  let b: { app: Awaited<ReturnType<typeof buildApp>>; database: Database; close: () => Promise<void> }
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
      database,
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
  /** A hand-written statement has reached instance A (SQLite: at its commit). */
  const settled = async () => {
    await a.database.committed.settle?.()
  }
  const generation = async () =>
    String(
      (await raw.db.selectFrom('auth_generation').select('generation').executeTakeFirstOrThrow()).generation,
    )

  /** The operator grants the pro plan by hand-written SQL's way (as `strata set-plan` writes it), seen by A. */
  const grantPro = async (organizationId: string) => {
    await raw.db.transaction().execute((trx) =>
      changePlan(trx, {
        organizationId,
        plan: 'pro',
        by: { kind: 'admin' },
        clientIp: null,
        now: a.clock.now(),
      }),
    )
    await settled()
  }

  /** Its own member revokes a key through instance B's API. */
  const revokeThroughB = async ({ user, key }: Awaited<ReturnType<typeof cachedKey>>) => {
    const revoke = await b.app.inject({
      method: 'DELETE',
      url: `/v1/org/api-keys/${key.api_key_id}`,
      headers: bearer(user.access_token),
    })
    expect(revoke.statusCode).toBe(204)
  }

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
    const cached = await cachedKey()
    await revokeThroughB(cached)
    const refused = await get(cached.key.key)
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
    await settled()
    expect((await get(revoked.key.key)).statusCode).toBe(401)

    const expired = await cachedKey()
    await raw.db
      .updateTable('api_keys')
      .set({ expires_at: a.clock.now() - 1 })
      .where('id', '=', expired.key.api_key_id)
      .execute()
    await settled()
    const refused = await get(expired.key.key)
    expect(refused.statusCode).toBe(401)
    expect(refused.json().error.message).toBe('the API key has expired')

    const rescoped = await cachedKey()
    await raw.db
      .updateTable('api_keys')
      .set({ scopes: JSON.stringify(['other:scope']) })
      .where('id', '=', rescoped.key.api_key_id)
      .execute()
    await settled()
    expect((await get(rescoped.key.key)).statusCode).toBe(403)

    const deleted = await cachedKey()
    await raw.db.deleteFrom('api_keys').where('id', '=', deleted.key.api_key_id).execute()
    await settled()
    const gone = await get(deleted.key.key)
    expect(gone.statusCode).toBe(401)
    expect(gone.json().error.message).toBe('the API key is invalid')
  })

  it("applies a plan change made through another instance to the next request's quota", async () => {
    const { user, key } = await cachedKey()
    expect((await get(key.key)).headers['ratelimit-policy']).toBe(`"org";q=${QUOTA};w=60`)
    await grantPro(user.organization_id)
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
    await settled()
    // The next request reads the record again, at the new generation.
    expect((await get(key.key)).statusCode).toBe(200)
    expect(a.ctx.caches.keyRecords.get(key.key)?.generation).toBe(after)
  })

  it('never keeps a record for a key the store does not know', async () => {
    const user = await signUp(a.app)
    const key = await createKeyFor(a.app, user)
    await raw.db.deleteFrom('api_keys').where('id', '=', key.api_key_id).execute()
    await settled()
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
    await settled()
    expect((await get(key.key)).statusCode).toBe(401)
    a.clock.advance(UNKNOWN_KEY_TTL_MS)
    expect((await get(key.key)).statusCode).toBe(200)

    // Refused again after a deletion, then any write that raises the generation ends it at once.
    await raw.db.deleteFrom('api_keys').where('id', '=', key.api_key_id).execute()
    await settled()
    expect((await get(key.key)).statusCode).toBe(401)
    await raw.db.insertInto('api_keys').values(row).execute()
    await raw.db
      .updateTable('organizations')
      .set({ billing_email: 'y@example.com' })
      .where('id', '=', user.organization_id)
      .execute()
    await settled()
    expect((await get(key.key)).statusCode).toBe(200)
  })

  describe.skipIf(TEST_DB_KIND !== 'postgres')(
    'with the notification connections killed mid-test (PostgreSQL only: SQLite has none)',
    () => {
      /** Ends both instances' listening connections, as a failover or a reaper would. */
      const killWatches = async () => {
        const result = await sql<{ killed: number }>`
          SELECT count(pg_terminate_backend(pid))::int AS killed FROM pg_stat_activity
           WHERE application_name = ${watchApplicationName(a.testDb.schema!)}`.execute(raw.db)
        return result.rows[0]!.killed
      }
      const untilDown = async () => {
        const live = a.database.committed.live!
        const until = Date.now() + 5000
        while (live()) {
          if (Date.now() > until) throw new Error('the watch stayed live after its connection was killed')
          await new Promise((resolve) => setTimeout(resolve, 1))
        }
      }

      it('refuses a key revoked through the other instance on the next request, before and after the watch is back', async () => {
        await untilStateLive(a.database)
        const before = await cachedKey()
        expect(await killWatches()).toBe(2)
        await untilDown()
        await revokeThroughB(before)
        expect((await get(before.key.key)).statusCode).toBe(401)

        // The watches connect again by themselves and serve from memory again.
        await untilStateLive(a.database)
        await untilStateLive(b.database)
        const after = await cachedKey()
        await revokeThroughB(after)
        expect((await get(after.key.key)).statusCode).toBe(401)
      })

      it('applies a plan change made through the other instance to the next request, with the watch killed', async () => {
        await untilStateLive(a.database)
        const { user, key } = await cachedKey()
        await grantPro(user.organization_id)
        expect((await get(key.key)).headers['ratelimit-policy']).toBe(`"org";q=${QUOTA * 10};w=60`)
        expect(await killWatches()).toBe(2)
        await untilDown()
        const downgrade = await b.app.inject({
          method: 'PATCH',
          url: '/v1/org/billing',
          headers: { ...bearer(user.access_token), 'content-type': 'application/json' },
          payload: { plan: 'free' },
        })
        expect(downgrade.statusCode, downgrade.body).toBe(200)
        expect((await get(key.key)).headers['ratelimit-policy']).toBe(`"org";q=${QUOTA};w=60`)
      })

      it('reads every request while its watch is down, and none once it is back with nothing changed', async () => {
        const { key } = await cachedKey()
        await untilStateLive(a.database)
        const version = a.database.committed.commitVersion!
        const first = version()
        expect(version()).toBe(first)
        expect(await killWatches()).toBe(2)
        await untilDown()
        // Down: a new version at every call, so no request is answered from memory.
        const down = version()
        expect(version()).not.toBe(down)
        expect((await get(key.key)).statusCode).toBe(200)
        const lastDown = version()
        await untilStateLive(a.database)
        const back = version()
        expect(version()).toBe(back)
        // Nothing read while down is answered from memory once back: a change may have been
        // committed while nothing listened.
        expect(back).not.toBe(lastDown)
        // Back, a change is told again: a hand-written revocation moves the version.
        await raw.db.updateTable('api_keys').set({ revoked_at: 1 }).where('id', '=', key.api_key_id).execute()
        await settled()
        expect(version()).not.toBe(back)
        expect((await get(key.key)).statusCode).toBe(401)
      })

      it('forgets what it read while down: a change committed then, never notified to it, is seen once it is back', async () => {
        const { key } = await cachedKey()
        await untilStateLive(a.database)
        expect(await killWatches()).toBe(2)
        await untilDown()
        // Read while down, with no request after it: the last thing this instance remembers.
        expect((await get(key.key)).statusCode).toBe(200)
        // Committed before the watch connects again (it waits at least 50 ms): nobody tells A.
        await raw.db.updateTable('api_keys').set({ revoked_at: 1 }).where('id', '=', key.api_key_id).execute()
        expect(a.database.committed.live!()).toBe(false)
        await untilStateLive(a.database)
        expect((await get(key.key)).statusCode).toBe(401)
      })
    },
  )
})
