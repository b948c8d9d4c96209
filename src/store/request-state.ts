import { type Awaitable, andThen } from '../awaitable.ts'
import type { Database, PreparedQuery } from './db.ts'
import { LEDGER_STREAM } from './ledger-data.ts'
import type { IndexerHead, PositionsReader } from './positions-read.ts'

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
  /**
   * The close time of `atLedger` (epoch seconds; null when the store lacks the ledger): the
   * ledger a request is about, from which an answer measures its oracle staleness.
   */
  atCloseTime: number | null
}

/**
 * What an API-key request reads of the store, fixed at its start by one statement: the
 * authentication generation (raised by every write to a key or an organization), the indexer
 * checkpoint, and, when the route declares a seek, the serving snapshots' ledgers, all read at one
 * moment of the store. The request's answer reads through `reader`, so it uses the same checkpoint
 * and snapshots instead of reading them again.
 */
export interface RequestView {
  readonly generation: string
  readonly head: IndexerHead
  readonly seek: SeekResult | null
  /**
   * The store's reader as this request sees it: `head()` is the view's checkpoint, and the
   * snapshot lookup the seek made is answered from it; every other read goes to the store.
   */
  readonly reader: PositionsReader
}

/** Opens the view of one request, declaring the serving snapshots its answer will look up. */
export type RequestViews = (seek?: SnapshotSeek | null) => Awaitable<RequestView>

/** A view's reader: the view's checkpoint, its seek's result, the store for everything else. */
function viewReader(store: PositionsReader, head: IndexerHead, found: SeekResult | null): PositionsReader {
  return {
    head: () => head,
    snapshotLedgersAt:
      found === null
        ? store.snapshotLedgersAt
        : (protocols, address, ledger) =>
            sameSeek(found, protocols, address, ledger)
              ? found.ledgers
              : store.snapshotLedgersAt(protocols, address, ledger),
    snapshotAt: store.snapshotAt,
    snapshotsBetween: store.snapshotsBetween,
    stateAt: store.stateAt,
    priceAt: store.priceAt,
    closeTime:
      found === null || found.atLedger === null
        ? store.closeTime
        : (ledger) => (ledger === found.atLedger ? found.atCloseTime : store.closeTime(ledger)),
  }
}

/** Whether a lookup is the one the view's statement already made. */
function sameSeek(found: SeekResult, protocols: readonly string[], address: string, ledger: number): boolean {
  return (
    found.atLedger === ledger &&
    found.address === address &&
    found.protocols.length === protocols.length &&
    found.protocols.every((protocol, i) => protocol === protocols[i])
  )
}

/** A frozen view (several requests may share one), with its reader over `store`. */
function freezeView(
  store: PositionsReader,
  generation: string,
  head: IndexerHead,
  seek: SeekResult | null,
): RequestView {
  return Object.freeze({ generation, head, seek, reader: viewReader(store, head, seek) })
}

/** The columns of the request-state statement (not a contract-state row: see `StateRow` of positions-read.ts). */
interface RequestStateRow {
  generation: number | string
  first_ledger: number | null
  last_ledger: number | null
  close_time: number | null
  at_ledger?: number | string | null
  at_close_time?: number | string | null
  [column: `l${number}`]: number | string | null
}

const BASE_COLUMNS = 'g.generation, s.first_ledger, s.last_ledger, l.close_time'
const FROM = `FROM auth_generation g
                 LEFT JOIN indexer_state s ON s.name = $1
                 LEFT JOIN ledgers l ON l.sequence = s.last_ledger
           WHERE g.id = 1`

/**
 * The statement with `count` seeks: $1 the checkpoint's stream, $2 the pin (null: none), $3 the
 * address, then each protocol's name. Exported for bench/pg-pool.ts, which measures it.
 */
