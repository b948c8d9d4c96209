import type { TSchema } from 'typebox'
import type { DecodedLedger } from '../chain/decode-ledger.ts'
import type { ContractInfo, NetworkConfig } from '../chain/network.ts'
import type { PositionsReader } from '../store/positions-read.ts'

/**
 * What every protocol module provides. A protocol is one folder under `protocols/` exporting one
 * `ProtocolModule`; the registry lists them, and the pipeline, the store and the API loop over the
 * registered modules without naming any. A module never imports another module, `api/` or
 * `indexer/` (test/layering.test.ts walks the imports).
 */

/** JSON values as stored: integers that may exceed 2^53 are decimal strings, never numbers. */
export type StoredScalar = string | number | boolean | null
export type StoredValue = StoredScalar | StoredValue[] | { [key: string]: StoredValue }
export type StoredItem = { [key: string]: StoredValue }

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

/** What one ledger did to a protocol: position groups of accounts, and contract state. In apply order. */
export interface ProtocolLedgerFacts {
  accounts: AccountGroupChange[]
  states: ContractStateChange[]
}

/** The indexing side of a module for one network: pure, with memory only of what it read before. */
export interface ProtocolAdapter {
  adaptLedger(ledger: DecodedLedger): ProtocolLedgerFacts
}

/** A positions question: the latest snapshot at or before the pin, or valued at the pin (`/at`). */
export interface PositionsQuery {
  address: string
  /** The pin as requested (int64), or null when omitted. */
  pin: number | bigint | null
  /** The `/at/{ledger}` surface: shares valued with the rates and prices at the pin. */
  atPin: boolean
}

export interface PositionsDeps {
  reader: PositionsReader
  network: NetworkConfig | null
  maxPriceAgeS: number
  /** Epoch seconds, for data staleness. */
  nowS: number
}

/** Every data answer: `data`, `enrichment`, `meta` (the route fills `response_time_ms`). */
export interface PositionsAnswer {
  data: unknown
  enrichment: unknown
  meta: { response_time_ms: number }
}

/** How a module answers `GET /v1/users/{address}/positions/{name}` and its `/at/{ledger}` surface. */
export interface PositionsSurface {
  /** The response schema (serialization and OpenAPI). */
  schema: TSchema
  summary: string
  description: string
  atSummary: string
  atDescription: string
  answer(deps: PositionsDeps, query: PositionsQuery): Promise<PositionsAnswer>
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
  createAdapter(network: NetworkConfig): ProtocolAdapter
  /** The key of a stored item (as its adapter wrote it), so the account book can reload a snapshot. */
  itemKey(item: StoredItem): string
  positions: PositionsSurface
}

/** The ledger at which a stored item last changed: the book appends it to every item it writes. */
export const ITEM_LEDGER_FIELD = 'ledger'
