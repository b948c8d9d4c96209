import type { ContractInfo } from '../../chain/network.ts'
import { divCeil } from '../../positions/amounts.ts'
import type { StateRow } from '../../store/positions-read.ts'
import { STATE } from './adapt-ledger.ts'

/** Blend v2's fixed-point scales (pool/src/constants.rs): rates 12 decimals, factors 7. */
export const SCALAR_12 = 10n ** 12n
export const SCALAR_7 = 10n ** 7n
const SECONDS_PER_YEAR = 31_536_000n
/** The interest curve's second kink, 95% utilization (pool/src/pool/interest.rs). */
const UTIL_95 = 9_500_000n

export interface PoolReader {
  stateAt(contract: string, key: string, ledger: number): Promise<StateRow | null>
}

/** `ReserveData` as the pool wrote it, with the ledger of that write. */
export interface ReserveData {
  ledger: number
  bRate: bigint
  dRate: bigint
  bSupply: bigint
  dSupply: bigint
  backstopCredit: bigint
  irMod: bigint
  lastTime: bigint
}

/** `ReserveConfig` (v2) as the pool wrote it. */
export interface ReserveConfig {
  ledger: number
  index: number
  decimals: number
  cFactor: bigint
  lFactor: bigint
  util: bigint
  maxUtil: bigint
  rBase: bigint
  rOne: bigint
  rTwo: bigint
  rThree: bigint
  reactivity: bigint
  supplyCap: bigint | null
  enabled: boolean | null
}

/** One reserve of one pool at a ledger: what the store knows of it, each part null when unknown. */
export interface ReserveAt {
  asset: string | null
  decimals: number | null
  data: ReserveData | null
  config: ReserveConfig | null
}

type Json = Record<string, unknown>

function big(value: unknown): bigint {
  if (typeof value === 'string' || typeof value === 'number') return BigInt(value)
  throw new TypeError(`not an integer: ${String(value)}`)
}

export function parseReserveData(row: StateRow): ReserveData {
  const v = JSON.parse(row.value) as Json
  return {
    ledger: row.ledger,
    bRate: big(v.b_rate),
    dRate: big(v.d_rate),
    bSupply: big(v.b_supply),
    dSupply: big(v.d_supply),
    backstopCredit: big(v.backstop_credit),
    irMod: big(v.ir_mod),
    lastTime: big(v.last_time),
  }
}

export function parseReserveConfig(row: StateRow): ReserveConfig {
  const v = JSON.parse(row.value) as Json
  return {
    ledger: row.ledger,
    index: Number(v.index),
    decimals: Number(v.decimals),
    cFactor: big(v.c_factor),
    lFactor: big(v.l_factor),
    util: big(v.util),
    maxUtil: big(v.max_util),
    rBase: big(v.r_base),
    rOne: big(v.r_one),
    rTwo: big(v.r_two),
    rThree: big(v.r_three),
    reactivity: big(v.reactivity),
    supplyCap: v.supply_cap === undefined ? null : big(v.supply_cap),
    enabled: typeof v.enabled === 'boolean' ? v.enabled : null,
  }
}

/** The pool's reserve list (`ResList`) at a ledger: asset contracts by reserve index; null when never seen. */
export async function reserveListAt(reader: PoolReader, pool: string, ledger: number): Promise<string[] | null> {
  const row = await reader.stateAt(pool, STATE.resList, ledger)
  if (!row) return null
  const list = JSON.parse(row.value) as unknown
  return Array.isArray(list) ? list.map(String) : null
}

/**
 * A reserve by index at a ledger. The asset comes from the pool's `ResList` as indexed, else from
 * the network description (a list written before the store's first ledger); rates and config from
 * the latest `ResData`/`ResConfig` at or before the ledger.
 */
export async function readReserve(
  reader: PoolReader,
  pool: ContractInfo | null,
  poolAddress: string,
  index: number,
  ledger: number,
): Promise<ReserveAt> {
  const list = await reserveListAt(reader, poolAddress, ledger)
  const asset = list?.[index] ?? pool?.reserves?.[String(index)] ?? null
  if (asset === null) return { asset: null, decimals: null, data: null, config: null }
  return readReserveOf(reader, poolAddress, asset, ledger)
}

/** A reserve by asset at a ledger. */
export async function readReserveOf(
  reader: PoolReader,
  poolAddress: string,
  asset: string,
  ledger: number,
): Promise<ReserveAt> {
  const [dataRow, configRow] = await Promise.all([
    reader.stateAt(poolAddress, STATE.resData(asset), ledger),
    reader.stateAt(poolAddress, STATE.resConfig(asset), ledger),
  ])
  const config = configRow ? parseReserveConfig(configRow) : null
  return {
    asset,
    decimals: config?.decimals ?? null,
    data: dataRow ? parseReserveData(dataRow) : null,
    config,
  }
}

/** Underlying supplied and borrowed by a reserve: b_supply and d_supply at their rates (Blend's rounding). */
export function reserveTotals(data: ReserveData): { supplied: bigint; borrowed: bigint } {
  return {
    supplied: (data.bSupply * data.bRate) / SCALAR_12,
    borrowed: divCeil(data.dSupply * data.dRate, SCALAR_12),
  }
}

/**
 * Utilization with 7 decimals as the pool computes it: min(1, ceil(borrowed × 10^7 / supplied)),
 * 0 with nothing supplied.
 */
export function utilization(data: ReserveData): bigint {
  const { supplied, borrowed } = reserveTotals(data)
  if (supplied === 0n) return 0n
  const util = divCeil(borrowed * SCALAR_7, supplied)
  return util > SCALAR_7 ? SCALAR_7 : util
}

/**
 * The borrow rate of the interest curve at a utilization, 7 decimals (pool/src/pool/interest.rs
 * `calc_accrual`, rounded up as the contract does): three segments split at the target
 * utilization and at 95%, scaled by the rate modifier `ir_mod` (7 decimals).
 */
export function borrowRate(config: ReserveConfig, irMod: bigint, util: bigint): bigint {
  const target = config.util
  if (util <= target) {
    const base = target === 0n ? config.rBase : config.rBase + divCeil(config.rOne * util, target)
    return divCeil(base * irMod, SCALAR_7)
  }
  if (util <= UTIL_95) {
    const slope = divCeil(config.rTwo * (util - target), UTIL_95 - target)
    return divCeil((config.rBase + config.rOne + slope) * irMod, SCALAR_7)
  }
  const base = divCeil((config.rBase + config.rOne + config.rTwo) * irMod, SCALAR_7)
  const extra = divCeil(config.rThree * (util - UTIL_95), SCALAR_7 - UTIL_95)
  return base + extra
}

/**
 * Borrow and supply APR with 7 decimals, as Blend's SDK shows them (blend-sdk-js reserve.ts
 * `setRates`): borrow = the curve's rate; supply = borrow × utilization × (1 − backstop take rate),
 * rounded down. Simple annual rates, not compounded.
 */
export function reserveAprs(
  config: ReserveConfig,
  data: ReserveData,
  backstopRate: bigint,
): { borrowApr: bigint; supplyApr: bigint; util: bigint } {
  const util = utilization(data)
  const borrowApr = borrowRate(config, data.irMod, util)
  const supplyApr = (((borrowApr * util) / SCALAR_7) * (SCALAR_7 - backstopRate)) / SCALAR_7
  return { borrowApr, supplyApr, util }
}

export { SECONDS_PER_YEAR }
