import type { Database } from './db.ts'

/** One account of the store and the protocols it holds positions in at the indexed head. */
export interface AccountHoldings {
  address: string
  /** Protocol names, in the order `protocols` gave them. */
  protocols: string[]
}

/**
 * Every account whose latest snapshot in one of `protocols` holds a position (a snapshot with
 * every position closed is `[]`), with the protocols it holds, ordered by address. The latest
 * snapshot is what the API serves at the head, so each account listed answers non-empty positions
 * there for each protocol listed. A scan of the snapshots: meant for the demo's small store, not
 * for a mainnet one.
 */
export async function accountsHoldingPositions(
  database: Database,
  protocols: readonly string[],
): Promise<AccountHoldings[]> {
  if (protocols.length === 0) return []
  const rows = await database.db
    .selectFrom('snapshots as s')
    .select(['s.protocol', 's.address'])
    .where('s.protocol', 'in', [...protocols])
    .where('s.positions', '<>', '[]')
    .where((eb) =>
      eb(
        's.ledger',
        '=',
        eb
          .selectFrom('snapshots as t')
          .select(({ fn }) => fn.max('t.ledger').as('ledger'))
          .whereRef('t.protocol', '=', 's.protocol')
          .whereRef('t.address', '=', 's.address'),
      ),
    )
    .execute()
  const byAddress = new Map<string, Set<string>>()
  for (const row of rows) {
    const held = byAddress.get(row.address) ?? new Set<string>()
    held.add(row.protocol)
    byAddress.set(row.address, held)
  }
  return [...byAddress.keys()]
    .sort()
    .map((address) => ({ address, protocols: protocols.filter((p) => byAddress.get(address)!.has(p)) }))
}
