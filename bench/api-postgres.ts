// The API benchmark on PostgreSQL: the large SQLite store's rows copied into a PostgreSQL schema of
// its own (migrated by the project's migrations, not re-indexed: the same contents, the same API
// key), what a server on it is given (the store's URL, Redis for the rate limiter, as production
// runs), and the CPU PostgreSQL and Redis spend on a server's requests, which the server's own
// /proc figure does not hold.
//
// The copy is kept: the schema's comment names the SQLite store it was made from (its description
// file and when that was written), so a rebuilt SQLite store is copied again and an unchanged one is
// not. The key tables (server secrets, organizations, API keys) are topped up on every run: the
// bench issues a new key into the SQLite store each time (api-stores.ts, `prepareStore`).
import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import type { DatabaseSync } from 'node:sqlite'
import { Redis } from 'ioredis'
import pg from 'pg'
import { createDatabase, quoteIdent } from '../src/store/db.ts'
import { migrateToLatest } from '../src/store/migrate.ts'
import { cpuUs } from './api-env.ts'
import type { BuiltStore } from './api-stores.ts'

/** The PostgreSQL database the bench's schemas live in (the test suite's by default). */
export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
/** The Redis the servers on PostgreSQL count their rate limits in. */
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** A URL as messages show it: its password, if any, as `***`. */
export function shownUrl(url: string): string {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}

/** Begins every comment the bench puts on a schema of its own: no other schema is ever dropped. */
const MARKER = 'strata bench:api copy'

/** Tables whose rows carry the bench's API key; copied again, missing rows only, on every run. */
const KEY_TABLES = ['server_secrets', 'organizations', 'api_keys']

export interface PostgresStore {
  kind: 'postgres'
  schema: string
  /** Seconds the copy took in this run; null when the kept copy was current. */
  copiedS: number | null
  /** Rows copied (in this run or when the kept copy was made). */
  rows: number
  /** `SELECT version()`, shortened to its first words. */
  version: string
}

