import type { TSchema } from 'typebox'
import type { DecodedLedger } from '../../chain/decode-ledger.ts'
import type { ContractInfo, NetworkConfig } from '../../chain/network.ts'
import type { ContractActivitiesReader, DecodedActivity } from '../../store/activities.ts'
import type { PositionsReader, SnapshotRow } from '../../store/positions-read.ts'

export type { ContractActivitiesReader, ContractActivityRow } from '../../store/activities.ts'
/**
 * The store's read shapes a module works with (a snapshot row, a state row, a price row, the reader
 * itself): part of the module interface, so a protocol imports them from here, never from the store.
 */
export type { PositionsReader, PriceRow, SnapshotRow, StateRow } from '../../store/positions-read.ts'

/**
 * What every protocol module provides. A protocol is one folder under `protocols/` exporting one
 * `ProtocolModule`; the registry lists them, and the pipeline, the store and the API loop over the
 * registered modules without naming any. A module imports only this kit (`protocols/kit/`), the
 * chain's types and `awaitable.ts`: never another module, the store, the answer engine, `api/` or
 * `indexer/`; the kit imports no module (test/layering.test.ts walks the imports).
 */

/** JSON values as stored: integers that may exceed 2^53 are decimal strings, never numbers. */
export type StoredScalar = string | number | boolean | null
export type StoredValue = StoredScalar | StoredValue[] | { [key: string]: StoredValue }
export type StoredItem = { [key: string]: StoredValue }

/** Native ScVal (bigints, numbers, strings, maps as objects) -> stored JSON, integers beyond numbers as strings. */
export function toStoredValue(value: unknown): StoredValue {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value
  if (value === null || value === undefined) return null
  if (Array.isArray(value)) return value.map(toStoredValue)
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex')
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>
    const out: { [key: string]: StoredValue } = {}
    for (const key of Object.keys(record)) out[key] = toStoredValue(record[key])
    return out
  }
  return String(value)
}

/**
 * The new contents of one group of an account's positions after a ledger. Every stored item whose
 * key is `group` or starts with `group/` is replaced by `items` (none: the group is gone). A module
 * says what it read from the chain (a whole FxDAO `Vault`, a whole Blend `Positions` entry of one
 * pool); the account book works out which items changed.
 */
export interface AccountGroupChange {
  account: string
  group: string
  items: Array<{ key: string; value: StoredItem }>
}

/** A contract's own state (a reserve's rates, a pool's config) as written at a ledger: kept as history. */
export interface ContractStateChange {
  contract: string
  /** The module's name for the entry, e.g. `ResData/C…` or `Config`. */
  key: string
  value: StoredValue
}

/**
 * What one ledger did to a protocol: position groups of accounts, contract state, and the decoded
 * activities (stored for the activities endpoint). In apply order.
 */
export interface ProtocolLedgerFacts {
  accounts: AccountGroupChange[]
  states: ContractStateChange[]
  activities?: ProtocolActivity[]
}

/** The indexing side of a module for one network: pure, with memory only of what it read before. */
export interface ProtocolAdapter {
  adaptLedger(ledger: DecodedLedger): ProtocolLedgerFacts
}

/** An asset an answer refers to, keyed by its id in `enrichment.assets`. */
export interface AssetObject {
  decimals: number
  price_source: string | null
  price_usd: string | null
  symbol: string
  tags: string[]
}

/** A contract an answer refers to, keyed by its address in `enrichment.contracts`. */
export interface ContractObject {
  name: string
  position_types: string[]
  protocol: string
  status: string
  version: string
}

/** The `enrichment` member of every positions-like answer. */
export interface Enrichment {
  assets: Record<string, AssetObject>
  contracts: Record<string, ContractObject>
}

export interface PositionsDeps {
  reader: PositionsReader
  network: NetworkConfig | null
  maxPriceAgeS: number
  /** Epoch seconds, for data staleness. */
  nowS: number
  /** The stored activities of a contract (a pair's swaps for its 24-hour volume); absent: not offered. */
  activities?: ContractActivitiesReader
}

/**
 * How one snapshot is valued. The snapshot surface values it at its own vintage (`atPin` false:
 * each position with the rate in force at its own `ledger`, prices at the snapshot's ledger); the
 * `/at` surface with the rates and prices at the pin.
 */
export interface Valuation {
  atPin: boolean
  /** The ledger whose prices apply (and, with `atPin`, whose rates apply). */
  ledger: number
  /** Its close time, epoch seconds (null when the store lacks the ledger). */
  closeTime: number | null
}

