import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acquireIndexerLock } from '../../src/indexer/indexer-lock.ts'
import { type BatchWriter, createDatabase, type Database } from '../../src/store/db.ts'
import { connectPgAdmin, type PgAdmin } from '../faults/support/pg-admin.ts'
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from '../support/database.ts'

const logger = pino({ level: 'silent' })

/** The lock's writer, which on PostgreSQL gives a connection. */
function pooled(writer: BatchWriter): Extract<BatchWriter, { serial: false }> {
  if (writer.serial) throw new Error('expected the PostgreSQL writer')
  return writer
}

const INSERT_STATE = `INSERT INTO indexer_state (name, last_ledger, first_ledger, updated_at) VALUES ($1, 1, 1, 0)`

describe.runIf(TEST_DB_KIND === 'postgres')('the indexer lock fences its batches on PostgreSQL', () => {
  let testDb: TestDatabase
  let database: Database
  let other: Database
  let admin: PgAdmin
  beforeAll(async () => {
    testDb = await createTestDatabase()
    database = createDatabase(testDb.config, { schema: testDb.schema!, timeouts: { writeTimeoutMs: 1000 } })
    other = testDb.open()
    admin = await connectPgAdmin(testDb.schema!)
  })
  afterAll(async () => {
    await admin.close()
    await database.close()
    await other.close()
    await testDb.drop()
  })

  const rowExists = async (name: string) => {
    if (other.kind !== 'postgres') throw new Error('expected PostgreSQL')
    const result = await other.pool.query('SELECT 1 FROM indexer_state WHERE name = $1', [name])
    return result.rowCount === 1
  }

  it('writes its batches on the lock session: a batch in flight when the lock is lost does not commit', async () => {
    const lock = await acquireIndexerLock(database, logger)
    try {
      const holder = await admin.lockHolder()
      const writer = pooled(lock.writer)
      const write = writer.run(async (client) => {
        const session = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
        expect(session.rows[0]?.pid).toBe(holder)
        await client.query('BEGIN')
        await client.query(INSERT_STATE, ['in-flight'])
        await admin.terminate(holder!)
        await client.query('COMMIT')
      })
      await expect(write).rejects.toThrow()
      expect(lock.lost.aborted).toBe(true)
      expect(await rowExists('in-flight')).toBe(false)
      // Once lost, the writer refuses before touching the store.
      let called = false
      await expect(
        writer.run(async () => {
          called = true
        }),
      ).rejects.toThrow('lost the indexer lock')
      expect(called).toBe(false)
    } finally {
      await lock.release()
    }
  })

  it('gives up the lock when a batch outlasts the write bound, so a standby can take over', async () => {
    const lock = await acquireIndexerLock(database, logger)
    try {
      const started = Date.now()
      await expect(pooled(lock.writer).run((client) => client.query('SELECT pg_sleep(30)'))).rejects.toThrow()
      // Well under the statement's 30 s: the 1 s bound ended it.
      expect(Date.now() - started).toBeLessThan(15_000)
      expect(lock.lost.aborted).toBe(true)
      const standby = await acquireIndexerLock(other, logger, AbortSignal.timeout(15_000))
      await standby.release()
    } finally {
      await lock.release()
    }
  })
})
