import type { PositionsValue, ReserveConfigValue, ReserveDataValue, TokenMap } from './layout.ts'

/** Blend's fixed-point arithmetic, interest accrual, positions and health factor (pool/src/pool/). */

export const SCALAR_7 = 10_000_000n
/** 12-decimal fixed point (b/d-token rates). */
export const SCALAR_12 = 1_000_000_000_000n
const SECONDS_PER_YEAR = 31_536_000n
/** `submit` refuses a health factor under 1.0000100 (submit.rs `validate_submit`). */
export const MIN_HF = 10_000_100n
/** The oracle's 14 decimals (prices, health factors). */
export const ORACLE_SCALAR = 10n ** 14n

/** `submit`'s request types 0-5 (pool/src/pool/actions.rs). */
export const RequestType = {
  Supply: 0,
  Withdraw: 1,
  SupplyCollateral: 2,
  WithdrawCollateral: 3,
  Borrow: 4,
  Repay: 5,
} as const

/** The pool event emitted for each request type, by its number. */
export const EVENT_NAMES = [
  'supply',
  'withdraw',
  'supply_collateral',
  'withdraw_collateral',
  'borrow',
  'repay',
]

// ---------------------------------------------------------------------------------------------
// Fixed-point arithmetic (soroban-fixed-point-math): floor and ceil are mathematical, also below zero.

/** a / b rounded towards minus infinity. */
export function divFloor(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q
}

/** a / b rounded towards plus infinity. */
export function divCeil(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n === b < 0n ? q + 1n : q
}

/** x × y / d, rounded down. */
export const mulFloor = (x: bigint, y: bigint, d: bigint) => divFloor(x * y, d)
/** x × y / d, rounded up. */
export const mulCeil = (x: bigint, y: bigint, d: bigint) => divCeil(x * y, d)

// ---------------------------------------------------------------------------------------------
// Reserves (reserve.rs, interest.rs)

/** Underlying worth of `b` b-tokens, rounded down. */
export function toAssetFromB(d: ReserveDataValue, b: bigint): bigint {
  return mulFloor(b, d.bRate, SCALAR_12)
}

/** Underlying owed for `dTokens` d-tokens, rounded up. */
export function toAssetFromD(d: ReserveDataValue, dTokens: bigint): bigint {
  return mulCeil(dTokens, d.dRate, SCALAR_12)
}

/** Liabilities over supply, 7 decimals. */
export function utilization(d: ReserveDataValue): bigint {
  const liabilities = toAssetFromD(d, d.dSupply)
  const supply = toAssetFromB(d, d.bSupply)
  if (liabilities === 0n) return 0n
  if (liabilities >= supply) return SCALAR_7
  return divCeil(liabilities * SCALAR_7, supply)
}

/** `calc_accrual`: the 12-decimal accrual factor and the new rate modifier. */
export function calcAccrual(
  c: ReserveConfigValue,
  util: bigint,
  irMod: bigint,
  dt: bigint,
): [bigint, bigint] {
  const target = BigInt(c.util)
  const rBase = BigInt(c.rBase)
  const rOne = BigInt(c.rOne)
  const rTwo = BigInt(c.rTwo)
  let curIr: bigint
  if (util <= target) {
    const utilScalar = divCeil(util * SCALAR_7, target)
    const baseRate = mulCeil(utilScalar, rOne, SCALAR_7) + rBase
    curIr = mulCeil(baseRate, irMod, SCALAR_7)
  } else if (util <= 9_500_000n) {
    const utilScalar = divCeil((util - target) * SCALAR_7, 9_500_000n - target)
    const baseRate = mulCeil(utilScalar, rTwo, SCALAR_7) + rOne + rBase
    curIr = mulCeil(baseRate, irMod, SCALAR_7)
  } else {
    const utilScalar = divCeil((util - 9_500_000n) * SCALAR_7, 500_000n)
    const extra = mulCeil(utilScalar, BigInt(c.rThree), SCALAR_7)
    curIr = extra + mulCeil(irMod, rTwo + rOne + rBase, SCALAR_7)
  }
  const utilDif = util - target
  const reactivity = BigInt(c.reactivity)
  let newIrMod: bigint
  if (utilDif >= 0n) {
    const next = irMod + mulFloor(dt * utilDif, reactivity, SCALAR_7)
    newIrMod = next > 10n * SCALAR_7 ? 10n * SCALAR_7 : next
  } else {
    const next = irMod + mulCeil(dt * utilDif, reactivity, SCALAR_7)
    newIrMod = next < SCALAR_7 / 10n ? SCALAR_7 / 10n : next
  }
  const timeWeight = (dt * SCALAR_12) / SECONDS_PER_YEAR
  return [SCALAR_12 + mulCeil(timeWeight, curIr, SCALAR_7), newIrMod]
}

