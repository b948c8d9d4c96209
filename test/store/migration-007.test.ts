import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../src/store/db.ts'
import { migrateToLatest, migrateUpTo } from '../../src/store/migrate.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'

describe('migration 007 on a store that has organizations already', () => {
  let testDb: TestDatabase
  let database: Database
  beforeAll(async () => {
    testDb = await createTestDatabase(undefined, { migrate: false })
    database = testDb.open()
  })
  afterAll(async () => {
    await database.close()
    await testDb.drop()
  })

  it('tells signup organizations from admin ones, keeps every plan, and leaves keys unrotated', async () => {
    await migrateUpTo(database, '006-contract-state')
    // Written as the code before 007 wrote them: no created_by, max_plan or replaced_by yet.
    const old = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>
    const org = (id: string, plan: string, createdAt: number) => ({
      id,
      slug: id.replace('_', '-'),
      name: id,
      plan,
      billing_email: null,
      created_at: createdAt,
    })
    await old
      .insertInto('organizations')
      .values([
        org('org_signup', 'pro', 1000),
        org('org_admin', 'free', 2000),
        org('org_admin2', 'enterprise', 3000),
      ])
      .execute()
    const user = (id: string, organizationId: string, createdAt: number) => ({
      id,
      organization_id: organizationId,
      email: `${id}@example.com`,
      password_hash: 'x',
      created_at: createdAt,
    })
    // Signup wrote its user at the organization's instant; create-user added one to org_admin later.
    await old
      .insertInto('users')
      .values([user('usr_a', 'org_signup', 1000), user('usr_b', 'org_admin', 2500)])
      .execute()
    await old
      .insertInto('api_keys')
      .values({
        id: 'key_a',
        organization_id: 'org_admin',
        name: 'k',
        prefix: 'strata_abcde',
        key_hash: 'h',
        scopes: '["data:read"]',
        created_at: 2000,
        last_used_at: null,
        expires_at: null,
        revoked_at: null,
      })
      .execute()

    // 007 runs first; the migrations after it follow.
    const applied = await migrateToLatest(database)
    expect(applied[0]).toBe('007-management')
    expect(applied).toEqual([...applied].sort())
    const orgs = await database.db
      .selectFrom('organizations')
      .select(['id', 'plan', 'created_by', 'max_plan'])
      .orderBy('id')
      .execute()
    expect(orgs).toEqual([
      { id: 'org_admin', plan: 'free', created_by: 'admin', max_plan: 'free' },
      { id: 'org_admin2', plan: 'enterprise', created_by: 'admin', max_plan: 'enterprise' },
      { id: 'org_signup', plan: 'pro', created_by: 'signup', max_plan: 'pro' },
    ])
    const key = await database.db
      .selectFrom('api_keys')
      .select(['id', 'replaced_by'])
      .executeTakeFirstOrThrow()
    expect(key).toEqual({ id: 'key_a', replaced_by: null })
    expect(await database.db.selectFrom('audit_events').selectAll().execute()).toEqual([])
  })
})
