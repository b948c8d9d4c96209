import { type Kysely, SqliteIntrospector, sql } from 'kysely'

/**
 * PostgreSQL only: a notification on channel `strata_state`, payload `<schema>:change`, sent by
 * the transaction that changes what every API-key request begins with: the authentication
 * generation (itself raised by trigger on any change to keys and organizations, migration 009)
 * and the indexer's checkpoint rows. A notification is delivered only if its transaction commits,
 * after it commits; each serving replica's listening connection (src/store/commit-watch.ts) then
 * stops answering the old state from memory. Statement-level triggers, and PostgreSQL folds
 * identical notifications of one transaction into one: a batch costs one notification.
 *
 * SQLite needs none of this: its commit probe reads the WAL index that every commit rewrites.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.introspection instanceof SqliteIntrospector) return
  await sql`CREATE FUNCTION notify_state_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('strata_state', TG_TABLE_SCHEMA || ':change'); RETURN NULL; END $$`.execute(
    db,
  )
  await sql`CREATE TRIGGER auth_generation_notify AFTER UPDATE ON auth_generation
            FOR EACH STATEMENT EXECUTE FUNCTION notify_state_change()`.execute(db)
  await sql`CREATE TRIGGER indexer_state_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON indexer_state
            FOR EACH STATEMENT EXECUTE FUNCTION notify_state_change()`.execute(db)
}
