import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite'
import type { SqliteDatabase, SqliteStatement } from 'kysely'

/**
 * Node's built-in SQLite (node:sqlite) behind the statement interface Kysely's SqliteDialect
 * expects. The runtime's own SQLite needs no native build step on a fresh machine.
 */
export function openSqlite(path: string): DatabaseSync {
  const db = new DatabaseSync(path, { timeout: 5000 })
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('PRAGMA foreign_keys = ON')
  return db
}

export function toSqliteParam(value: unknown): SQLInputValue {
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
