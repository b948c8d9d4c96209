import { type Kysely, SqliteIntrospector, sql } from 'kysely'

/**
 * The management plane's records:
 * - `organizations.created_by` (`admin` | `signup`), so the admin endpoint does not silently hand
 *   keys to an organization someone signed up for, and `max_plan`, the highest plan the operator
 *   allows the organization to choose itself.
 * - `api_keys.replaced_by`: the key that replaced a rotated one.
 * - `audit_events`: the organizations' security events. `seq` orders them in the order they were
 *   written (cursors page on it); `id` is the public, unguessable identifier.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('created_by', 'text', (c) => c.notNull().defaultTo('admin'))
    .execute()
  await db.schema
    .alterTable('organizations')
    .addColumn('max_plan', 'text', (c) => c.notNull().defaultTo('free'))
    .execute()
  // Signup writes the organization and its first user in one transaction, at one instant; the
  // admin endpoint creates none, and `strata create-user` adds one later. Existing organizations
  // keep the plan they are on (it becomes their allowed maximum), so nobody is downgraded.
  await sql`UPDATE organizations SET created_by = 'signup'
            WHERE EXISTS (SELECT 1 FROM users u
                          WHERE u.organization_id = organizations.id AND u.created_at = organizations.created_at)`.execute(
    db,
  )
  await sql`UPDATE organizations SET max_plan = plan`.execute(db)

  await db.schema.alterTable('api_keys').addColumn('replaced_by', 'text').execute()

  // An auto-numbered key: SQLite's INTEGER PRIMARY KEY is the rowid, PostgreSQL needs an identity.
  const sqlite = db.introspection instanceof SqliteIntrospector
  await db.schema
    .createTable('audit_events')
    .addColumn('seq', sqlite ? 'integer' : 'bigint', (c) =>
      sqlite ? c.primaryKey().autoIncrement() : c.primaryKey().generatedAlwaysAsIdentity(),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('target', 'text')
    .addColumn('client_ip', 'text')
    .addColumn('details', 'text')
    .execute()
  await db.schema
    .createIndex('audit_events_org_seq')
    .on('audit_events')
    .columns(['organization_id', 'seq'])
    .execute()
}
