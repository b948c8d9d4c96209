import type { ContractInfo, NetworkConfig } from '../../chain/network.ts'
import { formatUnits, pow10 } from '../kit/amounts.ts'
import type { ContractObject, PositionsReader } from '../kit/protocol-module.ts'
import { PAIR_STATE, type StoredPair } from './adapt-ledger.ts'

/** LP tokens have 7 decimals (contracts/pair/src/lib.rs `initialize`). */
export const LP_DECIMALS = 7
/** Ratios (rates, shares of a pool, prices) are reported with 18 decimals, rounded down. */
export const RATIO_DECIMALS = 18
/** Amounts of a token whose decimals the network description does not give are shown with Stellar's usual 7 (and the answer is partial). */
const FALLBACK_DECIMALS = 7

/** A pair as its instance entry stated it at a ledger. */
export interface PairAt {
  address: string
  /** From the entry, else from the network description; null when neither names it. */
  tokens: [string | null, string | null]
  /** Null when the store never saw the pair's instance entry at or before the ledger. */
  reserves: [bigint, bigint] | null
  /**
   * The LP supply: an instance entry without `TotalSupply` (before the first mint) reads 0, as the
   * LP token's `read_total_supply` does (`unwrap_or(0)`); null only when the entry was never seen.
   */
  totalSupply: bigint | null
  /** Ledger at which the entry used was written. */
  ledger: number | null
}

const big = (value: string | null) => (value === null ? null : BigInt(value))

/** The pair's tokens, reserves and LP supply as last written at or before `ledger`. */
export async function readPairAt(
  reader: PositionsReader,
  network: NetworkConfig,
  pair: string,
  ledger: number,
): Promise<PairAt> {
  const row = await reader.stateAt(pair, PAIR_STATE, ledger)
  const known = network.ammprotocol.pairs[pair]
  const stored = row ? (JSON.parse(row.value) as StoredPair) : null
  const r0 = big(stored?.reserve_0 ?? null)
  const r1 = big(stored?.reserve_1 ?? null)
  return {
    address: pair,
    tokens: [stored?.token_0 ?? known?.token_0 ?? null, stored?.token_1 ?? known?.token_1 ?? null],
    reserves: r0 === null || r1 === null ? null : [r0, r1],
    totalSupply: stored === null ? null : (big(stored.total_supply) ?? 0n),
    ledger: row?.ledger ?? null,
  }
}

/** Contract-state reads for one answer, each asked once. */
export function createCachedPairReader(reader: PositionsReader, network: NetworkConfig) {
  const cache = new Map<string, Promise<PairAt>>()
  return (pair: string, ledger: number): Promise<PairAt> => {
    const id = `${pair}\u0000${ledger}`
    let found = cache.get(id)
    if (!found) {
      found = readPairAt(reader, network, pair, ledger)
      cache.set(id, found)
    }
    return found
  }
}

/** A token's decimals from the network description, and whether it gave them. */
export function tokenDecimals(
  network: NetworkConfig,
  token: string | null,
): { decimals: number; known: boolean } {
  const known = token === null ? undefined : network.assets[token]?.decimals
  return { decimals: known ?? FALLBACK_DECIMALS, known: known !== undefined }
}

/** (a / 10^aDecimals) / (b / 10^bDecimals) with RATIO_DECIMALS, rounded down; null when b is 0. */
export function ratio(a: bigint, aDecimals: number, b: bigint, bDecimals: number): string | null {
  if (b <= 0n) return null
  const shift = RATIO_DECIMALS + bDecimals - aDecimals
  const value = shift >= 0 ? (a * pow10(shift)) / b : a / (b * pow10(-shift))
  return formatUnits(value, RATIO_DECIMALS)
}

export function ammContractObject(c: ContractInfo): ContractObject {
  return {
    name: c.name,
    position_types: c.position_types,
    protocol: c.protocol,
    status: c.status,
    version: c.version,
  }
}
