import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { DatabaseConfig } from '../config.ts'
import type { Schema } from './schema.ts'
import { asKyselySqlite, type DatabaseSync, openSqlite } from './sqlite-driver.ts'

// int8 columns (ledger sequences, epoch milliseconds) fit in a JS number; parse them as numbers.
pg.types.setTypeParser(20, (value: string) => Number(value))

/**
 * The store, chosen once. Its capabilities:
 * - `db`: Kysely for everything that is not a hot path; on SQLite it owns the one connection, and
 *   its transactions hold it from BEGIN to COMMIT.
 * - SQLite: `raw` for prepared statements on hot paths (point-in-time reads, the batch writer), and
 *   `exclusive(fn)`, which runs `fn` holding that same connection, so a raw write transaction never
 *   starts inside a Kysely one (one writer, never "a transaction within a transaction").
 * - PostgreSQL: `pool` for prepared statements and for the batch writer's own client.
 */
export type Database =
  | {
      kind: 'sqlite'
      db: Kysely<Schema>
      raw: DatabaseSync
      exclusive<T>(fn: () => T): Promise<T>
      close: () => Promise<void>
    }
  | { kind: 'postgres'; db: Kysely<Schema>; pool: pg.Pool; schema: string | null; close: () => Promise<void> }

export interface CreateDatabaseOptions {
  /** PostgreSQL schema to use as search_path (tests isolate themselves with one). */
  schema?: string
  poolSize?: number
}

export function createDatabase(config: DatabaseConfig, options: CreateDatabaseOptions = {}): Database {
  if (config.kind === 'sqlite') {
    const raw = openSqlite(config.path)
    const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: asKyselySqlite(raw) }) })
    return {
      kind: 'sqlite',
      db,
      raw,
      // Kysely's SQLite driver hands out its single connection under a mutex; holding it here waits
      // for any transaction in flight and keeps new ones out until `fn` returns.
      exclusive: (fn) => db.connection().execute(async () => fn()),
      close: () => db.destroy(),
    }
  }
  const schema = options.schema ?? null
  const pool = new pg.Pool({
    connectionString: config.url,
    max: options.poolSize ?? 10,
    ...(schema ? { options: `-c search_path=${quoteIdent(schema)}` } : {}),
  })
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {})
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) })
  return { kind: 'postgres', db, pool, schema, close: () => db.destroy() }
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe identifier: ${name}`)
  return `"${name}"`
}

// Connection failures of PostgreSQL (class 08, admin shutdown 57P0x) or the socket underneath it.
const PG_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
])

// SQLite primary result codes meaning the file cannot be used: BUSY, LOCKED, IOERR, CORRUPT,
// CANTOPEN, NOTADB. The extended codes carry the primary one in their low byte.
const SQLITE_UNAVAILABLE_CODES = new Set([5, 6, 10, 11, 14, 26])

/**
 * True when an error means the store cannot be reached or used (not that a query was wrong): the
 * API answers these `503 unavailable`, as health does, never `500`.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, errcode, message, errors } = error as {
    code?: unknown
    errcode?: unknown
    message?: unknown
    errors?: unknown
  }
  if (typeof code === 'string' && (PG_UNAVAILABLE_CODES.has(code) || /^08/.test(code))) return true
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') {
    return SQLITE_UNAVAILABLE_CODES.has(errcode & 0xff)
  }
  if (
    typeof message === 'string' &&
    /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|database is not open/.test(
      message,
    )
  ) {
    return true
  }
  // An AggregateError (one per address a host name resolved to).
  return Array.isArray(errors) && errors.some(isStoreUnavailable)
}
