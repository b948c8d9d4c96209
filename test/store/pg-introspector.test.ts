// The migrations' introspector reads its own schema only, so a schema dropped by another client
// while a store migrates cannot fail the migration (the PostgreSQL test pass runs files side by side).
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { quoteIdent } from '../../src/store/db.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { CurrentSchemaIntrospector } from '../../src/store/pg-introspector.ts'
import {
  createTestDatabase,
  TEST_DB_KIND,
  TEST_POSTGRES_URL,
  type TestDatabase,
} from '../support/database.ts'

describe.skipIf(TEST_DB_KIND !== 'postgres')('the migrations introspector on PostgreSQL', () => {
  let own: TestDatabase
  let other: TestDatabase
  beforeAll(async () => {
    own = await createTestDatabase()
    other = await createTestDatabase()
  })
  afterAll(async () => {
    await own.drop()
    await other.drop().catch(() => {})
  })

  it('lists exactly the tables and columns information_schema lists for its own schema', async () => {
    const database = own.open()
    try {
      expect(database.migrationDb.introspection).toBeInstanceOf(CurrentSchemaIntrospector)
      const tables = await database.migrationDb.introspection.getTables({
        withInternalKyselyTables: true,
      })
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL })
      await client.connect()
      const { rows } = await client.query<{ table_name: string; column_name: string; is_nullable: string }>(
        `SELECT table_name, column_name, is_nullable FROM information_schema.columns
         WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
        [own.schema],
      )
      await client.end()
      const expected = rows.map((r) => `${r.table_name}.${r.column_name}:${r.is_nullable === 'YES'}`)
      const listed = tables.flatMap((t) => t.columns.map((c) => `${t.name}.${c.name}:${c.isNullable}`))
      expect(listed.sort()).toEqual(expected.sort())
      expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([own.schema]))
      expect(tables.map((t) => t.name)).toContain('kysely_migration')
      const without = await database.migrationDb.introspection.getTables()
      expect(without.map((t) => t.name)).not.toContain('kysely_migration')
      expect(without.length).toBe(tables.length - 2)
    } finally {
      await database.close()
    }
  })

  it('migrates while another schema is dropped and created again and again', async () => {
    let dropping = true
    const churn = (async () => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL })
      await client.connect()
      let rounds = 0
      while (dropping) {
        const name = `churn_${process.pid}_${rounds++}`
        await client.query(`CREATE SCHEMA ${quoteIdent(name)}`)
        await client.query(`CREATE TABLE ${quoteIdent(name)}.t (a int, b text)`)
        await client.query(`DROP SCHEMA ${quoteIdent(name)} CASCADE`)
      }
      await client.end()
      return rounds
    })()
    try {
      for (let i = 0; i < 5; i++) {
        const fresh = await createTestDatabase(TEST_DB_KIND, { migrate: false })
        const database = fresh.open()
        try {
          await migrateToLatest(database)
          const tables = await database.migrationDb.introspection.getTables()
          expect(tables.map((t) => t.name)).toContain('snapshots')
        } finally {
          await database.close()
          await fresh.drop()
        }
      }
    } finally {
      dropping = false
    }
    expect(await churn).toBeGreaterThan(0)
  })
})
