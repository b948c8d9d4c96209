import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.ts'
import {
  createDatabase,
  type Database,
  DEFAULT_DATABASE_TIMEOUTS,
  isStoreUnavailable,
  postgresPoolSettings,
} from '../../src/store/db.ts'
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from '../support/database.ts'

describe('the PostgreSQL wait policy', () => {
  it('bounds connecting, the client and server sides of a statement, idle transactions, dead peers', () => {
    expect(postgresPoolSettings(1234)).toEqual({
      connectionTimeoutMillis: 1234,
      query_timeout: 1234,
      statement_timeout: 1234,
      idle_in_transaction_session_timeout: 1234,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    })
  })

  it('takes its bounds from STRATA_DB_TIMEOUT_MS and STRATA_DB_WRITE_TIMEOUT_MS, with defaults', () => {
    const url = 'postgres://user@db.example:5432/strata'
    const given = loadConfig({
      DATABASE_URL: url,
      STRATA_DB_TIMEOUT_MS: '750',
      STRATA_DB_WRITE_TIMEOUT_MS: '90000',
    })
    expect(given.database).toEqual({
      kind: 'postgres',
      url,
      timeouts: { timeoutMs: 750, writeTimeoutMs: 90_000 },
      poolSize: 10,
    })
    const defaults = loadConfig({ DATABASE_URL: url })
    expect(defaults.database).toEqual({
      kind: 'postgres',
      url,
      timeouts: { timeoutMs: 5000, writeTimeoutMs: 300_000 },
      poolSize: 10,
    })
    expect(DEFAULT_DATABASE_TIMEOUTS).toEqual({ timeoutMs: 5000, writeTimeoutMs: 300_000 })
    expect(() => loadConfig({ DATABASE_URL: url, STRATA_DB_TIMEOUT_MS: '0' })).toThrow('STRATA_DB_TIMEOUT_MS')
  })

  it('counts every timeout of the driver or the server as the store unavailable', () => {
    // statement_timeout, idle_in_transaction_session_timeout: the server's codes.
    expect(
      isStoreUnavailable(
        Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      ),
    ).toBe(true)
    expect(
      isStoreUnavailable(
        Object.assign(new Error('terminating connection due to idle-in-transaction timeout'), {
          code: '25P03',
        }),
      ),
    ).toBe(true)
    // query_timeout, connectionTimeoutMillis (pool and client): pg's own messages.
    expect(isStoreUnavailable(new Error('Query read timeout'))).toBe(true)
    expect(isStoreUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true)
    expect(isStoreUnavailable(new Error('Connection terminated due to connection timeout'))).toBe(true)
    expect(
      isStoreUnavailable(new Error('Client has encountered a connection error and is not queryable')),
    ).toBe(true)
    // A wrong query is not an outage.
    expect(
      isStoreUnavailable(Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' })),
    ).toBe(false)
  })
})

describe.runIf(TEST_DB_KIND === 'postgres')('the PostgreSQL wait policy, against the server', () => {
  let testDb: TestDatabase
  let database: Database
  beforeAll(async () => {
    testDb = await createTestDatabase()
    database = createDatabase(testDb.config, { schema: testDb.schema!, timeouts: { timeoutMs: 300 } })
  })
  afterAll(async () => {
    await database.close()
    await testDb.drop()
  })

  it('ends a statement that outlasts the bound with an error classified unavailable', async () => {
    if (database.kind !== 'postgres') throw new Error('expected PostgreSQL')
    const error = await database.pool.query('SELECT pg_sleep(5)').then(
      () => null,
      (caught: unknown) => caught,
    )
    expect(error).not.toBeNull()
    expect(isStoreUnavailable(error)).toBe(true)
    // The pool is still usable afterwards.
    expect((await database.pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1)
  })

  it('gives migrations the longer write bound', async () => {
    const result = await sql<{ statement_timeout: string }>`SHOW statement_timeout`.execute(
      database.migrationDb,
    )
    expect(result.rows[0]?.statement_timeout).toBe('5min')
    const api = await sql<{ statement_timeout: string }>`SHOW statement_timeout`.execute(database.db)
    expect(api.rows[0]?.statement_timeout).toBe('300ms')
  })
})
