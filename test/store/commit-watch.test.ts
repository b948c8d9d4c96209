// PostgreSQL's commit watch (src/store/commit-watch.ts) on its own: what moves its version, what
// its lease needs, and how long a writer's settle waits for another replica.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HEARTBEAT_MS, LEASE_MS } from '../../src/store/commit-watch.ts'
import { createDatabase, type Database } from '../../src/store/db.ts'
import { LEDGER_STREAM } from '../../src/store/ledger-data.ts'
import { createTestDatabase, TEST_DB_KIND, type TestDatabase, untilStateLive } from '../support/database.ts'

describe.skipIf(TEST_DB_KIND !== 'postgres')('the commit watch (PostgreSQL)', () => {
  let store: TestDatabase
  let other: TestDatabase
  const opened: Database[] = []
  const open = (from = store) => {
    const database = from.open()
    opened.push(database)
    return database
  }
  beforeAll(async () => {
    store = await createTestDatabase()
    other = await createTestDatabase()
  })
  afterAll(async () => {
    for (const database of opened) await database.close()
    await store.drop()
    await other.drop()
  })

  it('keeps its version while nothing it watches changes, and moves it on a change of the generation or the checkpoint', async () => {
    const watched = open()
    const writer = open()
    const version = watched.committed.commitVersion!
    await untilStateLive(watched)
    const first = version()
    expect(version()).toBe(first)

    // Writes that change neither: the same version.
    await writer.db
      .insertInto('ledgers')
      .values({ sequence: 1, hash: 'ab'.repeat(32), close_time: 1 })
      .execute()
    await watched.committed.settle!()
    expect(version()).toBe(first)

    // The checkpoint.
    await writer.db
      .insertInto('indexer_state')
      .values({ name: LEDGER_STREAM, last_ledger: 1, first_ledger: 1, updated_at: 0 })
      .execute()
    await watched.committed.settle!()
    const second = version()
    expect(second).not.toBe(first)
    expect(version()).toBe(second)

    // The authentication generation.
    await writer.db.updateTable('auth_generation').set({ generation: 41 }).where('id', '=', 1).execute()
    await watched.committed.settle!()
    expect(version()).not.toBe(second)
  })

  it('hears only its own schema', async () => {
    const watched = open()
    await untilStateLive(watched)
    const version = watched.committed.commitVersion!
    const before = version()
    const elsewhere = open(other)
    await elsewhere.db
      .insertInto('indexer_state')
      .values({ name: LEDGER_STREAM, last_ledger: 7, first_ledger: 7, updated_at: 0 })
      .execute()
    // The other schema's change has reached this connection before the settle's echo.
    await watched.committed.settle!()
    expect(version()).toBe(before)
  })

  it('makes a writer wait out the lease of a replica that stopped answering, and no longer after it', async () => {
    const writer = open()
    const replica = open()
    await untilStateLive(writer)
    await untilStateLive(replica)
    // The writer has heard the replica's heartbeats for a lease, so it knows every replica.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + HEARTBEAT_MS))
    const quick = performance.now()
    await writer.committed.settle!()
    // Both answering: no lease to wait out.
    expect(performance.now() - quick).toBeLessThan(LEASE_MS - HEARTBEAT_MS - 100)

    // The replica goes silent (its process gone): its last heartbeat was at most one interval ago.
    const silentAt = performance.now()
    await replica.close()
    await writer.committed.settle!()
    const waited = performance.now() - silentAt
    // (Its lease ends LEASE_MS after its last heartbeat was sent, which a loaded host may delay.)
    expect(waited).toBeGreaterThanOrEqual(LEASE_MS / 4)
    // Its lease is over now: the next write waits for nobody.
    const after = performance.now()
    await writer.committed.settle!()
    expect(performance.now() - after).toBeLessThan(LEASE_MS - HEARTBEAT_MS - 100)
  })

  it('makes a writer with no live connection of its own wait out the lease', async () => {
    const cold = open()
    // Never asked for a version: nothing listens yet.
    const started = performance.now()
    await cold.committed.settle!()
    expect(performance.now() - started).toBeGreaterThanOrEqual(LEASE_MS - 5)
  })

  it('opens its pool as large as configured', async () => {
    const config = store.config
    if (config.kind !== 'postgres') throw new Error('PostgreSQL only')
    const database = createDatabase({ ...config, poolSize: 3 }, { schema: store.schema! })
    opened.push(database)
    expect(database.kind === 'postgres' && database.pool.options.max).toBe(3)
  })
})
