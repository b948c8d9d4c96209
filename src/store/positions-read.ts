import { type Awaitable, andThen } from '../awaitable.ts'
import type { Database, PreparedQuery } from './db.ts'
import { LEDGER_STREAM } from './ledger-data.ts'
import { createQueryMany, createQueryOne } from './prepared.ts'

export interface SnapshotRow {
  ledger: number
  /** JSON array of positions, as the indexer wrote it. */
  positions: string
  /** Close time of the snapshot's ledger, epoch seconds (fetched with it: one seek fewer). */
  close_time: number | null
}

export interface StateRow {
  /** The ledger at which the entry took this value. */
  ledger: number
  /** JSON of the value, integers as decimal strings. */
  value: string
}

export interface PriceRow {
  ledger: number
  price: string
  /** The feed's own decimals. */
  decimals: number
  timestamp_ms: number
}

export interface IndexerHead {
  /** The first ledger the store ingested: its knowledge starts there. */
  firstIndexedLedger: number | null
  lastIndexedLedger: number | null
  /** Close time of that ledger, epoch seconds. */
  lastCloseTime: number | null
}

/**
 * The read side of point-in-time queries (answered in the same turn on SQLite, see `Awaitable`).
 * Every lookup is one seek on a primary-key index ("latest row with ledger <= P"), so its cost
 * does not grow with history depth. Statements are prepared once: this is the hot path of every
 * data request.
 */
export interface PositionsReader {
  head(): Awaitable<IndexerHead>
  snapshotAt(protocol: string, address: string, ledger: number): Awaitable<SnapshotRow | null>
  /**
   * For each protocol, in their order, only the ledger of the snapshot `snapshotAt` finds (null:
   * none): one statement, a seek each answered from the primary-key index alone, for answers
   * whose rendering is already in memory.
   */
  snapshotLedgersAt(
    protocols: readonly string[],
    address: string,
    ledger: number,
  ): Awaitable<ReadonlyArray<number | null>>
  /**
   * The snapshots with `from <= ledger <= to`, newest first, at most `limit`: one range scan on the
   * snapshots' primary key, whatever the depth of the account's history.
   */
  snapshotsBetween(
    protocol: string,
    address: string,
    from: number,
    to: number,
    limit: number,
  ): Awaitable<SnapshotRow[]>
  /** A contract-state entry's latest value at or before `ledger`. */
  stateAt(contract: string, key: string, ledger: number): Awaitable<StateRow | null>
  /** The latest price of a feed's asset at or before `ledger`. */
  priceAt(oracle: string, asset: string, ledger: number): Awaitable<PriceRow | null>
  closeTime(ledger: number): Awaitable<number | null>
}

const SQL = {
  head: `SELECT s.first_ledger AS first_ledger, s.last_ledger AS last_ledger, l.close_time AS close_time
           FROM indexer_state s LEFT JOIN ledgers l ON l.sequence = s.last_ledger WHERE s.name = $1`,
  snapshot: `SELECT s.ledger AS ledger, s.positions AS positions, l.close_time AS close_time
               FROM snapshots s LEFT JOIN ledgers l ON l.sequence = s.ledger
               WHERE s.protocol = $1 AND s.address = $2 AND s.ledger <= $3 ORDER BY s.ledger DESC LIMIT 1`,
  state: `SELECT ledger, value FROM contract_state
           WHERE contract = $1 AND key = $2 AND ledger <= $3 ORDER BY ledger DESC LIMIT 1`,
  price: `SELECT ledger, price, decimals, timestamp_ms FROM prices
            WHERE oracle = $1 AND asset = $2 AND ledger <= $3 ORDER BY ledger DESC LIMIT 1`,
  closeTime: 'SELECT close_time FROM ledgers WHERE sequence = $1',
} as const

const MANY_SQL = {
  snapshots: `SELECT s.ledger AS ledger, s.positions AS positions, l.close_time AS close_time
                FROM snapshots s LEFT JOIN ledgers l ON l.sequence = s.ledger
                WHERE s.protocol = $1 AND s.address = $2 AND s.ledger >= $3 AND s.ledger <= $4
                ORDER BY s.ledger DESC LIMIT $5`,
} as const

/**
 * One row whose column `l<i>` is the serving snapshot's ledger for the i-th protocol: three
 * parameters per protocol (its name, the address, the ledger), numbered in that order.
 */
function snapshotLedgersSql(count: number): string {
  const columns = Array.from(
    { length: count },
    (_, i) =>
      `(SELECT ledger FROM snapshots WHERE protocol = $${3 * i + 1} AND address = $${3 * i + 2}
          AND ledger <= $${3 * i + 3} ORDER BY ledger DESC LIMIT 1) AS l${i}`,
  )
  return `SELECT ${columns.join(', ')}`
}

export function createPositionsReader(database: Database): PositionsReader {
  const one = createQueryOne(database, SQL, 'positions')
  const many = createQueryMany(database, MANY_SQL, 'positions_many')
  /** The several-protocol seek, prepared once per number of protocols. */
  const ledgersBy = new Map<number, PreparedQuery>()
  return {
    async head() {
      const row = await one<{ first_ledger: number | null; last_ledger: number; close_time: number | null }>(
        'head',
        [LEDGER_STREAM],
      )
      return {
        firstIndexedLedger: row?.first_ledger ?? null,
        lastIndexedLedger: row?.last_ledger ?? null,
        lastCloseTime: row?.close_time ?? null,
      }
    },
    snapshotAt: (protocol, address, ledger) => one<SnapshotRow>('snapshot', [protocol, address, ledger]),
    snapshotLedgersAt(protocols, address, ledger) {
      let statement = ledgersBy.get(protocols.length)
      if (statement === undefined) {
        statement = database.prepare(
          snapshotLedgersSql(protocols.length),
          `positions_snapshot_ledgers_${protocols.length}`,
        )
        ledgersBy.set(protocols.length, statement)
      }
      const params: Array<string | number> = []
      for (const protocol of protocols) params.push(protocol, address, ledger)
      return andThen(statement.one<Record<string, number | string | null>>(params), (row) =>
        protocols.map((_, i) => {
          const found = row?.[`l${i}`] ?? null
          return found === null ? null : Number(found)
        }),
      )
    },
    snapshotsBetween: (protocol, address, from, to, limit) =>
      many<SnapshotRow>('snapshots', [protocol, address, from, to, limit]),
    stateAt: (contract, key, ledger) => one<StateRow>('state', [contract, key, ledger]),
    priceAt: (oracle, asset, ledger) => one<PriceRow>('price', [oracle, asset, ledger]),
    closeTime: (ledger) =>
      andThen(one<{ close_time: number }>('closeTime', [ledger]), (row) => row?.close_time ?? null),
  }
}
