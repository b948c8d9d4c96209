import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createDatabase, type Database } from '../../src/store/db.ts'
import { getCheckpoint, type LedgerBatch, writeLedgerBatch } from '../../src/store/ledger-data.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { SqliteGate } from '../../src/store/sqlite-driver.ts'
import {
  classifyStoreError,
  createStoreFailureLog,
  isStoreUnavailable,
  type StoreErrorClass,
} from '../../src/store/store-errors.ts'
import { TEST_DB_KIND, TEST_POSTGRES_URL } from '../support/database.ts'

const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as typeof import('node:sqlite')

const dirs: string[] = []
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'strata-store-errors-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** The error `fn` throws (the test fails if it throws none). */
function thrown(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected an error')
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

/** A WAL database file with one table `t (v)`. */
function walFile(dir: string, name = 'x.db'): string {
  const path = join(dir, name)
  const db = new DatabaseSync(path)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('CREATE TABLE t (v TEXT)')
  db.close()
  return path
}

/** Caps the file at its current size: the next page it needs fails as a full disk does (SQLITE_FULL). */
function capAtCurrentSize(db: import('node:sqlite').DatabaseSync): void {
  const { page_count } = db.prepare('PRAGMA page_count').get() as { page_count: number }
  db.exec(`PRAGMA max_page_count = ${page_count}`)
}

describe.runIf(TEST_DB_KIND === 'sqlite')('classifying SQLite errors (provoked for real)', () => {
  const expectClass = (error: unknown, code: StoreErrorClass['code'], words: string, driver: string) => {
    const found = classifyStoreError(error)
    expect(found?.code).toBe(code)
    expect(found?.message).toBe(`${words} (SQLite: ${driver})`)
    expect(isStoreUnavailable(error)).toBe(true)
  }

  it('SQLITE_FULL (13) is disk_full', () => {
    const db = new DatabaseSync(walFile(scratch()))
    capAtCurrentSize(db)
    const error = thrown(() => db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(100_000)))
    expect((error as { errcode: number }).errcode).toBe(13)
    expectClass(error, 'disk_full', 'the database disk is full', 'database or disk is full')
    db.close()
  })

  it('SQLITE_READONLY (8) is store_read_only', () => {
    const path = walFile(scratch())
    const db = new DatabaseSync(path, { readOnly: true })
    const error = thrown(() => db.exec("INSERT INTO t VALUES ('a')"))
    expect((error as { errcode: number }).errcode).toBe(8)
    expectClass(error, 'store_read_only', 'the database is read-only', 'attempt to write a readonly database')
    db.close()
  })

  it('SQLITE_IOERR (10, here its extended code IOERR_READ) is store_io_error', () => {
    const dir = scratch()
    const path = join(dir, 'j.db')
    const db = new DatabaseSync(path)
    db.exec('CREATE TABLE t (v)')
    // The rollback journal's path taken by a directory: SQLite cannot write its journal.
    mkdirSync(`${path}-journal`)
    const error = thrown(() => db.exec('INSERT INTO t VALUES (1)'))
    expect((error as { errcode: number }).errcode & 0xff).toBe(10)
    expectClass(error, 'store_io_error', 'the database file could not be read or written', 'disk I/O error')
    db.close()
  })

  it('SQLITE_BUSY (5) is store_locked: another connection holds the write lock', () => {
    const path = walFile(scratch())
    const holder = new DatabaseSync(path)
    const db = new DatabaseSync(path, { timeout: 0 })
    holder.exec('BEGIN IMMEDIATE')
    const error = thrown(() => db.exec('BEGIN IMMEDIATE'))
    expect((error as { errcode: number }).errcode).toBe(5)
    expectClass(error, 'store_locked', 'the database is locked by another process', 'database is locked')
    holder.exec('ROLLBACK')
    holder.close()
    db.close()
  })

  it('SQLITE_LOCKED (6) is store_locked', () => {
    const db = new DatabaseSync(walFile(scratch()))
    db.exec("INSERT INTO t VALUES ('a'), ('b')")
    const reading = db.prepare('SELECT v FROM t').iterate()
    reading.next()
    const error = thrown(() => db.exec('DROP TABLE t'))
    expect((error as { errcode: number }).errcode).toBe(6)
    expectClass(error, 'store_locked', 'the database is locked', 'database table is locked')
    reading.return?.()
    db.close()
  })

  it('SQLITE_CANTOPEN (14) is store_cannot_open', () => {
    const error = thrown(() => new DatabaseSync(join(scratch(), 'missing', 'x.db')))
    expect((error as { errcode: number }).errcode).toBe(14)
    expectClass(
      error,
      'store_cannot_open',
      'the database file cannot be opened',
      'unable to open database file',
    )
  })

  it('SQLITE_CORRUPT (11) and SQLITE_NOTADB (26) are store_corrupt', () => {
    const dir = scratch()
    const path = join(dir, 'c.db')
    const db = new DatabaseSync(path)
    db.exec('CREATE TABLE t (v)')
    for (let i = 0; i < 200; i++) db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(500))
    db.close()
    const fd = openSync(path, 'r+')
    writeSync(fd, Buffer.alloc(4096, 0xff), 0, 4096, 4096 * 2)
    closeSync(fd)
    const damaged = new DatabaseSync(path)
    const corrupt = thrown(() => damaged.prepare('SELECT count(*), sum(length(v)) FROM t').get())
    expect((corrupt as { errcode: number }).errcode).toBe(11)
    expectClass(corrupt, 'store_corrupt', 'the database file is damaged', 'database disk image is malformed')
    damaged.close()

    const other = join(dir, 'text.db')
    writeFileSync(other, 'not a database at all '.repeat(100))
    const notadb = thrown(() => new DatabaseSync(other).exec('SELECT * FROM sqlite_master'))
    expect((notadb as { errcode: number }).errcode).toBe(26)
    expectClass(notadb, 'store_corrupt', 'the database file is not a database', 'file is not a database')
  })

  it('a wrong query is not a store failure', () => {
    const db = new DatabaseSync(':memory:')
    const error = thrown(() => db.exec('SELECT * FROM no_such_table'))
    expect(classifyStoreError(error)).toBeNull()
    expect(isStoreUnavailable(error)).toBe(false)
    db.close()
  })
})