/** The store's URL: the bench's database with the schema as search_path, as `strata serve` takes it. */
export function storeUrl(schema: string, applicationName?: string): string {
  const url = new URL(POSTGRES_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  if (applicationName) url.searchParams.set('application_name', applicationName)
  return url.toString()
}

/** What a server on the store is given: its DATABASE_URL (naming its connections) and REDIS_URL. */
export function postgresServerEnv(store: PostgresStore, applicationName: string): Record<string, string> {
  return { DATABASE_URL: storeUrl(store.schema, applicationName), REDIS_URL }
}

/** The SQLite store's identity: its description (spec and counts) and when it was written. */
function storeIdentity(store: BuiltStore): string {
  const meta = store.path.replace(/\.db$/, '.json')
  return createHash('sha256')
    .update(readFileSync(meta))
    .update(String(statSync(meta).mtimeMs))
    .digest('hex')
    .slice(0, 24)
}

/** A copy of `store` in the schema `schema` (made, or the kept one when it is current). */
export async function copyToPostgres(store: BuiltStore, schema: string): Promise<PostgresStore> {
  const marker = `${MARKER} of ${store.path.split('/').at(-1)} ${storeIdentity(store)}`
  const admin = new pg.Client({ connectionString: POSTGRES_URL })
  await admin.connect()
  const sqlite = createDatabase({ kind: 'sqlite', path: store.path })
  if (sqlite.kind !== 'sqlite') throw new Error('unreachable')
  try {
    const version = (await admin.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v
    const found = await admin.query<{ comment: string | null }>(
      "SELECT obj_description(oid, 'pg_namespace') AS comment FROM pg_namespace WHERE nspname = $1",
      [schema],
    )
    const comment = found.rows[0]?.comment
    let copiedS: number | null = null
    if (!comment?.startsWith(`${marker}; `)) {
      if (found.rows.length > 0 && !comment?.startsWith(MARKER)) {
        throw new Error(`schema ${schema} exists and is not a copy made by bench:api: not touching it`)
      }
      const started = performance.now()
      process.stderr.write(`copying ${store.path.split('/').at(-1)} into PostgreSQL schema ${schema}...\n`)
      await admin.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`)
      await admin.query(`CREATE SCHEMA ${quoteIdent(schema)}`)
      // Until the copy is whole, the comment says it is the bench's (so a rerun may drop it) and
      // names no store (so a rerun copies again).
      await admin.query(
        `COMMENT ON SCHEMA ${quoteIdent(schema)} IS ${admin.escapeLiteral(`${MARKER}: unfinished`)}`,
      )
      const database = createDatabase({ kind: 'postgres', url: storeUrl(schema) })
      try {
        await migrateToLatest(database)
      } finally {
        await database.close()
      }
      const rows = await withStoreClient(schema, (client) => copyTables(sqlite.raw, client, schema, 'all'))
      copiedS = Math.round((performance.now() - started) / 100) / 10
      await admin.query(
        `COMMENT ON SCHEMA ${quoteIdent(schema)} IS ${admin.escapeLiteral(`${marker}; ${rows} rows`)}`,
      )
      process.stderr.write(`  copied ${rows} rows in ${copiedS} s\n`)
    }
    await withStoreClient(schema, (client) => copyTables(sqlite.raw, client, schema, 'keys'))
    const kept = await admin.query<{ comment: string }>(
      "SELECT obj_description(oid, 'pg_namespace') AS comment FROM pg_namespace WHERE nspname = $1",
      [schema],
    )
    const rows = Number(/; (\d+) rows$/.exec(kept.rows[0]?.comment ?? '')?.[1] ?? 0)
    return { kind: 'postgres', schema, copiedS, rows, version: version.split(' ').slice(0, 2).join(' ') }
  } finally {
    await sqlite.close()
    await admin.end()
  }
}

async function withStoreClient<T>(schema: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: storeUrl(schema) })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/**
 * Copies the SQLite store's tables into the migrated schema, table by table in batches of multi-row
 * INSERTs, one transaction per table, referenced tables first. `all`: every table but the
 * migrator's own, emptied first (the migrations seed some), then ANALYZE; `keys`: the key tables,
 * rows the copy lacks only. Returns the rows copied.
 */
async function copyTables(
  raw: DatabaseSync,
  client: pg.Client,
  schema: string,
  which: 'all' | 'keys',
): Promise<number> {
  const sqliteTables = (
    raw
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'",
      )
      .all() as Array<{ name: string }>
  ).map((t) => t.name)
  const pgColumns = await client.query<{ table_name: string; column_name: string; is_identity: string }>(
    'SELECT table_name, column_name, is_identity FROM information_schema.columns WHERE table_schema = $1',
    [schema],
  )
  const references = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     WHERE k.contype = 'f' AND k.connamespace = $1::regnamespace`,
    [schema],
  )
  const tables = order(
    which === 'all' ? sqliteTables : KEY_TABLES.filter((t) => sqliteTables.includes(t)),
    references.rows,
  )
  for (const table of tables) {
    if (!pgColumns.rows.some((c) => c.table_name === table)) {
      throw new Error(`table ${table} of the SQLite store is not in the migrated PostgreSQL schema`)
    }
  }
  if (which === 'all') await client.query(`TRUNCATE ${tables.map(quoteIdent).join(', ')}`)
  let copied = 0
  for (const table of tables) {
    const columns = (
      raw.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as Array<{ name: string }>
    ).map((c) => c.name)
    const target = pgColumns.rows.filter((c) => c.table_name === table)
    const missing = columns.filter((name) => !target.some((c) => c.column_name === name))
    if (missing.length > 0) throw new Error(`${table}: no column ${missing.join(', ')} in PostgreSQL`)
    const identity = target.filter((c) => c.is_identity === 'YES').map((c) => c.column_name)
    // PostgreSQL takes at most 65,535 parameters a statement.
    const perStatement = Math.max(1, Math.min(1000, Math.floor(60_000 / columns.length)))
    const head = `INSERT INTO ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')})${
      identity.some((name) => columns.includes(name)) ? ' OVERRIDING SYSTEM VALUE' : ''
    } VALUES `
    const tail = which === 'keys' ? ' ON CONFLICT DO NOTHING' : ''
    const insert = async (batch: unknown[][]) => {
      const values = batch.map(
        (_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`,
      )
      const result = await client.query(`${head}${values.join(', ')}${tail}`, batch.flat())
      copied += result.rowCount ?? 0
    }
    await client.query('BEGIN')
    try {
      const read = raw.prepare(`SELECT ${columns.map(quoteIdent).join(', ')} FROM ${quoteIdent(table)}`)
      read.setReturnArrays(true)
      let batch: unknown[][] = []
      for (const row of read.iterate() as Iterable<unknown[]>) {
        batch.push(row.map((value) => (value instanceof Uint8Array ? Buffer.from(value) : value)))
        if (batch.length === perStatement) {
          await insert(batch)
          batch = []
        }
      }
      if (batch.length > 0) await insert(batch)
      // An identity column copied with its values: its next value follows the largest copied.
      for (const name of identity) {
        await client.query(
          `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(${quoteIdent(name)}), 0) + 1, false) FROM ${quoteIdent(table)}`,
          [table, name],
        )
      }
      await client.query('COMMIT')
    } catch (error) {
      await client.query('ROLLBACK')
      throw error
    }
    if (which === 'all') await client.query(`ANALYZE ${quoteIdent(table)}`)
  }
  return copied
}

/** `tables` with every table after those it references (foreign keys). */
function order(tables: string[], references: Array<{ child: string; parent: string }>): string[] {
  const done: string[] = []
  const visit = (table: string, path: string[]) => {
    if (done.includes(table) || !tables.includes(table)) return
    if (path.includes(table)) throw new Error(`foreign keys in a cycle: ${[...path, table].join(' -> ')}`)
    for (const r of references) if (r.child === table && r.parent !== table) visit(r.parent, [...path, table])
    done.push(table)
  }
  for (const table of tables) visit(table, [])
  return done
}

/** CPU (µs) that PostgreSQL and Redis spent so far: per backend of one server's connections, and Redis's. */
export interface SideCpu {
  /** CPU of each backend (by pid) whose connection names the server; null when PostgreSQL is on another host. */
  backends: Map<number, number> | null
  /** Redis's own CPU (INFO cpu), all its clients; null when it did not answer. */
  redis: number | null
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])

/** The side CPU of the server whose connections carry `applicationName` (see postgresServerEnv). */
export async function readSideCpu(applicationName: string): Promise<SideCpu> {
  const [backends, redis] = await Promise.all([backendCpu(applicationName), redisCpu()])
  return { backends, redis }
}

async function backendCpu(applicationName: string): Promise<Map<number, number> | null> {
  // A backend's CPU is read from /proc: only where PostgreSQL runs on this host.
  if (!LOCAL_HOSTS.has(new URL(POSTGRES_URL).hostname)) return null
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    const found = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    )
    const cpu = new Map<number, number>()
    for (const { pid } of found.rows) {
      const us = cpuUs(pid)
      if (us !== null) cpu.set(pid, us)
    }
    return cpu
  } finally {
    await client.end()
  }
}

async function redisCpu(): Promise<number | null> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000 })
  try {
    await redis.connect()
    const info = await redis.info('cpu')
    const read = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? Number.NaN)
    const seconds = read('used_cpu_user') + read('used_cpu_sys')
    return Number.isFinite(seconds) ? seconds * 1e6 : null
  } catch {
    return null
  } finally {
    redis.disconnect()
  }
}

/**
 * The side CPU spent between two readings, µs: each backend's growth (a backend that appeared in
 * between counts whole; one that ended in between is lost, which steady load makes rare), and Redis's.
 */
export function sideCpuBetween(
  before: SideCpu,
  after: SideCpu,
): { databaseUs: number | null; redisUs: number | null } {
  let databaseUs: number | null = null
  if (before.backends && after.backends) {
    databaseUs = 0
    for (const [pid, us] of after.backends) databaseUs += us - (before.backends.get(pid) ?? 0)
  }
  const redisUs = before.redis === null || after.redis === null ? null : after.redis - before.redis
  return { databaseUs, redisUs }
}

/** Redis's version (INFO server), for the report; null when it did not answer. */
export async function redisVersion(): Promise<string | null> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000 })
  try {
    await redis.connect()
    return /^redis_version:(\S+)/m.exec(await redis.info('server'))?.[1] ?? null
  } catch {
    return null
  } finally {
    redis.disconnect()
  }
}
