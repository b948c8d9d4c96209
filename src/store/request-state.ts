import { type Awaitable, andThen } from '../awaitable.ts'
import type { Database, PreparedQuery } from './db.ts'
import { LEDGER_STREAM } from './ledger-data.ts'
import type { IndexerHead } from './positions-read.ts'

/**
 * The serving snapshots a data request will need, asked for together with its authentication
 * state: for each protocol, the ledger of the account's latest snapshot at or before the pin
 * (the checkpoint when the pin is null or above it).
 */
export interface SnapshotSeek {
  protocols: readonly string[]
  address: string
  pin: number | null
}

/** What the seek found, and the ledger it sought at (the effective ledger). */
export interface SeekResult {
  protocols: readonly string[]
  address: string
  /** min(pin, checkpoint); null when nothing is indexed (then nothing was sought). */
  atLedger: number | null
  /** Per protocol, in order: the serving snapshot's ledger, null when there is none. */
  ledgers: Array<number | null>
}

/**
 * The one statement an API-key request begins with: the authentication generation (raised by
 * every write to a key or an organization), the indexer checkpoint, and, when the route asks,
 * the serving snapshots' ledgers, all read at one moment of the store.
 */
export interface RequestState {
  generation: string
  head: IndexerHead
  seek: SeekResult | null
}

interface StateRow {
  generation: number | string
  first_ledger: number | null
  last_ledger: number | null
  close_time: number | null
  at_ledger?: number | string | null
  [column: `l${number}`]: number | string | null
}

const BASE_COLUMNS = 'g.generation, s.first_ledger, s.last_ledger, l.close_time'
const FROM = `FROM auth_generation g
                 LEFT JOIN indexer_state s ON s.name = $1
                 LEFT JOIN ledgers l ON l.sequence = s.last_ledger
           WHERE g.id = 1`

/**
 * The statement with `count` seeks: $1 the checkpoint's stream, $2 the pin (null: none), $3 the
 * address, then each protocol's name.
 */
function stateSql(count: number): string {
  if (count === 0) return `SELECT ${BASE_COLUMNS} ${FROM}`
  // The effective ledger: the pin, capped at the checkpoint (the checkpoint for no pin).
  const bound =
    'CASE WHEN COALESCE($2, s.last_ledger) > s.last_ledger THEN s.last_ledger ELSE COALESCE($2, s.last_ledger) END'
  const seeks = Array.from(
    { length: count },
    (_, i) => `(SELECT ledger FROM snapshots WHERE protocol = $${4 + i} AND address = $3
                  AND ledger <= ${bound} ORDER BY ledger DESC LIMIT 1) AS l${i}`,
  )
  return `SELECT ${BASE_COLUMNS}, ${bound} AS at_ledger, ${seeks.join(', ')} ${FROM}`
}

export function createRequestStateReader(
  database: Database,
): (seek?: SnapshotSeek | null) => Awaitable<RequestState> {
  const statements = new Map<number, PreparedQuery>()
  const statement = (count: number): PreparedQuery => {
    let prepared = statements.get(count)
    if (prepared === undefined) {
      prepared = database.prepare(stateSql(count), `request_state_${count}`)
      statements.set(count, prepared)
    }
    return prepared
  }
  return (seek) => {
    const params: Array<string | number | null> = [LEDGER_STREAM]
    if (seek) params.push(seek.pin, seek.address, ...seek.protocols)
    const count = seek ? seek.protocols.length : 0
    return andThen(statement(count).one<StateRow>(params), (row) => {
      if (!row) throw new Error('auth_generation has no row: the store is not migrated')
      const last = row.last_ledger ?? null
      return {
        generation: String(row.generation),
        head: {
          firstIndexedLedger: row.first_ledger ?? null,
          lastIndexedLedger: last,
          lastCloseTime: row.close_time ?? null,
        },
        seek: seek
          ? {
              protocols: seek.protocols,
              address: seek.address,
              atLedger: last === null ? null : Number(row.at_ledger),
              ledgers: seek.protocols.map((_, i) => {
                const found = row[`l${i}`] ?? null
                return found === null ? null : Number(found)
              }),
            }
          : null,
      }
    })
  }
}
