import { createRequire } from 'node:module'
import type { DatabaseSync as DatabaseSyncType, SQLInputValue, StatementSync } from 'node:sqlite'
import type { SqliteDatabase, SqliteStatement } from 'kysely'

/**
 * Node's built-in SQLite (node:sqlite) behind the statement interface Kysely's SqliteDialect
 * expects. The runtime's own SQLite needs no native build step on a fresh machine.
 */
export function openSqlite(path: string): DatabaseSync {
  const db = new (loadSqlite().DatabaseSync)(path, { timeout: 5000 })
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

function wrapStatement(stmt: StatementSync): SqliteStatement {
  const reader = stmt.columns().length > 0
  const bind = (parameters: ReadonlyArray<unknown>): SQLInputValue[] => parameters.map(toSqliteParam)
  return {
    reader,
    all: (parameters) => stmt.all(...bind(parameters)),
    run: (parameters) => stmt.run(...bind(parameters)),
    iterate: (parameters) => stmt.iterate(...bind(parameters)),
  }
}

export function asKyselySqlite(db: DatabaseSync): SqliteDatabase {
  return {
    close: () => db.close(),
    prepare: (sql: string) => wrapStatement(db.prepare(sql)),
  }
}
