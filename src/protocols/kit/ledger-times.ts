import type { Awaitable } from '../../awaitable.ts'

/** The close times of stored ledgers (the store's `closeTime`). */
export interface LedgerTimes {
  closeTime(ledger: number): Awaitable<number | null>
}

/**
 * The latest ledger in [first, to] whose close time is at or before `time`, by bisection (close
 * times never decrease); null when `first` already closed after it (the store's ledgers do not
 * reach back that far) or a close time is missing.
 */
export async function ledgerClosedBy(
  times: LedgerTimes,
  first: number,
  to: number,
  time: number,
): Promise<number | null> {
  const firstClose = await times.closeTime(first)
  if (firstClose === null || firstClose > time) return null
  let lo = first
  let hi = to
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2)
    const close = await times.closeTime(mid)
    if (close === null) return null
    if (close <= time) lo = mid
    else hi = mid - 1
  }
  return lo
}
