import type { StatementSync } from 'node:sqlite'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Awaitable } from '../awaitable.ts'
import type { DatabaseConfig, DatabaseTimeouts } from '../config.ts'
import { createCommitProbe } from './commit-probe.ts'
import { createCommitWatch, type WatchOutage } from './commit-watch.ts'
import { CurrentSchemaPostgresDialect } from './pg-introspector.ts'
import type { Schema } from './schema.ts'
import { type DatabaseSync, gatedSqliteDialect, openSqlite, SqliteGate } from './sqlite-driver.ts'
import { isStoreUnavailable, StoreStartError } from './store-errors.ts'

export { isStoreUnavailable } from './store-errors.ts'

// int8 columns (ledger sequences, epoch milliseconds) fit in a JS number; parse them as numbers.
pg.types.setTypeParser(20, (value: string) => Number(value))

/**
 * A statement prepared once, for hot paths where the query builder's per-call cost shows. SQL is
 * written with PostgreSQL's `$n` placeholders (on SQLite they become `?n`: the n-th parameter, so
 * one may be used more than once, in any order).
 */
export interface PreparedQuery {
  one<T>(params: ReadonlyArray<unknown>): Awaitable<T | null>
  all<T>(params: ReadonlyArray<unknown>): Awaitable<T[]>
}

/**
 * Statements that see committed data only, for the state every API-key request begins with
 * (src/store/request-state.ts), and whether anything has been committed since an earlier read.
 * - SQLite: a second connection of the process, that never writes (the first one's open
 *   transactions are invisible to it), and a CommitProbe on the WAL index: `commitVersion()`
 *   returns the same number twice only if no connection of any process committed in between.
 * - PostgreSQL: the pool (a statement outside a transaction reads committed data), and a
 *   CommitWatch (src/store/commit-watch.ts): `commitVersion()` returns the same number twice only
 *   while its notification connection's lease holds and no change to the authentication
 *   generation or the checkpoint was notified in between. It covers those two rows, not every
 *   commit: what is remembered across other commits is what request-state.ts keeps across them.
 */
export interface CommittedReads {
  prepare(sql: string, name: string): PreparedQuery
  commitVersion: (() => number) | null
  /**
   * Waits, after a commit of this process that changes authentication, until every replica
   * answering from memory has received it (PostgreSQL: CommitWatch.settle). Null where a commit is
   * seen by every reader once it returns (SQLite's probe).
   */
  settle: (() => Promise<void>) | null
  /** Whether requests are answered from memory now; null where that needs no start (SQLite's probe). */
  live: (() => boolean) | null
  /** Since when, and why, requests have not been answered from memory (CommitWatch.outage); null on SQLite. */
  outage: (() => WatchOutage | null) | null
  /** Starts telling of commits now, rather than at the first request state (a serving process). */
  listen: (() => void) | null
}

/**
 * How the indexer's write transaction gets the store, one of two forms:
 * - `serial` (SQLite: one connection shared with the API in the process): `run(fn)` waits for any
 *   transaction in flight on that connection and for the write lock (BEGIN IMMEDIATE, retried
 *   without blocking the event loop while another process holds it), then runs `fn` synchronously
 *   and commits, with nothing else on the connection meanwhile: never "a transaction within a
 *   transaction", and no API read sees a half-written batch. On a failure the transaction is rolled
 *   back (unless SQLite already did) and `fn`'s or the COMMIT's own error is thrown.
 * - `pooled` (PostgreSQL): `run(fn)` gives `fn` a client of its own for its transaction.
 */
export type BatchWriter =
  | { serial: true; run<T>(fn: (raw: DatabaseSync) => T): Promise<T> }
  | { serial: false; run<T>(fn: (client: pg.ClientBase) => Promise<T>): Promise<T> }

/** Held while this process is the one indexer writing to the store. */
export interface WriterLock {
  /** Aborted if the lock's connection is lost: another indexer may then take over. */
  lost: AbortSignal
  /**
   * The holder's batch writes: on PostgreSQL they run on the lock's own connection, so none can
   * commit once the lock is lost (see acquireAdvisoryLock); on SQLite, the store's writer.
   */
  writer: BatchWriter
  release(): Promise<void>
}