describe.runIf(TEST_DB_KIND === 'postgres')('classifying PostgreSQL errors (provoked for real)', () => {
  it('a refused connection is store_unreachable, a read-only transaction store_read_only, a wrong query nothing', async () => {
    const refused = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:1/test' })
    const error = await rejection(refused.connect())
    expect(classifyStoreError(error)?.code).toBe('store_unreachable')
    expect(isStoreUnavailable(error)).toBe(true)

    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL })
    await client.connect()
    try {
      await client.query('BEGIN READ ONLY')
      const readOnly = await rejection(client.query('CREATE TEMP TABLE strata_read_only_probe (v int)'))
      expect((readOnly as { code: string }).code).toBe('25006')
      expect(classifyStoreError(readOnly)?.code).toBe('store_read_only')
      await client.query('ROLLBACK')
      const wrong = await rejection(client.query('SELECT * FROM no_such_table_anywhere'))
      expect(classifyStoreError(wrong)).toBeNull()
    } finally {
      await client.end()
    }
  })
})

/** A batch of one ledger whose snapshot is `size` characters: large enough to need new pages. */
function batchOf(size: number): LedgerBatch {
  return {
    previousLedger: null,
    previousHash: '00'.repeat(32),
    lastLedger: 100,
    ledgers: [{ sequence: 100, hash: 'ab'.repeat(32), close_time: 1_700_000_000 }],
    snapshots: [{ protocol: 'vaultprotocol', address: 'GA', ledger: 100, positions: 'x'.repeat(size) }],
    states: [],
    prices: [],
    updatedAt: 1,
  }
}

async function migratedSqlite(): Promise<Database & { kind: 'sqlite' }> {
  const database = createDatabase({ kind: 'sqlite', path: join(scratch(), 'strata.db') })
  await migrateToLatest(database)
  if (database.kind !== 'sqlite') throw new Error('expected SQLite')
  return database
}

describe.runIf(TEST_DB_KIND === 'sqlite')('a ROLLBACK never hides the real error (SQLite)', () => {
  it('a Kysely transaction that fills the disk throws SQLITE_FULL, not "no transaction is active"', async () => {
    const database = await migratedSqlite()
    try {
      capAtCurrentSize(database.raw)
      const error = await rejection(
        database.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('indexer_state')
            .values({ name: 'big', last_ledger: 1, first_ledger: 1, updated_at: 1 })
            .execute()
          await trx
            .insertInto('indexer_state')
            .values({ name: 'x'.repeat(200_000), last_ledger: 1, first_ledger: 1, updated_at: 1 })
            .execute()
        }),
      )
      expect(classifyStoreError(error)?.code).toBe('disk_full')
      expect((error as Error).message).not.toMatch(/rollback/)
      // Nothing of the transaction landed, and the connection is usable again.
      database.raw.exec('PRAGMA max_page_count = 1073741823')
      const rows = await database.db
        .selectFrom('indexer_state')
        .selectAll()
        .where('name', '=', 'big')
        .execute()
      expect(rows).toEqual([])
    } finally {
      await database.close()
    }
  })

  it('the batch writer throws SQLITE_FULL and leaves the checkpoint where it was', async () => {
    const database = await migratedSqlite()
    try {
      capAtCurrentSize(database.raw)
      const error = await rejection(writeLedgerBatch(database, batchOf(200_000)))
      expect((error as { errcode: number }).errcode).toBe(13)
      expect(classifyStoreError(error)?.code).toBe('disk_full')
      expect(database.raw.isTransaction).toBe(false)
      database.raw.exec('PRAGMA max_page_count = 1073741823')
      expect(await getCheckpoint(database)).toBeNull()
      await writeLedgerBatch(database, batchOf(10))
      expect(await getCheckpoint(database)).toBe(100)
    } finally {
      await database.close()
    }
  })

  it('a failure SQLite does not roll back itself is still rolled back, its own error thrown', async () => {
    const database = await migratedSqlite()
    try {
      const batch = batchOf(10)
      // The same ledger twice: the second insert breaks the primary key half-way through the batch.
      batch.ledgers.push({ ...batch.ledgers[0]! })
      const error = await rejection(writeLedgerBatch(database, batch))
      expect((error as Error).message).toMatch(/UNIQUE constraint failed: ledgers\.sequence/)
      expect(classifyStoreError(error)).toBeNull()
      expect(database.raw.isTransaction).toBe(false)
      const ledgers = await database.db.selectFrom('ledgers').selectAll().execute()
      expect(ledgers).toEqual([])
    } finally {
      await database.close()
    }
  })
})

