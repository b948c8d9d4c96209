import type { Kysely } from 'kysely'
import type { Schema } from './schema.ts'

/** The indexer's checkpoint and the close time (epoch seconds) of that ledger, if any. */
export interface IndexerStatus {
  lastIndexedLedger: number | null
  lastCloseTime: number | null
}

export const LEDGER_STREAM = 'ledgers'

export async function getIndexerStatus(db: Kysely<Schema>): Promise<IndexerStatus> {
  const row = await db
    .selectFrom('indexer_state')
    .leftJoin('ledgers', 'ledgers.sequence', 'indexer_state.last_ledger')
    .select(['indexer_state.last_ledger', 'ledgers.close_time'])
    .where('indexer_state.name', '=', LEDGER_STREAM)
    .executeTakeFirst()
  return { lastIndexedLedger: row?.last_ledger ?? null, lastCloseTime: row?.close_time ?? null }
}