export function requestStateSql(count: number): string {
  if (count === 0) return `SELECT ${BASE_COLUMNS} ${FROM}`
  // The effective ledger: the pin, capped at the checkpoint (the checkpoint for no pin).
  const bound =
    'CASE WHEN COALESCE($2, s.last_ledger) > s.last_ledger THEN s.last_ledger ELSE COALESCE($2, s.last_ledger) END'
  const seeks = Array.from(
    { length: count },
    (_, i) => `(SELECT ledger FROM snapshots WHERE protocol = $${4 + i} AND address = $3
                  AND ledger <= ${bound} ORDER BY ledger DESC LIMIT 1) AS l${i}`,
  )
  // The close time of that ledger: the time an answer's oracle staleness is measured from.
  const closeTime = `(SELECT close_time FROM ledgers WHERE sequence = ${bound}) AS at_close_time`
  return `SELECT ${BASE_COLUMNS}, ${bound} AS at_ledger, ${closeTime}, ${seeks.join(', ')} ${FROM}`
}

/** How many seek results are remembered at most (each a few hundred bytes); more empties them all. */
const KEPT_STATES_MAX = 10_000

/**
 * The views of requests over `store` (the process's reader). The statement runs on the store's
 * committed reads (see CommittedReads): it never sees a transaction still open in this process.
 *
 * Where the store can tell cheaply that nothing has been committed since (SQLite's commit probe),
 * what the statement read is remembered: the generation and the checkpoint until any connection of
 * any process commits (a revoked key, a plan change, an indexed batch, the batched last-used
 * times), and each seek's serving snapshots for as long as the indexed history they were found in
 * stays as it was (see `rememberBetweenCommits`). On PostgreSQL the commit watch stands for the
 * probe: it tells of changes to the generation and the checkpoint, and while its lease does not
 * hold every request reads (src/store/commit-watch.ts).
 *
 * A returned view may be shared by several requests: it is frozen, and its reader holds nothing
 * of any one request.
 */
export function createRequestViews(database: Database, store: PositionsReader): RequestViews {
  const statements = new Map<number, PreparedQuery>()
  const statement = (count: number): PreparedQuery => {
    let prepared = statements.get(count)
    if (prepared === undefined) {
      prepared = database.committed.prepare(requestStateSql(count), `request_state_${count}`)
      statements.set(count, prepared)
    }
    return prepared
  }
  const read = (seek: SnapshotSeek | null | undefined): Awaitable<RequestView> => {
    const params: Array<string | number | null> = [LEDGER_STREAM]
    if (seek) params.push(seek.pin, seek.address, ...seek.protocols)
    const count = seek ? seek.protocols.length : 0
    return andThen(statement(count).one<RequestStateRow>(params), (row) => {
      if (!row) throw new Error('auth_generation has no row: the store is not migrated')
      const last = row.last_ledger ?? null
      return freezeView(
        store,
        String(row.generation),
        Object.freeze({
          firstIndexedLedger: row.first_ledger ?? null,
          lastIndexedLedger: last,
          lastCloseTime: row.close_time ?? null,
        }),
        seek
          ? Object.freeze({
              protocols: seek.protocols,
              address: seek.address,
              atLedger: last === null ? null : Number(row.at_ledger),
              atCloseTime:
                row.at_close_time === null || row.at_close_time === undefined
                  ? null
                  : Number(row.at_close_time),
              ledgers: Object.freeze(
                seek.protocols.map((_, i) => {
                  const found = row[`l${i}`] ?? null
                  return found === null ? null : Number(found)
                }),
              ),
            })
          : null,
      )
    })
  }
  const commitVersion = database.committed.commitVersion
  if (commitVersion === null) return read
  // A serving process listens from its start: its first requests, and the writes it settles,
  // find the watch live.
  database.committed.listen?.()
  return rememberBetweenCommits(read, commitVersion, (generation, head, seek) =>
    freezeView(store, generation, head, seek),
  )
}

/** A seek's result as remembered, with the checkpoint it was found under. */
interface KeptSeek {
  result: SeekResult
  /** The checkpoint (last indexed ledger) when it was found. */
  foundAt: number
  /** The view it last went out in, and the commit version that view was made at. */
  state: RequestView
  stateVersion: number
}

