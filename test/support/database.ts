import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { DatabaseConfig } from '../../src/config.ts'
import { createDatabase, type Database, quoteIdent } from '../../src/store/db.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'

/** Which store the suite runs on: STRATA_TEST_DB=postgres, or SQLite by default. */
export const TEST_DB_KIND: 'sqlite' | 'postgres' =
  process.env.STRATA_TEST_DB === 'postgres' ? 'postgres' : 'sqlite'
export const TEST_POSTGRES_URL =
  process.env.STRATA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export interface TestDatabase {
  config: DatabaseConfig
  /** PostgreSQL schema isolating this test, or null on SQLite. */
  schema: string | null
  /** Environment for a child process that must use this same database. */
  env: Record<string, string>
  open: () => Database
  drop: () => Promise<void>
}

/** A fresh, empty, migrated (unless told not to) database of the suite's kind, private to the caller. */
export async function createTestDatabase(
  kind = TEST_DB_KIND,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const migrate = options.migrate !== false
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'strata-test-'))
    const config: DatabaseConfig = { kind: 'sqlite', path: join(dir, 'test.db') }
    const db = createDatabase(config)
    if (migrate) await migrateToLatest(db)
    await db.close()
    return {
      config,
      schema: null,
      env: { DATABASE_URL: `sqlite:${config.path}` },
      open: () => createDatabase(config),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    }
  }
  const schema = `t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${quoteIdent(schema)}`)
  await admin.end()
  const config: DatabaseConfig = { kind: 'postgres', url: TEST_POSTGRES_URL }
  const db = createDatabase(config, { schema })
  if (migrate) await migrateToLatest(db)
  await db.close()
  const url = new URL(TEST_POSTGRES_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return {
    config,
    schema,
    env: { DATABASE_URL: url.toString() },
    open: () => createDatabase(config, { schema }),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL })
      await client.connect()
      await client.query(`DROP SCHEMA ${quoteIdent(schema)} CASCADE`)
      await client.end()
    },
  }
}

/**
 * Waits until `database` answers request state from memory: at once on SQLite (its commit probe
 * needs no start), on PostgreSQL once its commit watch's lease holds (its connection listens and
 * a heartbeat was answered).
 */
export async function untilStateLive(database: Database, timeoutMs = 10_000): Promise<void> {
  const live = database.committed.live
  if (live === null) return
  const until = Date.now() + timeoutMs
  while (!live()) {
    if (Date.now() > until) throw new Error(`the commit watch was not live within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
