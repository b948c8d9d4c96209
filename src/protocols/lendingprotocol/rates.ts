import { divCeil, pow10 } from '../kit/amounts.ts'
import { SCALAR_7 } from '../kit/scales.ts'
import type { EmissionData } from './emissions.ts'
import { curveRate, type ReserveConfig, type ReserveData, reserveTotals, utilization } from './reserves.ts'

/**
 * The figures Blend's UI shows for a reserve (blend-sdk-js reserve.ts `setRates`, emissions.ts
 * `emissionsPerYearPerToken`; blend-ui `estimateEmissionsApr`), in fixed-point integers with 7
 * decimals: APRs from the interest curve, APYs compounded from them, and the BLND emission APR.
 */

/** A year as Blend counts it: 365 days (interest.rs accrual, the SDK's emissions per year). */
export const SECONDS_PER_YEAR = 31_536_000n
/** The SDK compounds borrowing daily and supplying weekly, so each APY errs on the user's safe side. */
export const BORROW_COMPOUNDING_PERIODS = 365n
export const SUPPLY_COMPOUNDING_PERIODS = 52n
/** `eps` of `EmisData` has 14 decimals (BLND's 7 × SCALAR_7). */
const EPS_DECIMALS = 14

export type RatesProblem = 'rate_missing' | 'config_missing' | 'pool_config_missing'

/** A reserve's rates at a ledger, 7 decimals; each null when an entry it needs was never seen. */
export interface ReserveRates {
  util: bigint | null
  borrowApr: bigint | null
  supplyApr: bigint | null
  borrowApy: bigint | null
  supplyApy: bigint | null
  /** The first entry missing (`ResData`, then `ResConfig`, then the pool's `Config`); null when every rate is set. */
  problem: RatesProblem | null
}

/** Working precision of the fast path of `compoundedApy`: far beyond the 7 decimals printed. */
const BOUND_SCALE = 10n ** 40n

/** base^exponent at BOUND_SCALE by squaring, every product rounded down (or up): a bound of the exact power. */
function powBound(base: bigint, exponent: bigint, up: boolean): bigint {
  const mul = (a: bigint, b: bigint) => (up ? divCeil(a * b, BOUND_SCALE) : (a * b) / BOUND_SCALE)
  let result = BOUND_SCALE
  let square = base
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = mul(result, square)
    square = mul(square, square)
  }
  return result
}

/**
 * (1 + apr / periods)^periods − 1 with `apr` at 7 decimals, rounded once to 7 decimals: up for a
 * borrow rate, down for a supply rate, so that like the SDK's choice of periods the figure never
 * flatters the user. The value is exact: a lower and an upper bound at 40 decimals settle it
 * unless they straddle a rounding step, and then the exact fraction of integers does.
 */
export function compoundedApy(apr: bigint, periods: bigint, roundUp: boolean): bigint {
  const unit = periods * SCALAR_7
  const round = (numerator: bigint, denominator: bigint) =>
    roundUp ? divCeil(numerator, denominator) : numerator / denominator
  const low = powBound(((unit + apr) * BOUND_SCALE) / unit, periods, false)
  const high = powBound(divCeil((unit + apr) * BOUND_SCALE, unit), periods, true)
  const fromLow = round((low - BOUND_SCALE) * SCALAR_7, BOUND_SCALE)
  if (fromLow === round((high - BOUND_SCALE) * SCALAR_7, BOUND_SCALE)) return fromLow
  const denominator = unit ** periods
  return round(((unit + apr) ** periods - denominator) * SCALAR_7, denominator)
}

/**
 * Utilization, borrow and supply APR as the SDK's `setRates` computes them (the interest curve at
 * the reserve's utilization and `ir_mod`; supply = floor(borrow × floor((1 − backstop take rate) ×
 * utilization)); with nothing borrowed, `r_base` and 0), and their APYs: borrow compounded daily,
 * supply weekly.
 */