/**
 * The store, chosen once from the configuration; modules use its capabilities and never ask which
 * engine it is (`kind` says so for messages and tests).
 * - `db`: Kysely for everything that is not a hot path. On SQLite it owns the one connection and its
 *   transactions hold it from BEGIN to COMMIT; on PostgreSQL it draws from the pool.
 * - `prepare(sql, name)`: a prepared statement (a `StatementSync` in process, a named query planned
 *   once per pooled connection).
 * - `inProcess`: a statement is a function call (SQLite), so one indexed seek per key is the cheapest
 *   lookup; otherwise (PostgreSQL) every statement is a round trip, and keys travel together.
 * - `writer`: the one write path of the indexer's batches (see BatchWriter).
 * - `acquireWriterLock()`: how a second indexer is kept out: a session advisory lock on PostgreSQL
 *   (a standby waits on it), nothing on SQLite (embedded in one process; the checkpoint check in the
 *   writer still refuses a second writer).
 * - `migrationSchema`: where Kysely keeps its migration tables (the isolating PostgreSQL schema).
 * - `committed`: reads of committed data only, with a commit probe on SQLite (see CommittedReads).
 */
export interface DatabaseCapabilities {
  db: Kysely<Schema>
  inProcess: boolean
  prepare(sql: string, name: string): PreparedQuery
  writer: BatchWriter
  acquireWriterLock(signal?: AbortSignal, onWait?: () => void): Promise<WriterLock>
  migrationSchema: string | undefined
  /** What migrations run on: the store's own Kysely, or one with the longer write bound (PostgreSQL). */
  migrationDb: Kysely<Schema>
  committed: CommittedReads
  close: () => Promise<void>
}

export type Database = DatabaseCapabilities &
  (
    | {
        kind: 'sqlite'
        raw: DatabaseSync
        /** The database file, for messages. */
        path: string
        /** Runs `fn` holding the one connection (waits for a Kysely transaction in flight). */
        exclusive<T>(fn: () => T): Promise<T>
      }
    | { kind: 'postgres'; pool: pg.Pool; schema: string | null }
  )

export interface CreateDatabaseOptions {
  /** PostgreSQL schema to use as search_path (tests isolate themselves with one). */
  schema?: string
  poolSize?: number
  /**
   * PostgreSQL's bounds on every wait (see `postgresPoolSettings`), over the configuration's; a
   * process that only indexes (`strata index`) gives its whole pool the write bound.
   */
  timeouts?: Partial<DatabaseTimeouts>
}

/** The bounds PostgreSQL waits get when the configuration names none (config-env.ts's defaults). */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { timeoutMs: 5000, writeTimeoutMs: 300_000 }

/** TCP keepalive probes start after this much silence, so a connection to a vanished host ends. */
const KEEPALIVE_INITIAL_DELAY_MS = 10_000

/**
 * The one policy for waiting on PostgreSQL, as pg.Pool (and pg.Client) options. Every wait is
 * bounded by `timeoutMs`, so a database that hangs instead of refusing (a partition) ends in an
 * error the API answers `503 unavailable` (isStoreUnavailable), never in a request that waits as
 * long as the outage lasts:
 * - `connectionTimeoutMillis`: connecting, and waiting for a pooled connection;
 * - `query_timeout`: a statement's answer, measured by the client: bounds a silent network;
 * - `statement_timeout`: the same bound kept by the server, which cancels the statement;
 * - `idle_in_transaction_session_timeout`: a transaction its client stopped driving ends, and its
 *   locks with it;
 * - TCP keepalive: a connection whose peer vanished is found dead.
 */
export function postgresPoolSettings(timeoutMs: number): pg.PoolConfig {
  return {
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    statement_timeout: timeoutMs,
    idle_in_transaction_session_timeout: timeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
  }
}

export function createDatabase(config: DatabaseConfig, options: CreateDatabaseOptions = {}): Database {
  if (config.kind === 'sqlite') return createSqlite(config.path)
  const timeouts = { ...DEFAULT_DATABASE_TIMEOUTS, ...config.timeouts, ...options.timeouts }
  return createPostgres(config.url, { ...options, poolSize: options.poolSize ?? config.poolSize }, timeouts)
}

/** A statement of `connection`, prepared at its first use; `$n` placeholders as PreparedQuery says. */
function prepareSqlite(connection: () => DatabaseSync, sql: string): PreparedQuery {
  let statement: StatementSync | null = null
  const get = () => {
    // `$n` becomes SQLite's `?n`: the n-th parameter, wherever and however often it appears.
    statement ??= connection().prepare(sql.replace(/\$(\d+)/g, '?$1'))
    return statement
  }
  return {
    // Answered in this turn: a SQLite statement is a function call, and its result needs no promise.
    one: <T>(params: ReadonlyArray<unknown>) => (get().get(...(params as never[])) as T | undefined) ?? null,
    all: <T>(params: ReadonlyArray<unknown>) => get().all(...(params as never[])) as T[],
  }
}

