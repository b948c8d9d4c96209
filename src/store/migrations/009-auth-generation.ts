import { type Kysely, SqliteIntrospector, sql } from 'kysely'

/**
 * `auth_generation`: one counter that every change able to alter what authenticating an API key
 * reads (the key's organization, hash, scopes, expiry, revocation, replacement; its
 * organization's plan or anything else of the organization; a deleted key or organization)
 * raises, by trigger, in the same transaction as the change. An API process may then serve key
 * records from memory as long as the counter it reads on each request is the one it read with
 * the record: a write on any instance, by any code path (endpoint, CLI, a hand-written SQL
 * statement), invalidates every cached record before the next request is answered.
 *
 * `api_keys.last_used_at` is deliberately not listed: it is written in batches by every instance
 * and does not change the authentication decision. A later migration adding a column that
 * authentication reads must add it to the `api_keys` trigger.
 */
const KEY_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'prefix',
  'key_hash',
  'scopes',
  'created_at',
  'expires_at',
  'revoked_at',
  'replaced_by',
]

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.introspection instanceof SqliteIntrospector
  await db.schema
    .createTable('auth_generation')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('generation', 'bigint', (c) => c.notNull())
    .execute()
  await sql`INSERT INTO auth_generation (id, generation) VALUES (1, 0)`.execute(db)
  const columns = sql.raw(KEY_COLUMNS.join(', '))
  if (sqlite) {
    const bump = sql.raw('BEGIN UPDATE auth_generation SET generation = generation + 1 WHERE id = 1; END')
    await sql`CREATE TRIGGER api_keys_auth_update AFTER UPDATE OF ${columns} ON api_keys ${bump}`.execute(db)
    await sql`CREATE TRIGGER api_keys_auth_delete AFTER DELETE ON api_keys ${bump}`.execute(db)
    await sql`CREATE TRIGGER organizations_auth_update AFTER UPDATE ON organizations ${bump}`.execute(db)
    await sql`CREATE TRIGGER organizations_auth_delete AFTER DELETE ON organizations ${bump}`.execute(db)
    return
  }
  await sql`CREATE FUNCTION bump_auth_generation() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN UPDATE auth_generation SET generation = generation + 1 WHERE id = 1; RETURN NULL; END $$`.execute(
    db,
  )
  await sql`CREATE TRIGGER api_keys_auth AFTER UPDATE OF ${columns} OR DELETE ON api_keys
            FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_generation()`.execute(db)
  await sql`CREATE TRIGGER organizations_auth AFTER UPDATE OR DELETE ON organizations
            FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_generation()`.execute(db)
}
