import type { Awaitable } from '../awaitable.ts'
import type { Database, PreparedQuery } from './db.ts'

/**
 * Single-row queries prepared once, for hot paths where the query builder's per-call cost shows.
 * SQL is written with PostgreSQL's `$n` placeholders (see `Database.prepare`).
 */
export type QueryOne<Q extends string> = <T>(
  query: Q,
  params: ReadonlyArray<string | number>,
) => Awaitable<T | null>

/** Each query of `sql` prepared on first use, named `namespace_query`. */
function preparedSet<Q extends string>(database: Database, sql: Record<Q, string>, namespace: string) {
  const prepared = new Map<Q, PreparedQuery>()
  return (query: Q): PreparedQuery => {
    let statement = prepared.get(query)
    if (!statement) {
      statement = database.prepare(sql[query], `${namespace}_${query}`)
      prepared.set(query, statement)
    }
    return statement
  }
}

export function createQueryOne<Q extends string>(
  database: Database,
  sql: Record<Q, string>,
  namespace: string,
): QueryOne<Q> {
  const statement = preparedSet(database, sql, namespace)
  return (query, params) => statement(query).one(params)
}

/** Multi-row queries prepared once, as `createQueryOne` (same placeholders and ordering rules). */
export type QueryMany<Q extends string> = <T>(
  query: Q,
  params: ReadonlyArray<string | number>,
) => Awaitable<T[]>

export function createQueryMany<Q extends string>(
  database: Database,
  sql: Record<Q, string>,
  namespace: string,
): QueryMany<Q> {
  const statement = preparedSet(database, sql, namespace)
  return (query, params) => statement(query).all(params)
}