/**
 * `read`, answered from memory while `commitVersion()` says nothing was committed since.
 *
 * The version is read before anything else, so what is kept was read at or after that version's
 * moment. The generation and the checkpoint are answered again only while the version is
 * unchanged: after a commit anywhere, the next request reads them again (with its seek, in its
 * one statement).
 *
 * A seek's result also outlives commits that leave the store's history alone. The serving
 * snapshot of a protocol for an address at a ledger at or below the checkpoint is fixed once that
 * ledger is indexed: the indexer writes a ledger's snapshots in the batch that moves the
 * checkpoint past it and never rewrites them (the answer cache rests on the same rule, see
 * src/positions/answer-cache.ts). So while the first indexed ledger is the same and the checkpoint
 * has not gone back, a result found for a pin at or below the checkpoint of its time is still the
 * answer (its effective ledger is the pin), and any result is while the checkpoint has not moved.
 * A key-usage flush or a key or plan change therefore costs one statement, at the next request,
 * not one per address and pin asked before; the indexer's next batch costs a seek again only to
 * requests without a pin or pinned above the old checkpoint. A first indexed ledger that differs, or a checkpoint that went back
 * (a store wiped, re-indexed from elsewhere), forgets every result.
 */
function rememberBetweenCommits(
  read: (seek: SnapshotSeek | null | undefined) => Awaitable<RequestView>,
  commitVersion: () => number,
  view: (generation: string, head: IndexerHead, seek: SeekResult | null) => RequestView,
): RequestViews {
  let version = Number.NaN
  /** The view without a seek at `version`; null until read. */
  let plain: RequestView | null = null
  /** Seek results per (protocols, address, pin), found under first indexed ledger `scopeFirst`. */
  let kept = new Map<readonly string[], Map<string, Map<number | null, KeptSeek>>>()
  let keptCount = 0
  let scopeFirst: number | null = null
  let scopeLast: number | null = null
  const forget = () => {
    kept = new Map()
    keptCount = 0
  }
  /** Takes the head read at the current version; forgets the results it makes unsafe. */
  const rescope = (head: IndexerHead) => {
    const last = head.lastIndexedLedger
    if (head.firstIndexedLedger !== scopeFirst || last === null || (scopeLast !== null && last < scopeLast)) {
      forget()
    }
    scopeFirst = head.firstIndexedLedger
    scopeLast = last
  }
  const plainNow = (): Awaitable<RequestView> => {
    if (plain !== null) return plain
    const at = version
    return andThen(read(null), (state) => {
      if (version === at && plain === null) {
        rescope(state.head)
        plain = state
      }
      return state
    })
  }
  /** A kept result that still answers `seek` under `head`, or undefined. */
  const stillServes = (entry: KeptSeek | undefined, pin: number | null, head: IndexerHead) => {
    if (entry === undefined) return undefined
    const last = head.lastIndexedLedger
    return entry.foundAt === last || (pin !== null && last !== null && pin <= entry.foundAt)
      ? entry
      : undefined
  }
  const keep = (seek: SnapshotSeek, state: RequestView, last: number, now: number) => {
    if (keptCount >= KEPT_STATES_MAX) forget()
    let addresses = kept.get(seek.protocols)
    if (addresses === undefined) {
      addresses = new Map()
      kept.set(seek.protocols, addresses)
    }
    let pins = addresses.get(seek.address)
    if (pins === undefined) {
      pins = new Map()
      addresses.set(seek.address, pins)
    }
    if (!pins.has(seek.pin)) keptCount += 1
    pins.set(seek.pin, { result: state.seek!, foundAt: last, state, stateVersion: now })
  }
  return (seek) => {
    const now = commitVersion()
    if (now !== version) {
      version = now
      plain = null
    }
    if (!seek) return plainNow()
    if (plain !== null) {
      const base = plain
      const entry = stillServes(
        kept.get(seek.protocols)?.get(seek.address)?.get(seek.pin),
        seek.pin,
        base.head,
      )
      if (entry !== undefined) {
        if (entry.stateVersion !== now) {
          entry.state = view(base.generation, base.head, entry.result)
          entry.stateVersion = now
        }
        return entry.state
      }
    }
    // One statement reads the seek with the generation and the checkpoint; at a new version it
    // also gives the state without a seek.
    return andThen(read(seek), (state) => {
      const last = state.head.lastIndexedLedger
      if (version !== now || state.seek === null || last === null) return state
      if (plain === null) {
        rescope(state.head)
        plain = view(state.generation, state.head, null)
      } else if (
        last !== plain.head.lastIndexedLedger ||
        state.head.firstIndexedLedger !== plain.head.firstIndexedLedger
      ) {
        // Read after a commit this version has not seen: served, not kept.
        return state
      }
      keep(seek, state, last, now)
      return state
    })
  }
}
