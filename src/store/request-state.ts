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
  ledgers: ReadonlyArray<number | null>
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

/** How many request states are remembered between two commits (each a few hundred bytes). */
const KEPT_STATES_MAX = 10_000

/**
 * The reader of a request's state. Its statement runs on the store's committed reads (see
 * CommittedReads): it never sees a transaction still open in this process.
 *
 * Where the store can tell cheaply that nothing has been committed since (SQLite's commit probe),
 * the state read for a seek is remembered and answered again while no connection of any process
 * has committed: the probe is read before the statement, so a state is only ever kept under a
 * version that was current when its read began, and a commit anywhere (a revoked key, a plan
 * change, an indexed batch, the batched last-used times) changes the version and forgets every
 * kept state before the next request is answered. On PostgreSQL every request reads.
 *
 * A returned state may be shared by several requests: it is frozen.
 */
export function createRequestStateReader(
  database: Database,
): (seek?: SnapshotSeek | null) => Awaitable<RequestState> {
  const statements = new Map<number, PreparedQuery>()
  const statement = (count: number): PreparedQuery => {
    let prepared = statements.get(count)
    if (prepared === undefined) {
      prepared = database.committed.prepare(stateSql(count), `request_state_${count}`)
      statements.set(count, prepared)
    }
    return prepared
  }
  const read = (seek: SnapshotSeek | null | undefined): Awaitable<RequestState> => {
    const params: Array<string | number | null> = [LEDGER_STREAM]
    if (seek) params.push(seek.pin, seek.address, ...seek.protocols)
    const count = seek ? seek.protocols.length : 0
    return andThen(statement(count).one<StateRow>(params), (row) => {
      if (!row) throw new Error('auth_generation has no row: the store is not migrated')
      const last = row.last_ledger ?? null
      return Object.freeze({
        generation: String(row.generation),
        head: Object.freeze({
          firstIndexedLedger: row.first_ledger ?? null,
          lastIndexedLedger: last,
          lastCloseTime: row.close_time ?? null,
        }),
        seek: seek
          ? Object.freeze({
              protocols: seek.protocols,
              address: seek.address,
              atLedger: last === null ? null : Number(row.at_ledger),
              ledgers: Object.freeze(
                seek.protocols.map((_, i) => {
                  const found = row[`l${i}`] ?? null
                  return found === null ? null : Number(found)
                }),
              ),
            })
          : null,
      })
    })
  }
  const commitVersion = database.committed.commitVersion
  if (commitVersion === null) return read

  // Kept states of the current version: without a seek, and per (protocols, address, pin). A
  // route's seek names the same protocols array on every request.
  let version: number | null = null
  let plain: RequestState | undefined
  let sought = new Map<readonly string[], Map<string, Map<number | null, RequestState>>>()
  let kept = 0
  return (seek) => {
    const now = commitVersion()
    if (now !== version || kept >= KEPT_STATES_MAX) {
      version = now
      plain = undefined
      sought = new Map()
      kept = 0
    }
    if (!seek) {
      if (plain !== undefined) return plain
      return andThen(read(seek), (state) => {
        if (version === now) {
          plain = state
          kept += 1
        }
        return state
      })
    }
    let byAddress = sought.get(seek.protocols)
    const found = byAddress?.get(seek.address)?.get(seek.pin)
    if (found !== undefined) return found
    return andThen(read(seek), (state) => {
      if (version !== now) return state
      if (byAddress === undefined) {
        byAddress = new Map()
        sought.set(seek.protocols, byAddress)
      }
      let byPin = byAddress.get(seek.address)
      if (byPin === undefined) {
        byPin = new Map()
        byAddress.set(seek.address, byPin)
      }
      byPin.set(seek.pin, state)
      kept += 1
      return state
    })
  }
}
