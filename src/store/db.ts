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
