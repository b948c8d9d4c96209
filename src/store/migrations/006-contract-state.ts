import type { Kysely } from 'kysely'

/**
 * Contract state as history: a protocol's own entries (a Blend reserve's `ResData`, a pool's
 * `Config`), one row each time a value changes. "Latest row at or before ledger P" is one seek on
 * the primary key. It replaces `rates`, which no protocol wrote once FxDAO's debt was read as stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rates').execute()
  await db.schema
    .createTable('contract_state')
    .addColumn('contract', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('ledger', 'bigint', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('contract_state_pk', ['contract', 'key', 'ledger'])
    .execute()
}
