import type { xdr } from '@stellar/stellar-sdk'
import { buildContractEvent } from '../ledger/contract-layout.ts'
import {
  buildAddressVal,
  buildBytes,
  buildContractAddress,
  buildI128,
  buildStruct,
  buildSymbol,
  buildU32,
  buildU64,
  buildU128,
  buildVec,
  type ScVal,
} from '../ledger/scval.ts'

/**
 * Reflector's storage (v2 price records) and events (v3), exactly as the mainnet oracle writes them
 * (reflector-network/reflector-contract; sources and choices: docs/devnet.md).
 */

/** An asset the oracle quotes: a token contract (`Asset::Stellar(Address)`) or a ticker (`Asset::Other(Symbol)`). */
export type OracleAsset = { contract: Uint8Array } | { symbol: string }

/** The `Asset` enum as stored in the `assets` list and `base_asset`. */
export function buildReflectorAsset(asset: OracleAsset): ScVal {
  return 'contract' in asset
    ? buildVec([buildSymbol('Stellar'), buildAddressVal(buildContractAddress(asset.contract))])
    : buildVec([buildSymbol('Other'), buildSymbol(asset.symbol)])
}

/** The raw asset as v2 keys its index and v3 names it in events: the Address or the Symbol itself. */
export function buildReflectorAssetId(asset: OracleAsset): ScVal {
  return 'contract' in asset
    ? buildAddressVal(buildContractAddress(asset.contract))
    : buildSymbol(asset.symbol)
}

export interface ReflectorSettings {
  admin: xdr.ScAddressWire
  baseAsset: OracleAsset
  decimals: number
  /** Milliseconds. */
  resolution: number
  /** Milliseconds of history kept. */
  period: bigint
  assets: OracleAsset[]
  lastTimestampMs: bigint
}

/**
 * Reflector's instance storage as v2's env_extensions.rs writes it: the settings under Symbol keys,
 * the `assets` list, `last_timestamp`, and each asset's index under its own Address or Symbol.
 */
export function buildReflectorInstanceStorage(s: ReflectorSettings): [ScVal, ScVal][] {
  return [
    [buildSymbol('admin'), buildAddressVal(s.admin)],
    [buildSymbol('base_asset'), buildReflectorAsset(s.baseAsset)],
    [buildSymbol('decimals'), buildU32(s.decimals)],
    [buildSymbol('resolution'), buildU32(s.resolution)],
    [buildSymbol('period'), buildU64(s.period)],
    [buildSymbol('assets'), buildVec(s.assets.map(buildReflectorAsset))],
    [buildSymbol('last_timestamp'), buildU64(s.lastTimestampMs)],
    ...s.assets.map((asset, i): [ScVal, ScVal] => [buildReflectorAssetId(asset), buildU32(i)]),
  ]
}

/** v2 price record key, TEMPORARY: `U128((timestamp_ms << 64) | asset_index)` -> I128 price. */
export function buildReflectorV2PriceKey(timestampMs: bigint, assetIndex: number): ScVal {
  return buildU128((timestampMs << 64n) | BigInt(assetIndex))
}

/** v3 price record, TEMPORARY: `U64(timestamp_ms)` -> `PriceUpdate{mask: Bytes, prices: Vec<i128>}`. */
export function buildReflectorV3Record(timestampMs: bigint, prices: bigint[]): [ScVal, ScVal] {
  // Bit i of the mask (little-endian bytes) is set for each asset with a price in this update.
  const mask = new Uint8Array(Math.ceil(prices.length / 8))
  prices.forEach((_, i) => {
    mask[i >> 3]! |= 1 << (i & 7)
  })
  return [
    buildU64(timestampMs),
    buildStruct({ mask: buildBytes(mask), prices: buildVec(prices.map(buildI128)) }),
  ]
}

/** v3 `#[contractevent(topics = ["REFLECTOR", "update"])]`: topics `[REFLECTOR, update, U64 ts]`, data `Map{update_data}`. */
export function buildReflectorUpdateEvent(
  oracle: Uint8Array,
  timestampMs: bigint,
  prices: { asset: OracleAsset; price: bigint }[],
): xdr.ContractEventWire {
  const updateData = buildVec(
    prices.map((p) => buildVec([buildReflectorAssetId(p.asset), buildI128(p.price)])),
  )
  return buildContractEvent(
    oracle,
    [buildSymbol('REFLECTOR'), buildSymbol('update'), buildU64(timestampMs)],
    buildStruct({ update_data: updateData }),
  )
}
