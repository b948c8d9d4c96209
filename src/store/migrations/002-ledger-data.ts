import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledgers')
    .addColumn('sequence', 'bigint', (c) => c.primaryKey())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('close_time', 'bigint', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('indexer_state')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_ledger', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()

  // One index seek per (protocol, address) answers "latest snapshot at or before ledger P".
  await db.schema
    .createTable('snapshots')
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('ledger', 'bigint', (c) => c.notNull())
    .addColumn('positions', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('snapshots_pk', ['protocol', 'address', 'ledger'])
    .execute()

  await db.schema
    .createTable('rates')
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('rate_key', 'text', (c) => c.notNull())
    .addColumn('ledger', 'bigint', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rates_pk', ['protocol', 'rate_key', 'ledger'])
    .execute()

  await db.schema
    .createTable('prices')
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('ledger', 'bigint', (c) => c.notNull())
    .addColumn('price', 'text', (c) => c.notNull())
    .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('prices_pk', ['asset', 'ledger'])
    .execute()
}
