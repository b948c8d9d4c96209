/**
 * One vault as a `vaultprotocol` snapshot stores it (the `positions` JSON array holds these, sorted
 * by denomination). Integers are decimal strings so no amount ever passes through a float.
 */
export interface StoredVault {
  denomination: string
  /** Collateral in stroops. */
  total_collateral: string
  /** Normalised debt: debt = ceil(total_debt × debt_rate / 10^12). */
  total_debt: string
  /** The denomination's debt_rate (12 decimals) at the end of the ledger this vault last changed. */
  debt_rate: string
  /** 10^9 × total_collateral / total_debt, as the contract computes it. */
  index: string
  /** Ledger at which this vault itself last changed. */
  ledger: number
}
