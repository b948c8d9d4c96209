import type { xdr } from '@stellar/stellar-sdk'
import type { ScVal } from './ledger/scval.ts'
import type { SimTx, WorldState } from './world/world-state.ts'

/** An account address (a `G…` key) as its number in the simulated population, or undefined. */
export type AccountOf = (address: ScVal | undefined) => number | undefined

/**
 * One simulated contract family (FxDAO, Reflector, Blend, DeFindex, Soroswap), as the world drives
 * it: its contracts deployed in the first ledger, then its transactions ledger after ledger, and
 * its current entries for `getLedgerEntries`. Each ledger is a pure function of the seed and the past.
 */
export interface SimulatedProtocol {
  /** Short name, for messages. */
  readonly name: string
  /**
   * True: the contracts are deployed before any protocol acts in the first ledger, and the protocol
   * acts in that ledger too (the oracle and the vaults exist from the start ledger on). False: the
   * deployment takes the protocol's turn in the first ledger and it acts from the next one.
   */
  readonly actsInDeployLedger: boolean
  /** The transactions that deploy and set up the contracts, in the first ledger. */
  deployTxs(w: WorldState): SimTx[]
  /** The transactions of this ledger (see `actsInDeployLedger` for the first one). */
  ledgerTxs(w: WorldState): SimTx[]
  /** Keys of entries archived (evicted) at this ledger, asked first every ledger; none by default. */
  evictExpired?(w: WorldState): xdr.LedgerKeyWire[]
  /**
   * The current live entry under a contract-data key; null when the contract is the protocol's
   * but holds no such live entry; undefined when the contract is none of the protocol's.
   */
  lookupEntry(
    w: WorldState,
    contract: Buffer,
    key: ScVal,
    durability: number,
    accountOf: AccountOf,
  ): xdr.LedgerEntryWire | null | undefined
}