function createSqlite(path: string): Database {
  let raw: DatabaseSync
  try {
    raw = openSqlite(path)
  } catch (error) {
    throw new StoreStartError(`at ${path}`, error)
  }
  // The one connection that writes: the gate hands it to one user at a time, and a write waiting
  // for another process's lock lends it to reads meanwhile (src/store/sqlite-driver.ts).
  const gate = new SqliteGate(raw)
  const db = new Kysely<Schema>({ dialect: gatedSqliteDialect(gate) })
  const exclusive = <T>(fn: () => T): Promise<T> => gate.exclusive(fn)
  // The committed-reads connection and its probe, opened at their first use (most commands never
  // serve a request). An in-memory database has no second connection to it: its reads stay on the
  // one connection, with no probe.
  const inMemory = path === ':memory:' || path === ''
  let reader: DatabaseSync | null = null
  const readerConnection = (): DatabaseSync => {
    if (reader === null) {
      reader = openSqlite(path)
      reader.exec('PRAGMA query_only = ON')
    }
    return reader
  }
  const probe = inMemory ? null : createCommitProbe(path)
  return {
    kind: 'sqlite',
    db,
    raw,
    path,
    exclusive,
    inProcess: true,
    prepare: (sql) => prepareSqlite(() => raw, sql),
    writer: { serial: true, run: (fn) => gate.transaction(fn) },
    acquireWriterLock: async () => ({
      lost: new AbortController().signal,
      writer: { serial: true, run: (fn) => gate.transaction(fn) },
      release: async () => {},
    }),
    migrationSchema: undefined,
    migrationDb: db,
    committed: {
      prepare: (sql) => prepareSqlite(inMemory ? () => raw : readerConnection, sql),
      commitVersion: probe && (() => probe.version()),
      settle: null,
      live: null,
      outage: null,
      listen: null,
    },
    async close() {
      await db.destroy()
      probe?.close()
      reader?.close()
      reader = null
    },
  }
}

function createPostgres(url: string, options: CreateDatabaseOptions, timeouts: DatabaseTimeouts): Database {
  const schema = options.schema ?? null
  const connection: pg.PoolConfig = {
    connectionString: url,
    ...(schema ? { options: `-c search_path=${quoteIdent(schema)}` } : {}),
  }
  const pool = new pg.Pool({
    ...connection,
    ...postgresPoolSettings(timeouts.timeoutMs),
    max: options.poolSize ?? 10,
  })
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {})
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) })
  // Opens its connection at the first request's state: commands that serve nothing never listen.
  const watch = createCommitWatch({ ...connection, ...postgresPoolSettings(timeouts.timeoutMs) }, schema)
  // Migrations may rewrite large tables: one connection of their own, opened at their first use,
  // waits as long as the indexer's batches may. Its introspection reads this store's schema alone
  // (pg-introspector.ts).
  const migrationDb = new Kysely<Schema>({
    dialect: new CurrentSchemaPostgresDialect({
      pool: async () => {
        const migrations = new pg.Pool({
          ...connection,
          ...postgresPoolSettings(timeouts.writeTimeoutMs),
          max: 1,
        })
        migrations.on('error', () => {})
        return migrations
      },
    }),
  })
  return {
    kind: 'postgres',
    db,
    migrationDb,
    pool,
    schema,
    inProcess: false,
    prepare: (sql, name) => preparePostgres(pool, sql, name),
    writer: {
      serial: false,
      async run(fn) {
        const client = await pool.connect()
        try {
          return await fn(client)
        } finally {
          client.release()
        }
      },
    },
    acquireWriterLock: (signal, onWait) =>
      acquireAdvisoryLock(
        { ...connection, ...postgresPoolSettings(timeouts.timeoutMs) },
        timeouts,
        signal,
        onWait,
      ),
    migrationSchema: schema ?? undefined,
    // A statement outside a transaction reads committed data; the watch tells of the commits that
    // change a request's state.
    committed: {
      prepare: (sql, name) => preparePostgres(pool, sql, name),
      commitVersion: () => watch.version(),
      settle: () => watch.settle(),
      live: () => watch.live(),
      outage: () => watch.outage(),
      listen: () => watch.listen(),
    },
    async close() {
      await watch.close()
      await db.destroy()
      await migrationDb.destroy()
    },
  }
}