/** What a module made of one snapshot or one piece of protocol state; the caller writes the `meta`. */
export interface Rendered {
  /** The answer's `data`, in the module's own shape. */
  data: unknown
  enrichment: Enrichment
  /** Close time of the valuation ledger minus the oldest price timestamp used; 0 when no price was used. */
  oracleStalenessS: number
  /** `oracle:C…` for each feed whose price was used, in order of first use. */
  sources: string[]
  /** Something the answer needs was never seen by the store (a reserve's asset or rate, a pool's config). */
  partial: boolean
}

/**
 * How a module answers `GET /v1/users/{address}/positions/{name}`, its `/at/{ledger}` surface and
 * its `/history`. The routes find the snapshot and write the `meta` (requested and served ledger,
 * coverage, staleness) the same way for every module; the module values one snapshot, so a history
 * page is the snapshot surface once per row.
 */
export interface PositionsSurface {
  /** The schema of `data` (serialization and OpenAPI); the routes wrap it with `enrichment` and `meta`. */
  dataSchema: TSchema
  summary: string
  description: string
  atSummary: string
  atDescription: string
  /** The `data` of an address with no snapshot at the ledger: absent, as empty lists. */
  empty(address: string): unknown
  /** Values one snapshot row of `address` (its positions JSON as the account book wrote it). */
  render(
    deps: PositionsDeps,
    network: NetworkConfig,
    address: string,
    snapshot: SnapshotRow,
    valuation: Valuation,
  ): Promise<Rendered>
  /**
   * The USD values of a rendered `data` that the all-protocols answer adds up (what is held, what
   * is owed). Optional: without it the rows of DESIGN §4.1's shape are read (`position_type`
   * `borrow` is debt, every other row an asset, by `amount_usd`), as `rowUsdParts` does.
   */
  usdParts?(data: unknown): UsdPart[]
}

/** One priced value of a rendered answer to add up (totals.ts): `usd` null when unpriced, with its reason. */
export interface UsdPart {
  side: 'asset' | 'debt'
  usd: string | null
  reason: string | null
}

/** A question about protocol state at a ledger (pools, reserves, emissions). */
export interface StateQuery {
  /** The ledger answered for: the pin, or the indexed head when the pin is above it or omitted. */
  ledger: number
  closeTime: number | null
}

/** `GET /v1/protocols/{name}/pools/{pool}`: one pool, pair or vault at a ledger. */
export interface PoolSurface {
  /** The schema of `data`. */
  dataSchema: TSchema
  summary: string
  description: string
  /** The contract's entry in the network description; null: not one of this module's (404). */
  find(network: NetworkConfig, pool: string): ContractInfo | null
  /** `asOfLedger`: the latest ledger at which a state entry used was written (null: none yet). */
  render(
    deps: PositionsDeps,
    network: NetworkConfig,
    pool: ContractInfo,
    query: StateQuery,
  ): Promise<Rendered & { asOfLedger: number | null }>
}

/** A protocol-level surface at a ledger: `GET /v1/protocols/{name}/reserves`, `/emissions`. */
export interface StateSurface {
  dataSchema: TSchema
  summary: string
  description: string
  /** The `data` when the store knows no network yet. */
  empty(): unknown
  render(
    deps: PositionsDeps,
    network: NetworkConfig,
    query: StateQuery,
  ): Promise<Rendered & { asOfLedger: number | null }>
}

/**
 * A decoded protocol activity as a module emits it: the store's own shape for what it writes as an
 * activity row (`DecodedActivity`, store/activities.ts). Modules extend it with their own fields.
 */
export type ProtocolActivity = DecodedActivity

/** A stored activity as a module reads it back to describe it (`details` as stored: integers as decimal strings). */
export interface StoredActivityFields {
  type: string
  contract: string
  asset: string | null
  /** Smallest units, a decimal string. */
  amount: string | null
  details: Record<string, unknown>
}

/**
 * One thing an activity moved, from its `account`'s side: an asset it `sent` or `received`, or a
 * protocol token (LP shares, df-tokens, b-/d-tokens) `minted` to it or `burnt` from it (`sent`
 * when it transferred them).
 */
export interface ActivityLegSpec {
  /** The token's contract (C…), or for b-/d-tokens the reserve's asset; null when the action does not name it. */
  asset: string | null
  role: 'asset' | 'shares' | 'debt'
  direction: 'sent' | 'received' | 'minted' | 'burnt'
  /** Smallest units. */
  amount: bigint
  /**
   * For a protocol token, or an asset the network description does not list: its decimals (null
   * when unknown). Otherwise the description's.
   */
  decimals?: number | null
}

/** An integer a stored activity's `details` hold (as a decimal string), or null when it holds none there. */
export function storedInt(details: Record<string, unknown>, key: string): bigint | null {
  const value = details[key]
  return typeof value === 'string' && /^-?[0-9]+$/.test(value) ? BigInt(value) : null
}