export function reserveRates(
  config: ReserveConfig | null,
  data: ReserveData | null,
  backstopRate: bigint | null,
): ReserveRates {
  const none = { util: null, borrowApr: null, supplyApr: null, borrowApy: null, supplyApy: null }
  if (data === null) return { ...none, problem: 'rate_missing' }
  const util = utilization(data)
  if (config === null) return { ...none, util, problem: 'config_missing' }
  const borrowApr = util === 0n ? config.rBase : curveRate(config, data.irMod, util)
  const borrowApy = compoundedApy(borrowApr, BORROW_COMPOUNDING_PERIODS, true)
  if (backstopRate === null) return { ...none, util, borrowApr, borrowApy, problem: 'pool_config_missing' }
  const capture = ((SCALAR_7 - backstopRate) * util) / SCALAR_7
  const supplyApr = util === 0n ? 0n : (borrowApr * capture) / SCALAR_7
  const supplyApy = compoundedApy(supplyApr, SUPPLY_COMPOUNDING_PERIODS, false)
  return { util, borrowApr, supplyApr, borrowApy, supplyApy, problem: null }
}

export type EmissionAprProblem =
  | 'emissions_missing'
  | 'rate_missing'
  | 'config_missing'
  | 'close_time_missing'
  | 'no_holders'
  | 'emission_token_missing'
  | 'price_missing'
  | 'price_stale'

/** A USD price in units of 10^-decimals USD, or why there is none. */
export interface PriceInput {
  price: bigint
  decimals: number
  problem: 'price_missing' | 'price_stale' | null
}

export interface EmissionAprInput {
  /** The token's `EmisData` at the ledger; null when absent. */
  emission: EmissionData | null
  /** Whether the store holds the pool's whole history up to the ledger: an absent entry is then truly absent. */
  historyComplete: boolean
  /** The reserve's `ResData`; null when never seen. */
  data: ReserveData | null
  /** The b-token (suppliers) or the d-token (borrowers). */
  side: 'supply' | 'borrow'
  /** The asset's decimals; null when unknown. */
  decimals: number | null
  /** The ledger's close time (epoch seconds); null when unknown. */
  closeTime: number | null
  /** The pool's emitted token (`BLNDTkn`) is known. */
  tokenKnown: boolean
  /** Asked only when the answer depends on them. */
  assetPrice: () => Promise<PriceInput>
  blndPrice: () => Promise<PriceInput>
}

/**
 * BLND a year per dollar held, 7 decimals rounded down: eps × 31,536,000 × BLND price ÷ (the
 * reserve's underlying supplied (b-token) or borrowed (d-token) × the asset's price), which is the
 * SDK's emissions per year per token × BLND price ÷ asset price. A token with no `EmisData` in a
 * history the store holds whole, no eps, or emissions expired at the ledger's close time emits
 * nothing: 0. Otherwise null with the reason when an input is unknown or no one holds the token.
 */
export async function emissionApr(
  input: EmissionAprInput,
): Promise<{ apr: bigint | null; problem: EmissionAprProblem | null }> {
  const fail = (problem: EmissionAprProblem) => ({ apr: null, problem })
  const { emission } = input
  if (emission === null) return input.historyComplete ? { apr: 0n, problem: null } : fail('emissions_missing')
  if (emission.eps === 0n) return { apr: 0n, problem: null }
  if (input.closeTime === null) return fail('close_time_missing')
  if (emission.expiration <= BigInt(input.closeTime)) return { apr: 0n, problem: null }
  if (input.data === null) return fail('rate_missing')
  if (input.decimals === null) return fail('config_missing')
  const totals = reserveTotals(input.data)
  const held = input.side === 'supply' ? totals.supplied : totals.borrowed
  if (held === 0n) return fail('no_holders')
  if (!input.tokenKnown) return fail('emission_token_missing')
  const asset = await input.assetPrice()
  if (asset.problem !== null) return fail(asset.problem)
  const blnd = await input.blndPrice()
  if (blnd.problem !== null) return fail(blnd.problem)
  if (asset.price === 0n) return fail('price_missing')
  const numerator =
    emission.eps * SECONDS_PER_YEAR * blnd.price * pow10(input.decimals + asset.decimals) * SCALAR_7
  const denominator = pow10(EPS_DECIMALS + blnd.decimals) * held * asset.price
  return { apr: numerator / denominator, problem: null }
}
