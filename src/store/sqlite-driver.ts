import { createRequire } from 'node:module'
import type { DatabaseSync as DatabaseSyncType, SQLInputValue } from 'node:sqlite'
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'
import { isSqliteBusy } from './store-errors.ts'

/**
 * How long a write waits for another process's write lock (a `sqlite3` shell, a backup, a second
 * `strata` command) before it fails with SQLite's own "database is locked": the API answers it
 * `503 unavailable`, the key-usage flush keeps its times, the indexer retries its batch.
 */
export const SQLITE_WRITE_WAIT_MS = 5000

/**
 * Node's built-in SQLite (node:sqlite). The runtime's own SQLite needs no native build step on a
 * fresh machine. Its busy handler is off (`timeout: 0`): node:sqlite's busy wait sleeps on the
 * thread that runs the event loop, so a lock held by another process would stop every request.
 * A write waits for the lock asynchronously instead (SqliteGate); a read in WAL mode never waits.
 */
export function openSqlite(path: string): DatabaseSync {
  const db = new (loadSqlite().DatabaseSync)(path, { timeout: 0 })
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('PRAGMA foreign_keys = ON')
  return db
}

export type DatabaseSync = DatabaseSyncType

// Loaded through require: some ESM loaders (the test runner's) reject `node:sqlite` as a static
// import because it exists only under the `node:` scheme.
function loadSqlite(): typeof import('node:sqlite') {
  return createRequire(import.meta.url)('node:sqlite') as typeof import('node:sqlite')
}

function toSqliteParam(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value instanceof Date) return value.getTime()
  return value as SQLInputValue
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * The one connection of the process that writes, shared by Kysely (the API, the commands, the
 * key-usage flush) and the indexer's batch writer. `lock`/`unlock` hand it to one user at a time;
 * a user waiting for another process's write lock gives it back between attempts, so the reads
 * queued behind it are answered meanwhile.
 */
export class SqliteGate {
  readonly db: DatabaseSync
  readonly writeWaitMs: number
  #held: Promise<void> | null = null
  #release: (() => void) | null = null

  constructor(db: DatabaseSync, writeWaitMs = SQLITE_WRITE_WAIT_MS) {
    this.db = db
    this.writeWaitMs = writeWaitMs
  }

  async lock(): Promise<void> {
    while (this.#held) await this.#held
    this.#held = new Promise((resolve) => {
      this.#release = resolve
    })
  }

  unlock(): void {
    const release = this.#release
    this.#held = null
    this.#release = null
    release?.()
  }

  /**
   * Runs `attempt` (the caller holds the connection, outside a transaction) again while it fails
   * with SQLITE_BUSY, backing off up to `writeWaitMs`; between attempts the connection is lent to
   * whoever waits for it. After the bound, SQLite's own error is thrown.
   */
  async retryBusy<T>(attempt: () => T): Promise<T> {
    const started = performance.now()
    for (let delay = 5; ; delay = Math.min(delay * 2, 250)) {
      try {
        return attempt()
      } catch (error) {
        const left = this.writeWaitMs - (performance.now() - started)
        if (!isSqliteBusy(error) || this.db.isTransaction || left <= 0) throw error
        delay = Math.min(delay, left)
      }
      this.unlock()
      try {
        await sleep(delay)
      } finally {
        await this.lock()
      }
    }
  }

  /** Begins a write transaction, taking the write lock up front: its statements never half-run. */
  begin(): Promise<void> {
    return this.retryBusy(() => this.db.exec('BEGIN IMMEDIATE'))
  }

  /**
   * Ends a failed transaction if SQLite has not already: on SQLITE_FULL or SQLITE_IOERR it rolled
   * back by itself, and an explicit ROLLBACK would throw "no transaction is active" in place of
   * the real error. A ROLLBACK that fails is not rethrown either: the caller's error is the news.
   */
  rollback(): void {
    if (!this.db.isTransaction) return
    try {
      this.db.exec('ROLLBACK')
    } catch {
      // The real error is the caller's; it is thrown by the caller.
    }
  }

  /** Runs `fn` holding the connection (after any transaction in flight). */
  async exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    await this.lock()
    try {
      return await fn()
    } finally {
      this.unlock()
    }
  }

  /** Runs `fn` synchronously in one write transaction: all of it commits, or none of it. */
  transaction<T>(fn: (db: DatabaseSync) => T): Promise<T> {
    return this.exclusive(async () => {
      await this.begin()
      try {
        const result = fn(this.db)
        this.db.exec('COMMIT')
        return result
      } catch (error) {
        this.rollback()
        throw error
      }
    })
  }
}

/**
 * Kysely's SQLite dialect over a SqliteGate: the gate, not Kysely's own mutex, serializes the
 * connection, so a transaction waiting for another process's write lock (BEGIN IMMEDIATE, retried
 * asynchronously) and a single write statement waiting for it both let reads through meanwhile.
 */
export function gatedSqliteDialect(gate: SqliteGate): Dialect {
  return {
    createAdapter: () => new GatedSqliteAdapter(),
    createDriver: () => new GatedSqliteDriver(gate),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  }
}

class GatedSqliteAdapter extends SqliteAdapter {
  // The driver hands its one connection out under the gate: Kysely's own mutex would hold it
  // while a write waits, and keep every read behind it.
  override get supportsMultipleConnections(): boolean {
    return true
  }
}

class GatedSqliteDriver implements Driver {
  readonly #gate: SqliteGate
  readonly #connection: GatedSqliteConnection

  constructor(gate: SqliteGate) {
    this.#gate = gate
    this.#connection = new GatedSqliteConnection(gate)
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#gate.lock()
    return this.#connection
  }

  async releaseConnection(): Promise<void> {
    this.#gate.unlock()
  }

  beginTransaction(): Promise<void> {
    return this.#gate.begin()
  }

  async commitTransaction(): Promise<void> {
    this.#gate.db.exec('COMMIT')
  }

  async rollbackTransaction(): Promise<void> {
    this.#gate.rollback()
  }

  async destroy(): Promise<void> {
    if (this.#gate.db.isOpen) this.#gate.db.close()
  }
}

class GatedSqliteConnection implements DatabaseConnection {
  readonly #gate: SqliteGate

  constructor(gate: SqliteGate) {
    this.#gate = gate
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.#gate.db.prepare(compiled.sql)
    const params = compiled.parameters.map(toSqliteParam)
    if (stmt.columns().length > 0) {
      return this.#gate.retryBusy(() => ({ rows: stmt.all(...params) as R[] }))
    }
    return this.#gate.retryBusy(() => {
      const { changes, lastInsertRowid } = stmt.run(...params)
      return { insertId: BigInt(lastInsertRowid), numAffectedRows: BigInt(changes), rows: [] }
    })
  }

  // biome-ignore lint/correctness/useYield: nothing in the project streams; Kysely requires the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on SQLite here')
  }
}