/** A named query: parsed and planned once per pooled connection by the server. */
function preparePostgres(pool: pg.Pool, sql: string, name: string): PreparedQuery {
  const run = (params: ReadonlyArray<unknown>) => pool.query({ name, text: sql, values: [...params] })
  return {
    one: async <T>(params: ReadonlyArray<unknown>) => ((await run(params)).rows[0] as T | undefined) ?? null,
    all: async <T>(params: ReadonlyArray<unknown>) => (await run(params)).rows as T[],
  }
}

/** Ends a connection at once, failing what waits on it: `end()` waits for a server that may not answer. */
function destroyConnection(client: pg.Client): void {
  client.connection.stream.destroy()
}

/**
 * A session advisory lock on a dedicated connection: a second indexer waits here as a hot standby
 * and takes over when the first one's session ends. The key includes the schema, so separate
 * schemas in one database index independently.
 *
 * Fencing: the holder's batch transactions run on this same connection (the lock's `writer`). The
 * server releases a session lock only when the session ends, and ending a session rolls back its
 * open transaction, so a batch can commit only while its session holds the lock: once the lock's
 * connection is lost (a restart, a failover, pg_terminate_backend, a reaper), nothing this process
 * still has in flight can commit, and a standby that took the lock over is the only writer. A batch
 * with no answer within the write bound, or failing on the connection, ends the connection and
 * aborts `lost`: this process then re-acquires the lock before it writes again.
 */
async function acquireAdvisoryLock(
  settings: pg.ClientConfig,
  timeouts: DatabaseTimeouts,
  signal?: AbortSignal,
  onWait?: () => void,
): Promise<WriterLock> {
  const lost = new AbortController()
  // No statement bound while waiting: a standby blocks in pg_advisory_lock while the holder holds it.
  const client = new pg.Client({ ...settings, query_timeout: undefined, statement_timeout: undefined })
  const lose = (reason: unknown) => {
    if (!lost.signal.aborted) lost.abort(reason)
    destroyConnection(client)
  }
  client.on('error', (error) => lose(error))
  client.on('end', () => lose(new Error('indexer lock connection ended')))
  await client.connect()
  const key = "hashtext('strata-indexer:' || current_schema())"
  // Ending the connection is the one way to interrupt a blocking pg_advisory_lock.
  const onAbort = () => destroyConnection(client)
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const tried = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${key}) AS locked`)
    if (!tried.rows[0]?.locked) {
      onWait?.()
      // Blocks until the holder's session ends, so a standby takes over at once.
      await client.query(`SELECT pg_advisory_lock(${key})`)
    }
    // From now on the connection carries batches: the server bounds them as the client does, and
    // probes the client's side, so a holder that vanished (a partition) frees the lock in about
    // 25 s instead of the system's two hours.
    const bound = timeouts.writeTimeoutMs
    await client.query(
      `SET statement_timeout = ${bound}; SET idle_in_transaction_session_timeout = ${bound};
       SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3`,
    )
  } catch (error) {
    client.removeAllListeners('end')
    destroyConnection(client)
    throw signal?.aborted ? signal.reason : error
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
  let queue: Promise<unknown> = Promise.resolve()
  const write = async <T>(fn: (connection: pg.ClientBase) => Promise<T>): Promise<T> => {
    if (lost.signal.aborted) throw new Error('lost the indexer lock', { cause: lost.signal.reason })
    const timer = setTimeout(
      () => lose(new Error(`an indexer batch had no answer within ${timeouts.writeTimeoutMs} ms`)),
      timeouts.writeTimeoutMs,
    )
    try {
      return await fn(client)
    } catch (error) {
      // The connection failed under the batch: the session, and the lock with it, may be gone.
      if (isStoreUnavailable(error)) lose(error)
      throw error
    } finally {
      clearTimeout(timer)
    }
  }
  return {
    lost: lost.signal,
    writer: {
      serial: false,
      run<T>(fn: (connection: pg.ClientBase) => Promise<T>): Promise<T> {
        // One transaction at a time on the one connection.
        const result = queue.then(() => write(fn))
        queue = result.catch(() => {})
        return result
      },
    },
    release: async () => {
      client.removeAllListeners('end')
      client.removeAllListeners('error')
      client.on('error', () => {})
      await Promise.race([
        client.end().catch(() => {}),
        new Promise((resolve) => setTimeout(resolve, 1000).unref()),
      ])
      destroyConnection(client)
    },
  }
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe identifier: ${name}`)
  return `"${name}"`
}
