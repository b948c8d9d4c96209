import { type Kysely, sql } from 'kysely'

/**
 * Ledger data as the real contracts write it. Stores made before this migration hold vault debt
 * under an invented stability-fee rate (FxDAO stores plain debt) and prices of one assumed oracle
 * with assumed decimals: none of that can be corrected in place, so the ledger data is emptied and
 * the indexer ingests it again. Organizations, users and API keys are untouched.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['snapshots', 'rates', 'ledgers', 'indexer_state', 'networks']) {
    await sql`DELETE FROM ${sql.table(table)}`.execute(db)
  }
  await db.schema.dropTable('prices').execute()
  // One row per (oracle feed, the feed's asset name, ledger); decimals are the feed's own.
  await db.schema
    .createTable('prices')
    .addColumn('oracle', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('ledger', 'bigint', (c) => c.notNull())
    .addColumn('price', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('prices_pk', ['oracle', 'asset', 'ledger'])
    .execute()
}