/** What the activities endpoint shows of a stored activity besides its place in the chain. */
export interface ActivityDescription {
  legs: ActivityLegSpec[]
  /** The protocol's other fields; an amount here is in its token's units (decimals), never raw only. */
  details: Record<string, unknown>
}

/** One asset's amounts in a protocol's contracts at a ledger (smallest units of the asset). */
export interface TvlAsset {
  asset: string
  /** What the protocol's contracts hold of it: vault collateral, a pool's supplied minus borrowed, pair reserves, managed funds; null when it holds none by design (a vault protocol's debt token). */
  locked: bigint | null
  /** What users owe in it (vault debt, borrows); null when the protocol lends none of it. */
  borrowed: bigint | null
}

/**
 * `GET /v1/protocols/{name}/tvl`: how a module computes what its contracts hold at a ledger, from
 * the contract-level state it already stores (FxDAO `VaultsInfo` totals, Blend reserves' supply and
 * liabilities, a pair's reserves, a DeFindex vault's total managed funds), never by summing user
 * snapshots: a point costs a few seeks per contract, whatever the number of accounts. The route
 * prices each asset at the ledger and sums; a bucket of a series is this at the bucket's last ledger.
 */
export interface TvlSurface {
  description: string
  lockedAt(
    deps: PositionsDeps,
    network: NetworkConfig,
    ledger: number,
  ): Promise<{
    assets: TvlAsset[]
    /** The latest ledger at which a state entry used was written (null: none yet). */
    asOfLedger: number | null
    /** Some contract's state the answer needs was never seen. */
    partial: boolean
  }>
}

export interface ProtocolModule {
  /** The API path segment and the stored `protocol` of its snapshots (`vaultprotocol`). */
  name: string
  /** What kind of protocol it is, for `GET /v1/protocols`. */
  kind: 'vault' | 'lending' | 'amm' | 'yield'
  /** The network's contracts this module reads (empty when the network has none of its kind). */
  contracts(network: NetworkConfig): ContractInfo[]
  /** The contracts whose instance storage its adapter reads (decoding it costs; name only what is read). */
  instanceStorage(network: NetworkConfig): string[]
  /**
   * Contracts outside the network's protocol list whose entries of a few holders its adapter reads
   * (a DeFindex vault's idle funds are its balance entries in its assets' contracts): contract ->
   * those holders. Only entries keyed `Vec[Symbol, Address(holder)]` are decoded, no events.
   */
  holderEntries?(network: NetworkConfig): Record<string, string[]>
  createAdapter(network: NetworkConfig): ProtocolAdapter
  /**
   * The `type` of every activity its adapter can emit (the activities endpoint refuses any other
   * filter value, naming these); checked against what the adapters store in the cross-protocol tests.
   */
  activityTypes: readonly string[]
  /** Its stored activities' legs and details, read back for the activities endpoint (pure). */
  describeActivity(activity: StoredActivityFields, network: NetworkConfig): ActivityDescription
  /** The key of a stored item (as its adapter wrote it), so the account book can reload a snapshot. */
  itemKey(item: StoredItem): string
  positions: PositionsSurface
  /** The contracts whose history its answers need (coverage: `partial_result` when not all ingested). */
  coverage(network: NetworkConfig): ContractInfo[]
  pools?: PoolSurface
  reserves?: StateSurface
  emissions?: StateSurface
  /** Total value locked, from stored contract state (see `TvlSurface`). */
  tvl?: TvlSurface
}

/** The ledger at which a stored item last changed: the book appends it to every item it writes. */
export const ITEM_LEDGER_FIELD = 'ledger'

/** Where an event-decoded activity sits in the chain: every field of an activity but what it says. */
export type ActivityPlace = Omit<ProtocolActivity, 'type' | 'account'>

/**
 * The activities the events of some contracts announce in one ledger, in apply order: each successful
 * transaction's events of `contracts`, read by the module's `read` (null: bookkeeping, no activity).
 */
export function readEventActivities<A extends ProtocolActivity>(
  ledger: DecodedLedger,
  protocol: string,
  contracts: ReadonlySet<string>,
  read: (where: ActivityPlace, topics: unknown[], data: unknown) => A | null,
): A[] {
  const activities: A[] = []
  for (const tx of ledger.transactions) {
    if (!tx.successful) continue
    tx.events.forEach((event, eventIndex) => {
      if (!contracts.has(event.contract)) return
      const where: ActivityPlace = {
        protocol,
        contract: event.contract,
        ledger: ledger.sequence,
        tx_hash: tx.hash,
        // A Soroban transaction carries exactly one (InvokeHostFunction) operation.
        operation: 0,
        event_index: eventIndex,
      }
      const activity = read(where, event.topics, event.data)
      if (activity) activities.push(activity)
    })
  }
  return activities
}
