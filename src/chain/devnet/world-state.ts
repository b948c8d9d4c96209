import type { xdr } from '@stellar/stellar-sdk'
import type { DevnetIdentities } from './identities.ts'
import type { Rng } from './prng.ts'
import type { ScVal } from './scval.ts'

/** Shared types and constants of the simulated world. Amounts are stroops (7 decimals). */

export const EPOCH_S = 1_735_689_600 // 2025-01-01T00:00:00Z: close times never depend on the wall clock
export const LEDGER_INTERVAL_S = 5
export const ORACLE_INTERVAL_LEDGERS = 60
export const FEE_REVIEW_INTERVAL_LEDGERS = 720
export const RATE_ONE = 10n ** 12n
export const PRICE_ONE = 10n ** 14n
export const STROOPS = 10n ** 7n
export const SECONDS_PER_YEAR = 31_536_000n
/** Collateral ratios carry 7 decimals, as the modelled contract stores them. */
export const MIN_COL_RATE = 11_000_000n
export const OPENING_COL_RATE = 11_500_000n
export const MIN_DEBT_CREATION = 100n * STROOPS

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
}

export interface VaultRecord {
  account: number
  denom: number
  collateral: bigint
  /** Normalised debt. */
  debt: bigint
  lastModified: number
  /** Position in WorldState.open, for O(1) removal. */
  slot: number
}

export interface DenomState {
  name: string
  debtRate: bigint
  /** Annual stability fee in basis points; it moves over time. */
  feeBps: number
  lastAccrualS: number
  totalCol: bigint
  totalDebt: bigint
  totalVaults: bigint
  lastModified: number
  /** USD per unit, 14 decimals (exactly 1 for USD). */
  price: bigint
}

export interface WorldState {
  ids: DevnetIdentities
  rng: Rng
  accounts: number
  sequence: number
  closeTime: number
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
}

export function vaultMapKey(account: number, denom: number): number {
  return account * 4 + denom
}
