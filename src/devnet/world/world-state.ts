import type { xdr } from '@stellar/stellar-sdk'
import type { VaultRecord } from '../fxdao/state.ts'
import type { SacEvents } from '../ledger/sac-events.ts'
import type { ScVal } from '../ledger/scval.ts'
import type { DevnetIdentities } from './identities.ts'
import type { Rng } from './prng.ts'

/** Shared types and constants of the simulated world. Amounts are stroops (7 decimals). */

export const EPOCH_S = 1_735_689_600 // 2025-01-01T00:00:00Z: close times never depend on the wall clock
export const LEDGER_INTERVAL_S = 5
export const ORACLE_INTERVAL_LEDGERS = 60
export const PRICE_ONE = 10n ** 14n
export const STROOPS = 10n ** 7n
/** Persistent vault entries are extended to 28 days of ledgers when written (PERSISTENT_BUMP_CONSTANT). */
export const VAULT_TTL_LEDGERS = 17_280 * 28
/** Reflector's default resolution: a price update every 5 minutes, in milliseconds. */
export const ORACLE_RESOLUTION_MS = 300_000

/** One simulated transaction: an invocation of a contract and what it did to the ledger. */
export interface SimTx {
  source: Uint8Array
  contract: Uint8Array
  fn: string
  args: ScVal[]
  successful: boolean
  /** Empty when the transaction failed: a failed transaction changes nothing. */
  changes: xdr.LedgerEntryChangeWire[]
  events: xdr.ContractEventWire[]
}

export interface SimLedger {
  sequence: number
  closeTime: number
  txs: SimTx[]
  /** Keys archived (evicted) at this ledger: protocol 23 ledgers only. */
  evictedKeys: xdr.LedgerKeyWire[]
}

export interface DenomState {
  name: string
  /** USD per unit, 14 decimals (exactly 1 for USD). */
  price: bigint
  totalCol: bigint
  totalDebt: bigint
  totalVaults: bigint
  /** Open vaults sorted by index ascending; [0] is `lowest_key`. */
  list: VaultRecord[]
  /** The denomination's stablecoin asset contract, and its SAC events. */
  sac: SacEvents
}

export interface WorldState {
  ids: DevnetIdentities
  rng: Rng
  accounts: number
  sequence: number
  closeTime: number
  /** USD per XLM, 14 decimals. */
  xlmPrice: bigint
  denoms: DenomState[]
  vaults: Map<number, VaultRecord>
  open: VaultRecord[]
  /** Ledger until which an account stays dormant. */
  dormantUntil: Int32Array
  /** Bit i set: the account uses denomination i. */
  preferences: Uint8Array
  /** Size multiplier of an account's positions (a few whales among many small holders). */
  scale: Uint8Array
  xlmSac: SacEvents
  /** Protocol 23 ledgers: CAP-67 event forms, eviction. */
  protocol23: boolean
  ttlLedgers: number
  /** lastModifiedLedgerSeq of the vault contract's instance entry. */
  vaultInstanceModified: number
  /** Records by the ledger one of their entries stops being live (stale ones are skipped). */
  expiries: Map<number, VaultRecord[]>
}
