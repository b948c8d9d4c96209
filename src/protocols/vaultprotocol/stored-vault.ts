/**
 * One vault as a `vaultprotocol` snapshot stores it (the `positions` JSON array holds these, sorted
 * by denomination). Integers are decimal strings so no amount ever passes through a float.
 */
export interface StoredVault {
  denomination: string
  /** Collateral in stroops. */
  total_collateral: string
  /** Debt in the denomination's stablecoin (7 decimals), as the contract stores it: it does not accrue. */
  total_debt: string
  /** floor(10^9 × total_collateral / total_debt), as the contract computes it. */
  index: string
  /** Ledger at which this vault itself last changed. */
  ledger: number
}
