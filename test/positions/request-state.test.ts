import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/api/app.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { PROTOCOLS } from '../../src/protocols/registry.ts'
import type { Database, PreparedQuery } from '../../src/store/db.ts'
import { LEDGER_STREAM } from '../../src/store/ledger-data.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { sameTime } from '../support/bodies.ts'
import { TEST_DB_KIND, untilStateLive } from '../support/database.ts'
import { apiKey, createKey } from '../support/factories.ts'

const START = 9000
const DEVNET = {
  seed: 'request-state',
  ledgers: 400,
  accounts: 24,
  activity: 0.04,
  ammActivity: 0.05,
  yieldActivity: 0.05,
  startLedger: START,
}
const HEAD = START + 300
const NAMES = PROTOCOLS.map((m) => m.name)

/**
 * A data request begins with one statement: the key's authentication generation, the indexer
 * checkpoint and the serving snapshots the route will answer from (src/store/request-state.ts).
 */
describe(`the request's one statement (${TEST_DB_KIND})`, () => {
  let devnet: Devnet
  let t: TestApp
  /** The same store behind a context whose statements are counted. */
  let countedCtx: AppContext
  let counted: App
  let statements = 0
  /** Statements that seek serving snapshots. */
  let seeks = 0
  let indexer: ReturnType<typeof createIndexer>
  let key: string
  let keyId: string

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' })
    indexer = createIndexer({
      database: t.database,
      logger: createLogger('silent'),
      rpcUrl: devnet.url,
      network: devnet.network,
      batchSize: 50,
    })
    await indexer.syncTo(HEAD)
    const count = (query: PreparedQuery, sql: string): PreparedQuery => {
      const seeking = sql.includes('FROM snapshots')
      return {
        one: (params) => {
          statements += 1
          if (seeking) seeks += 1
          return query.one(params)
        },
        all: (params) => {
          statements += 1
          if (seeking) seeks += 1
          return query.all(params)
        },
      }
    }
    // Every statement counted, on the store's connection and on its committed reads.
    const database = {
      ...t.database,
      prepare: (sql: string, name: string) => count(t.database.prepare(sql, name), sql),
      committed: {
        ...t.database.committed,
        prepare: (sql: string, name: string) => count(t.database.committed.prepare(sql, name), sql),
      },
    } as Database
    countedCtx = await createContext(t.ctx.config, createLogger('silent'), { clock: t.clock, database })
    counted = await buildApp(countedCtx)
    const created = await createKey(t.app)
    key = created.key
    keyId = created.api_key_id
  }, 240_000)

  afterAll(async () => {
    await counted?.close()
    await countedCtx?.close()
    await t?.close()
    await devnet?.close()
  })

  /** An address with a vault snapshot. */
  const vaultAddress = async (): Promise<string> =>
    (
      await t.database.db
        .selectFrom('snapshots')
        .select('address')
        .where('protocol', '=', 'vaultprotocol')
        .executeTakeFirstOrThrow()
    ).address

  /** The serving snapshot's ledger, found by the query builder: the latest at or before `at`. */
  const servingLedger = async (protocol: string, address: string, at: number): Promise<number | null> => {
    const row = await t.database.db
      .selectFrom('snapshots')
      .select('ledger')
      .where('protocol', '=', protocol)
      .where('address', '=', address)
      .where('ledger', '<=', at)
      .orderBy('ledger', 'desc')
      .executeTakeFirst()
    return row ? Number(row.ledger) : null
  }

  it('finds each protocol’s serving snapshot at the pin, capped at the checkpoint', async () => {
    const addresses = (
      await t.database.db.selectFrom('snapshots').select('address').distinct().execute()
    ).map((r) => r.address)
    expect(addresses.length).toBeGreaterThan(10)
    const plain = await t.ctx.caches.requestViews()
    expect(plain.seek).toBeNull()
    expect(plain.head.lastIndexedLedger).toBe(HEAD)
    let found = 0
    for (const address of addresses) {
      for (const pin of [null, START - 1, START + 50, START + 150, HEAD - 1, HEAD, HEAD + 1000]) {
        const state = await t.ctx.caches.requestViews({ protocols: NAMES, address, pin })
        const at = pin === null ? HEAD : Math.min(pin, HEAD)
        expect(state.generation).toBe(plain.generation)
        expect(state.head).toEqual(plain.head)
        expect(state.seek?.atLedger).toBe(at)
        const expected = await Promise.all(NAMES.map((name) => servingLedger(name, address, at)))
        expect(state.seek?.ledgers, `${address} at ${pin}`).toEqual(expected)
        found += expected.filter((l) => l !== null).length
      }
    }
    // Snapshots were found in every protocol, not only absences.
    expect(found).toBeGreaterThan(addresses.length)
  })

  it('answers a kept positions answer with that one statement, and the same body as two statements', async () => {
    const address = await vaultAddress()
    // Nothing is committed during this test: the last-used times of its requests stay in memory.
    await countedCtx.keyUsage.close()
    // The store tells that nothing a state read has changed since (SQLite's commit probe,
    // PostgreSQL's commit watch once its lease holds), so a request that asks for a state read
    // before (same seek) reads no statement for it.
    await untilStateLive(t.database)
    const get = (url: string) => counted.inject({ method: 'GET', url, headers: apiKey(key) })
    for (const url of [
      `/v1/users/${address}/positions/vaultprotocol?as_of_ledger=${START + 200}`,
      `/v1/users/${address}/positions/vaultprotocol`,
      `/v1/users/${address}/positions?as_of_ledger=${START + 200}`,
    ]) {
      const first = await get(url)
      expect(first.statusCode, first.body).toBe(200)
      statements = 0
      const kept = await get(url)
      expect(kept.statusCode).toBe(200)
      expect(statements, url).toBe(0)
      expect(sameTime(kept.body)).toBe(sameTime(first.body))
      // A pin the seek does not take (written with leading zeros past 15 digits) goes the way of
      // three statements (the state without a seek, the serving snapshots, and the close time of
      // the pinned ledger that the staleness is measured from, which the seek otherwise reads),
      // to the same answer; on SQLite the first of them is remembered too.
      const padded = url.replace(`as_of_ledger=${START + 200}`, `as_of_ledger=0000000000000${START + 200}`)
      if (padded !== url) {
        statements = 0
        const other = await get(padded)
        expect(statements).toBe(2)
        expect(sameTime(other.body)).toBe(sameTime(kept.body))
      }
    }
  })

  it('reads the state again after a commit by any connection, and never one still open', async () => {
    const address = await vaultAddress()
    const url = `/v1/users/${address}/positions/vaultprotocol?as_of_ledger=${START + 100}`
    const get = () => counted.inject({ method: 'GET', url, headers: apiKey(key) })
    await untilStateLive(t.database)
    const other = t.testDb.open()
    try {
      expect((await get()).statusCode).toBe(200)
      statements = 0
      expect((await get()).statusCode).toBe(200)
      expect(statements).toBe(0)

      // A commit that changes nothing authentication or the answer reads, through another
      // connection: SQLite's probe sees a commit, and the next request reads its state again;
      // PostgreSQL's watch is told only of the generation and the checkpoint, and reads nothing.
      await other.db.updateTable('api_keys').set({ last_used_at: 1 }).where('id', '=', keyId).execute()
      await t.database.committed.settle?.()
      statements = 0
      expect((await get()).statusCode).toBe(200)
      expect(statements).toBe(TEST_DB_KIND === 'sqlite' ? 1 : 0)

      // A revocation inside a transaction of this process that is still open is not seen by a
      // request (its state and key come from committed data), and once rolled back never is. The
      // commit before it makes that request read its state again, inside the transaction.
      await other.db.updateTable('api_keys').set({ last_used_at: 2 }).where('id', '=', keyId).execute()
      const rolledBack = new Error('rolled back on purpose')
      const during: number[] = []
      await expect(
        t.database.db.transaction().execute(async (trx) => {
          await trx.updateTable('api_keys').set({ revoked_at: 1 }).where('id', '=', keyId).execute()
          during.push((await get()).statusCode)
          throw rolledBack
        }),
      ).rejects.toBe(rolledBack)
      expect(during).toEqual([200])
      expect((await get()).statusCode).toBe(200)

      // Committed, the same revocation is refused on the next request (on PostgreSQL once the
      // writer settled, as the API does before it answers a write).
      await t.database.db.updateTable('api_keys').set({ revoked_at: 1 }).where('id', '=', keyId).execute()
      await t.database.committed.settle?.()
      const refused = await get()
      expect(refused.statusCode).toBe(401)
      expect(refused.json().error.message).toBe('the API key has been revoked')
    } finally {
      await other.close()
    }
  })

  it('keeps a seek across commits only while its answer cannot change, as the checkpoint moves on', async () => {
    const addresses = (
      await t.database.db.selectFrom('snapshots').select('address').distinct().orderBy('address').execute()
    )
      .map((r) => r.address)
      .slice(0, 8)
    await untilStateLive(t.database)
    // The first request after a commit reads its seek whatever it asks, so it asks without a pin.
    const pins = [null, START - 1, START + 50, START + 150, HEAD - 1, HEAD, HEAD + 20, HEAD + 1000]
    const check = async (head: number) => {
      for (const address of addresses) {
        for (const pin of pins) {
          const state = await countedCtx.caches.requestViews({ protocols: NAMES, address, pin })
          const at = pin === null ? head : Math.min(pin, head)
          expect(state.head.lastIndexedLedger).toBe(head)
          expect(state.seek?.atLedger).toBe(at)
          const expected = await Promise.all(NAMES.map((name) => servingLedger(name, address, at)))
          expect(state.seek?.ledgers, `${address} at ${pin}, head ${head}`).toEqual(expected)
        }
      }
    }
    await check(HEAD)
    seeks = 0
    await check(HEAD)
    expect(seeks).toBe(0)
    let previous = HEAD
    for (const head of [HEAD + 20, HEAD + 60]) {
      await indexer.syncTo(head)
      // The checkpoint's notification reached this process's watch (SQLite: at once).
      await t.database.committed.settle?.()
      seeks = 0
      await check(head)
      // Only the answers whose effective ledger moved with the checkpoint are sought again.
      const moved = pins.filter((pin) => pin === null || pin > previous).length
      expect(seeks).toBe(addresses.length * moved)
      previous = head
    }
    // A checkpoint that went back (a store wiped and re-indexing): no seek found before is trusted.
    const other = t.testDb.open()
    try {
      await other.db
        .updateTable('indexer_state')
        .set({ last_ledger: HEAD - 10 })
        .where('name', '=', LEDGER_STREAM)
        .execute()
    } finally {
      await other.close()
    }
    await t.database.committed.settle?.()
    seeks = 0
    await check(HEAD - 10)
    expect(seeks).toBe(addresses.length * pins.length)
  })
})
