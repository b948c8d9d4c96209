import type { StatementSync } from 'node:sqlite'
import type { Database } from './db.ts'

/**
 * Single-row queries prepared once, for hot paths where the query builder's per-call cost shows.
 * SQL is written with PostgreSQL's `$n` placeholders; on SQLite they become `?`, so the
 * parameters must appear in order.
 */
export type QueryOne<Q extends string> = <T>(
  query: Q,
  params: ReadonlyArray<string | number>,
) => Promise<T | null>

export function createQueryOne<Q extends string>(
  database: Database,
  sql: Record<Q, string>,
  namespace: string,
): QueryOne<Q> {
  if (database.kind === 'sqlite') {
    const statements = new Map<Q, StatementSync>()
    return async <T>(query: Q, params: ReadonlyArray<string | number>) => {
      let statement = statements.get(query)
      if (!statement) {
        statement = database.raw.prepare(sql[query].replace(/\$\d+/g, '?'))
        statements.set(query, statement)
      }
      return (statement.get(...params) as T | undefined) ?? null
    }
  }
  const pool = database.pool
  return async <T>(query: Q, params: ReadonlyArray<string | number>) => {
    // A named query is parsed and planned once per connection by the server.
    const result = await pool.query({ name: `${namespace}_${query}`, text: sql[query], values: [...params] })
    return (result.rows[0] as T | undefined) ?? null
  }
}

/** Multi-row queries prepared once, as `createQueryOne` (same placeholders and ordering rules). */
export type QueryMany<Q extends string> = <T>(
  query: Q,
  params: ReadonlyArray<string | number>,
) => Promise<T[]>

export function createQueryMany<Q extends string>(
  database: Database,
  sql: Record<Q, string>,
  namespace: string,
): QueryMany<Q> {
  if (database.kind === 'sqlite') {
    const statements = new Map<Q, StatementSync>()
    return async <T>(query: Q, params: ReadonlyArray<string | number>) => {
      let statement = statements.get(query)
      if (!statement) {
        statement = database.raw.prepare(sql[query].replace(/\$\d+/g, '?'))
        statements.set(query, statement)
      }
      return statement.all(...params) as T[]
    }
  }
  const pool = database.pool
  return async <T>(query: Q, params: ReadonlyArray<string | number>) => {
    const result = await pool.query({ name: `${namespace}_${query}`, text: sql[query], values: [...params] })
    return result.rows as T[]
  }
}
