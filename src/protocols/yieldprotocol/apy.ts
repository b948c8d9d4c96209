/**
 * A vault's APY from its price-per-share history, in fixed-point integers (no floating point):
 *
 *   growth = pps_to / pps_from
 *   apy    = growth ^ (YEAR / (close_to − close_from)) − 1      (compounded, 365-day year)
 *
 * computed as exp(ln(growth) × YEAR / elapsed) with WORK_DECIMALS of precision and printed with
 * APY_DECIMALS, rounded down. `from` is the latest ledger whose close time is at least the window
 * before the pin's (7 or 30 days of close time), found by bisection over the stored ledgers.
 */

/** APY is a fraction printed with 7 decimals ("0.0523000" is 5.23 %), as the lending APRs are. */
export const APY_DECIMALS = 7
/** The windows reported, in days of close time. */
export const APY_WINDOWS = [7, 30] as const
const DAY_S = 86_400
const YEAR_S = 365 * DAY_S
/** Internal precision of ln and exp. */
const WORK_DECIMALS = 36
const ONE = 10n ** BigInt(WORK_DECIMALS)

/** ln(x) for x > 0, x and the result at WORK_DECIMALS: 2·atanh((x − 1) / (x + 1)), halving x into [1/2, 2] first. */
export function lnFixed(x: bigint): bigint {
  if (x <= 0n) throw new RangeError('ln of a non-positive number')
  // ln(x) = k·ln(2) + ln(x / 2^k), with x / 2^k in [0.5, 2) where the series converges fast.
  let k = 0n
  let y = x
  while (y >= 2n * ONE) {
    y /= 2n
    k++
  }
  while (y < ONE / 2n) {
    y *= 2n
    k--
  }
  return k * LN2 + atanhSeries(y)
}

function atanhSeries(y: bigint): bigint {
  const z = ((y - ONE) * ONE) / (y + ONE)
  const z2 = (z * z) / ONE
  let term = z
  let sum = 0n
  for (let n = 1n; term !== 0n; n += 2n) {
    sum += term / n
    term = (term * z2) / ONE
  }
  return 2n * sum
}

const LN2 = atanhSeries(2n * ONE)

/** e^x for x at WORK_DECIMALS: e^(x / 2^k) squared k times, the Taylor series for the small part. */
export function expFixed(x: bigint): bigint {
  let k = 0
  let y = x
  while (y > ONE / 8n || y < -ONE / 8n) {
    y /= 2n
    k++
  }
  let term = ONE
  let sum = ONE
  for (let n = 1n; term !== 0n; n++) {
    term = (term * y) / (ONE * n)
    sum += term
  }
  for (let i = 0; i < k; i++) sum = (sum * sum) / ONE
  return sum
}

/**
 * (to / from) ^ (YEAR / elapsedS) − 1 with APY_DECIMALS, rounded toward zero; null when a price is
 * not positive or no time passed.
 */
export function annualize(from: bigint, to: bigint, elapsedS: number): bigint | null {
  if (from <= 0n || to <= 0n || elapsedS <= 0) return null
  const growth = (to * ONE) / from
  const exponent = (lnFixed(growth) * BigInt(YEAR_S)) / BigInt(elapsedS)
  // Beyond e^40 (an absurd yield) the number is not worth printing exactly.
  if (exponent > 40n * ONE) return null
  return (expFixed(exponent) - ONE) / 10n ** BigInt(WORK_DECIMALS - APY_DECIMALS)
}

export const WINDOW_SECONDS = (days: number) => days * DAY_S
