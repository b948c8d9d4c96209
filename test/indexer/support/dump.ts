import { createHash } from 'node:crypto'
import type { Database } from '../../../src/store/db.ts'

/** Every indexed row, ordered by primary key, integers as numbers; `updated_at` (wall clock) left out. */
export async function dumpIndexedData(database: Database) {
  const db = database.db
  const num = <T extends Record<string, unknown>>(rows: T[], keys: (keyof T)[]) =>
    rows.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, keys.includes(k) ? Number(v) : v])),
    )
  return {
    ledgers: num(await db.selectFrom('ledgers').selectAll().orderBy('sequence').execute(), [
      'sequence',
      'close_time',
    ]),
    snapshots: num(
      await db
        .selectFrom('snapshots')
        .selectAll()
        .orderBy('protocol')
        .orderBy('address')
        .orderBy('ledger')
        .execute(),
      ['ledger'],
    ),
    contract_state: num(
      await db
        .selectFrom('contract_state')
        .selectAll()
        .orderBy('contract')
        .orderBy('key')
        .orderBy('ledger')
        .execute(),
      ['ledger'],
    ),
    prices: num(
      await db
        .selectFrom('prices')
        .selectAll()
        .orderBy('oracle')
        .orderBy('asset')
        .orderBy('ledger')
        .execute(),
      ['ledger', 'decimals', 'timestamp_ms'],
    ),
    transactions: num(await db.selectFrom('transactions').selectAll().orderBy('hash').execute(), [
      'ledger',
      'tx_order',
      'successful',
    ]),
    actions: num(
      await db
        .selectFrom('activities')
        .selectAll()
        .orderBy('ledger')
        .orderBy('tx_order')
        .orderBy('event_index')
        .orderBy('protocol')
        .execute(),
      ['ledger', 'tx_order', 'event_index', 'operation'],
    ),
    account_actions: num(
      await db
        .selectFrom('account_activities')
        .selectAll()
        .orderBy('account')
        .orderBy('ledger')
        .orderBy('tx_order')
        .orderBy('event_index')
        .orderBy('protocol')
        .execute(),
      ['ledger', 'tx_order', 'event_index'],
    ),
    indexer_state: num(
      await db.selectFrom('indexer_state').select(['name', 'last_ledger']).orderBy('name').execute(),
      ['last_ledger'],
    ),
  }
}

/** A short fingerprint of a dump, for messages. */
export function hashDump(dump: unknown): string {
  return createHash('sha256').update(JSON.stringify(dump)).digest('hex').slice(0, 16)
}
