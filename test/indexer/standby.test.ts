import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acquireIndexerLock } from '../../src/indexer/indexer-lock.ts'
import type { Database } from '../../src/store/db.ts'
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from '../support/database.ts'

const logger = pino({ level: 'silent' })

describe.runIf(TEST_DB_KIND === 'postgres')('indexer lock on PostgreSQL', () => {
  let testDb: TestDatabase
  let first: Database
  let second: Database
  beforeAll(async () => {
    testDb = await createTestDatabase()
    first = testDb.open()
    second = testDb.open()
  })
  afterAll(async () => {
    await first.close()
    await second.close()
    await testDb.drop()
  })

  it('makes a second indexer wait until the first releases, then take over at once', async () => {
    const held = await acquireIndexerLock(first, logger)
    let acquired = false
    const standby = acquireIndexerLock(second, logger).then((lock) => {
      acquired = true
      return lock
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(acquired).toBe(false)
    await held.release()
    const lock = await standby
    expect(acquired).toBe(true)
    await lock.release()
  })

  it('stops waiting when aborted', async () => {
    const held = await acquireIndexerLock(first, logger)
    const controller = new AbortController()
    const standby = acquireIndexerLock(second, logger, controller.signal)
    setTimeout(() => controller.abort(new Error('stop')), 100)
    await expect(standby).rejects.toThrow('stop')
    await held.release()
  })
})
