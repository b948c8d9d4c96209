import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { DatabaseConfig } from '../config.ts'
import type { Schema } from './schema.ts'
import { asKyselySqlite, type DatabaseSync, openSqlite } from './sqlite-driver.ts'

// int8 columns (ledger sequences, epoch milliseconds) fit in a JS number; parse them as numbers.
pg.types.setTypeParser(20, (value: string) => Number(value))

/**
 * The store, chosen once. Everything else asks `kind` only through the capability flags below,
 * or uses the raw handle on a hot path that has a prepared statement per dialect.
 */
export type Database =
  | { kind: 'sqlite'; db: Kysely<Schema>; raw: DatabaseSync; close: () => Promise<void> }
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
    return { kind: 'sqlite', db, raw, close: () => db.destroy() }
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