/** `Reserve::load`: the reserve data accrued to `now` (a new object; the input is left alone). */
export function accrueReserve(
  c: ReserveConfigValue,
  data: ReserveDataValue,
  bstopRate: number,
  now: bigint,
): ReserveDataValue {
  const d = { ...data }
  if (now === d.lastTime) return d
  const util = utilization(d)
  if (d.bSupply === 0n || util === 0n) {
    d.lastTime = now
    return d
  }
  const [accrual, irMod] = calcAccrual(c, util, d.irMod, now - d.lastTime)
  d.irMod = irMod
  const preLiabilities = toAssetFromD(d, d.dSupply)
  d.dRate = mulCeil(accrual, d.dRate, SCALAR_12)
  const accrued = toAssetFromD(d, d.dSupply) - preLiabilities
  const preSupply = toAssetFromB(d, d.bSupply)
  if (accrued > 0n) {
    let credit = 0n
    if (bstopRate > 0) {
      credit = mulFloor(accrued, BigInt(bstopRate), SCALAR_7)
      d.backstopCredit += credit
    }
    d.bRate = divFloor((preSupply + accrued - credit) * SCALAR_12, d.bSupply)
  }
  d.lastTime = now
  return d
}

/** A user without positions. */
export function emptyPositions(): PositionsValue {
  return { collateral: new Map(), liabilities: new Map(), supply: new Map() }
}

/** A copy a transaction can change and then commit or drop. */
export function clonePositions(p: PositionsValue): PositionsValue {
  return { collateral: new Map(p.collateral), liabilities: new Map(p.liabilities), supply: new Map(p.supply) }
}

/** Adds `v` to a balance. */
export const add = (m: TokenMap, i: number, v: bigint) => m.set(i, (m.get(i) ?? 0n) + v)
/** Removes `v`; a zero balance leaves the map (user.rs `remove_*`). */
export function remove(m: TokenMap, i: number, v: bigint): boolean {
  const next = (m.get(i) ?? 0n) - v
  if (next < 0n) return false
  if (next === 0n) m.delete(i)
  else m.set(i, next)
  return true
}

/** A user's collateral and liabilities in the oracle's base, effective and raw. */
export interface PositionBase {
  collateralBase: bigint
  liabilityBase: bigint
  collateralRaw: bigint
  liabilityRaw: bigint
}

/** PositionData: health factor in the oracle's decimals (`as_health_factor`). */
const healthFactor = (p: PositionBase) => divFloor(p.collateralBase * ORACLE_SCALAR, p.liabilityBase)
/** `is_hf_over(max)`, max in 7 decimals. */
export const isHfOver = (p: PositionBase, max: bigint) =>
  p.liabilityBase === 0n || healthFactor(p) > mulCeil(ORACLE_SCALAR, max, SCALAR_7)
/** `is_hf_under(min)`, min in 7 decimals. */
export const isHfUnder = (p: PositionBase, min: bigint) =>
  p.liabilityBase !== 0n && healthFactor(p) < mulFloor(ORACLE_SCALAR, min, SCALAR_7)
