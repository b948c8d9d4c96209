import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  // The network description the indexer watches, so API replicas can enrich answers without it.
  await db.schema
    .createTable('networks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
}
