import { sql } from 'kysely'
import type { Database } from '../store/db.ts'
import type { SnapshotRow } from '../store/positions-read.ts'

/**
 * The snapshots a subscription has not seen yet, read in one statement per wake however many
 * addresses and protocols it follows: the snapshots of those accounts with `after < ledger <=
 * upTo`, each with the ledger of the account's previous snapshot in that protocol (a seek on the
 * snapshots' primary key `(protocol, address, ledger)`, as every other lookup).
 */

/** A new snapshot of an account in a protocol, with the ledger of the one before it. */
export interface ChangedSnapshot extends SnapshotRow {
  protocol: string
  address: string
  previous_ledger: number | null
}

/** The order of events: ledger, then protocol, then address (code-unit order, whatever the collation). */
export function compareChanges(a: ChangedSnapshot, b: ChangedSnapshot): number {
  if (a.ledger !== b.ledger) return a.ledger - b.ledger
  if (a.protocol !== b.protocol) return a.protocol < b.protocol ? -1 : 1
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0
}

const toNumber = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value)

/**
 * At most `limit` changed snapshots of `addresses` × `protocols` in `(after, upTo]`, in event
 * order. A caller that gets `limit` rows back reads on from the last whole ledger it got.
 */
export async function readChanges(
  database: Database,
  addresses: readonly string[],
  protocols: readonly string[],
  after: number,
  upTo: number,
  limit: number,
): Promise<ChangedSnapshot[]> {
  if (addresses.length === 0 || protocols.length === 0 || upTo <= after) return []
  const rows = await database.db
    .selectFrom('snapshots as s')
    .leftJoin('ledgers as l', 'l.sequence', 's.ledger')
    .select([
      's.protocol as protocol',
      's.address as address',
      's.ledger as ledger',
      's.positions as positions',
      'l.close_time as close_time',
      sql<number | null>`(SELECT MAX(p.ledger) FROM snapshots p
        WHERE p.protocol = s.protocol AND p.address = s.address AND p.ledger < s.ledger)`.as(
        'previous_ledger',
      ),
    ])
    .where('s.address', 'in', [...addresses])
    .where('s.protocol', 'in', [...protocols])
    .where('s.ledger', '>', after)
    .where('s.ledger', '<=', upTo)
    .orderBy('s.ledger')
    .orderBy('s.protocol')
    .orderBy('s.address')
    .limit(limit)
    .execute()
  return rows
    .map((row) => ({
      protocol: String(row.protocol),
      address: String(row.address),
      ledger: Number(row.ledger),
      positions: String(row.positions),
      close_time: toNumber(row.close_time),
      previous_ledger: toNumber(row.previous_ledger),
    }))
    .sort(compareChanges)
}
