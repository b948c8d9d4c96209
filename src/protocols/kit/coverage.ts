import type { ContractInfo } from '../../chain/network.ts'

/** Stellar's genesis is ledger 1; a store that starts at ledger 2 or below holds all history. */
const FIRST_LEDGER_AFTER_GENESIS = 2

/**
 * Whether a store whose knowledge starts at `firstIndexed` holds everything a contract did up to
 * `ledger`: either the store starts no later than the contract's deployment, or the ledger is
 * before the contract existed. A contract whose start is unknown is complete only from genesis.
 * An answer that fails this is `partial_result: true`, never a confident "held nothing".
 */
export function historyComplete(
  contract: ContractInfo,
  firstIndexed: number | null,
  ledger: number,
): boolean {
  if (firstIndexed === null) return false
  if (firstIndexed <= FIRST_LEDGER_AFTER_GENESIS) return true
  const start = contract.start_ledger
  if (start === null) return false
  return ledger < start || firstIndexed <= start
}
