import type { StateRow } from '../kit/protocol-module.ts'
import { SCALAR_7 } from '../kit/scales.ts'
import { STATE } from './adapt-ledger.ts'
import type { PoolReader } from './reserves.ts'

/**
 * Blend v2 emissions (pool/src/emissions/distributor.rs; blend-sdk-js emissions.ts). A reserve
 * token's `EmisData` holds `eps` (BLND per second with 14 decimals: 7 of BLND × 10^7), its
 * `expiration`, the `index` (BLND per whole token, 14 decimals) and the `last_time` it was brought
 * up to. A user is owed `accrued` plus its balance × (index − the index it last accrued to).
 */

/** `ReserveEmissionData` as the pool wrote it, with the ledger of that write. */
export interface EmissionData {
  ledger: number
  eps: bigint
  expiration: bigint
  index: bigint
  lastTime: bigint
}

/** reserve index × 2 for the d-token (liabilities), × 2 + 1 for the b-token (supply and collateral). */
export const dTokenId = (reserveIndex: number) => reserveIndex * 2
export const bTokenId = (reserveIndex: number) => reserveIndex * 2 + 1

export function parseEmissionData(row: StateRow): EmissionData {
  const v = JSON.parse(row.value) as Record<string, string | number>
  return {
    ledger: row.ledger,
    eps: BigInt(v.eps!),
    expiration: BigInt(v.expiration!),
    index: BigInt(v.index!),
    lastTime: BigInt(v.last_time!),
  }
}

export async function emissionDataAt(
  reader: PoolReader,
  pool: string,
  reserveTokenId: number,
  ledger: number,
): Promise<EmissionData | null> {
  const row = await reader.stateAt(pool, STATE.emisData(reserveTokenId), ledger)
  return row ? parseEmissionData(row) : null
}

/** `PoolEmis` at a ledger: reserve token id -> its share of the pool's emissions (7 decimals). */
export async function poolSharesAt(
  reader: PoolReader,
  pool: string,
  ledger: number,
): Promise<Map<number, bigint>> {
  const row = await reader.stateAt(pool, STATE.poolEmis, ledger)
  const shares = new Map<number, bigint>()
  if (!row) return shares
  const value = JSON.parse(row.value) as Record<string, string | number>
  for (const [id, share] of Object.entries(value)) shares.set(Number(id), BigInt(share))
  return shares
}

/**
 * The token's index brought up to `timeS` as `update_emission_data` would (and the SDK's `accrue`):
 * unchanged once expired, at or before `last_time`, with no eps or no supply; otherwise
 * + floor((min(time, expiration) − last_time) × eps × 10^decimals / supply).
 */
export function projectIndex(data: EmissionData, supply: bigint, decimals: number, timeS: bigint): bigint {
  if (data.lastTime >= data.expiration || timeS <= data.lastTime || data.eps === 0n || supply === 0n) {
    return data.index
  }
  const until = timeS > data.expiration ? data.expiration : timeS
  return data.index + ((until - data.lastTime) * data.eps * 10n ** BigInt(decimals)) / supply
}

/**
 * BLND (7 decimals) the user could claim for one token: what `update_user_emissions` would add,
 * floor(balance × (index − user index) / (10^decimals × 10^7)), plus `accrued`. A holder the pool
 * has no `UserEmis` for (it held before emissions began) is due the whole index, as the contract
 * and the SDK say.
 */
export function claimable(
  user: { accrued: bigint; index: bigint } | null,
  balance: bigint,
  index: bigint,
  decimals: number,
): bigint {
  const accrued = user?.accrued ?? 0n
  const from = user?.index ?? 0n
  if (balance === 0n) return accrued
  return accrued + (balance * (index - from)) / (10n ** BigInt(decimals) * SCALAR_7)
}
