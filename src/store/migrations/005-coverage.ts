import type { Kysely } from 'kysely'

/**
 * The first ledger a store ingested: knowledge starts there. An answer that needs earlier history
 * says `partial_result: true` instead of a confident "held nothing".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('indexer_state').addColumn('first_ledger', 'bigint').execute()
}