describe.runIf(TEST_DB_KIND === 'sqlite')(
  'a write waiting for another process lets reads through (SQLite)',
  () => {
    it('reads on the connection are answered while a write waits; the write lands once the lock is gone', async () => {
      const database = await migratedSqlite()
      const holder = new DatabaseSync(database.path)
      try {
        holder.exec('BEGIN IMMEDIATE')
        const order: string[] = []
        const write = database.db
          .transaction()
          .execute((trx) =>
            trx
              .insertInto('indexer_state')
              .values({ name: 'w', last_ledger: 7, first_ledger: 7, updated_at: 1 })
              .execute(),
          )
          .then(() => order.push('write'))
        // Reads queued behind the waiting write, on the same connection, are answered first.
        const rows = await database.db.selectFrom('indexer_state').selectAll().execute()
        order.push('read')
        expect(rows).toEqual([])
        expect(await getCheckpoint(database)).toBeNull()
        order.push('read')
        holder.exec('COMMIT')
        await write
        expect(order).toEqual(['read', 'read', 'write'])
        const written = await database.db
          .selectFrom('indexer_state')
          .select('last_ledger')
          .where('name', '=', 'w')
          .execute()
        expect(written).toEqual([{ last_ledger: 7 }])
      } finally {
        if (holder.isTransaction) holder.exec('ROLLBACK')
        holder.close()
        await database.close()
      }
    })

    it('past its bound the write fails with SQLite\'s own "database is locked", classified store_locked', async () => {
      const path = walFile(scratch())
      const holder = new DatabaseSync(path)
      const gate = new SqliteGate(new DatabaseSync(path, { timeout: 0 }), 200)
      try {
        holder.exec('BEGIN IMMEDIATE')
        const error = await rejection(gate.transaction((db) => db.exec("INSERT INTO t VALUES ('late')")))
        expect(classifyStoreError(error)?.code).toBe('store_locked')
        expect(gate.db.isTransaction).toBe(false)
        holder.exec('ROLLBACK')
        await gate.transaction((db) => db.exec("INSERT INTO t VALUES ('now')"))
        expect(gate.db.prepare('SELECT v FROM t').all()).toEqual([{ v: 'now' }])
      } finally {
        if (holder.isTransaction) holder.exec('ROLLBACK')
        holder.close()
        gate.db.close()
      }
    })
  },
)

describe('logging repeated store failures', () => {
  it('logs the first in full, then one line per interval with the count of repeats not logged', () => {
    let now = 0
    const lines: Array<{ level: string; object: Record<string, unknown>; message: string }> = []
    const logger = {
      error: (object: object, message: string) =>
        lines.push({ level: 'error', object: object as never, message }),
      warn: (object: object, message: string) =>
        lines.push({ level: 'warn', object: object as never, message }),
    }
    const log = createStoreFailureLog(10_000, () => now)
    const full: StoreErrorClass = {
      code: 'disk_full',
      message: 'the database disk is full (SQLite: x)',
      write: true,
    }
    const error = new Error('database or disk is full')
    for (let i = 0; i < 5; i++) {
      log(logger, full, error, 'database unavailable')
      now += 1000
    }
    now = 10_000
    log(logger, full, error, 'database unavailable')
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['error', 'database unavailable'],
      ['error', 'database unavailable (again)'],
    ])
    expect(lines[0]!.object.err).toBe(error)
    expect(lines[1]!.object).toEqual({ code: 'disk_full', cause: full.message, repeats_not_logged: 4 })
  })
})
