import type { ContractInfo } from '../../chain/network.ts'
import { divCeil } from '../kit/amounts.ts'
import type { StateRow } from '../kit/protocol-module.ts'
import { SCALAR_7, SCALAR_12 } from '../kit/scales.ts'
import { STATE } from './adapt-ledger.ts'

/** The interest curve's second kink, 95% utilization, and what lies above it (pool/src/pool/interest.rs). */
const UTIL_95 = 9_500_000n
const UTIL_5 = 500_000n

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

/** `PoolConfig` (instance storage) as the pool wrote it. */
export interface PoolConfig {
  ledger: number
  oracle: string
  bstopRate: bigint
  status: number
  maxPositions: number
  minCollateral: bigint
}

/** One reserve of one pool at a ledger: what the store knows of it, each part null when unknown. */
export interface ReserveAt {
  asset: string | null
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

export function parsePoolConfig(row: StateRow): PoolConfig {
  const v = JSON.parse(row.value) as Json
  return {
    ledger: row.ledger,
    oracle: String(v.oracle),
    bstopRate: big(v.bstop_rate),
    status: Number(v.status),
    maxPositions: Number(v.max_positions),
    minCollateral: big(v.min_collateral),
  }
}

/** The pool's reserve list (`ResList`) at a ledger: asset contracts by reserve index; null when never seen. */
export async function reserveListAt(
  reader: PoolReader,
  pool: string,
  ledger: number,
): Promise<string[] | null> {
  const row = await reader.stateAt(pool, STATE.resList, ledger)
  if (!row) return null
  const list = JSON.parse(row.value) as unknown
  return Array.isArray(list) ? list.map(String) : null
}

/**
 * The assets of a pool's reserves by index at a ledger: the pool's `ResList` as indexed, completed
 * by the network description (a list written before the store's first ledger). `ResList` only
 * grows, so an index names the same asset at every ledger.
 */
export async function reserveAssetsAt(
  reader: PoolReader,
  pool: ContractInfo,
  ledger: number,
): Promise<Map<number, string>> {
  const assets = new Map<number, string>()
  for (const [index, asset] of Object.entries(pool.reserves ?? {})) assets.set(Number(index), asset)
  const list = await reserveListAt(reader, pool.address, ledger)
  for (const [index, asset] of (list ?? []).entries()) assets.set(index, asset)
  return new Map([...assets].sort(([a], [b]) => a - b))
}

/** A reserve by index at a ledger: rates and config are the latest `ResData`/`ResConfig` at or before it. */
export async function readReserve(
  reader: PoolReader,
  pool: ContractInfo,
  index: number,
  ledger: number,
): Promise<ReserveAt> {
  const asset = (await reserveAssetsAt(reader, pool, ledger)).get(index) ?? null
  if (asset === null) return { asset: null, data: null, config: null }
  return readReserveOf(reader, pool.address, asset, ledger)
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
  return {
    asset,
    data: dataRow ? parseReserveData(dataRow) : null,
    config: configRow ? parseReserveConfig(configRow) : null,
  }
}

/** b-tokens to underlying, rounded down (reserve.rs `to_asset_from_b_token`). */
export const toAssetFromB = (tokens: bigint, bRate: bigint) => (tokens * bRate) / SCALAR_12
/** d-tokens to underlying, rounded up (reserve.rs `to_asset_from_d_token`). */
export const toAssetFromD = (tokens: bigint, dRate: bigint) => divCeil(tokens * dRate, SCALAR_12)

/** Underlying supplied and borrowed by a reserve: b_supply and d_supply at their rates (Blend's rounding). */
export function reserveTotals(data: ReserveData): { supplied: bigint; borrowed: bigint } {
  return {
    supplied: toAssetFromB(data.bSupply, data.bRate),
    borrowed: toAssetFromD(data.dSupply, data.dRate),
  }
}

/**
 * Utilization with 7 decimals as the pool computes it (reserve.rs `utilization`): 0 with nothing
 * borrowed, 1 when borrowed reaches supplied, else ceil(borrowed × 10^7 / supplied).
 */
export function utilization(data: ReserveData): bigint {
  const { supplied, borrowed } = reserveTotals(data)
  if (borrowed === 0n) return 0n
  if (borrowed >= supplied) return SCALAR_7
  return divCeil(borrowed * SCALAR_7, supplied)
}

const mulCeil7 = (a: bigint, b: bigint) => divCeil(a * b, SCALAR_7)
const divCeil7 = (a: bigint, b: bigint) => divCeil(a * SCALAR_7, b)

/**
 * The borrow rate of the interest curve at a utilization, 7 decimals, step by step as
 * `calc_accrual` (interest.rs) and the SDK's `setRates` compute it, every step rounded up: three
 * segments split at the target utilization and at 95%, scaled by the rate modifier `ir_mod`.
 */
export function curveRate(config: ReserveConfig, irMod: bigint, util: bigint): bigint {
  const target = config.util
  if (util <= target) {
    const base = mulCeil7(divCeil7(util, target), config.rOne) + config.rBase
    return mulCeil7(base, irMod)
  }
  if (util <= UTIL_95) {
    const base = mulCeil7(divCeil7(util - target, UTIL_95 - target), config.rTwo) + config.rOne + config.rBase
    return mulCeil7(base, irMod)
  }
  const extra = mulCeil7(divCeil7(util - UTIL_95, UTIL_5), config.rThree)
  return extra + mulCeil7(irMod, config.rTwo + config.rOne + config.rBase)
}
