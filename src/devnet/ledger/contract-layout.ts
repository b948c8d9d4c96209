import type { xdr } from '@stellar/stellar-sdk'
import {
  buildAddressVal,
  buildBool,
  buildBytes,
  buildContractAddress,
  buildI128,
  buildSortedMap,
  buildStruct,
  buildSymbol,
  buildU32,
  buildU64,
  buildU128,
  buildVec,
  type ScVal,
} from './scval.ts'

/**
 * The storage and events of the contracts the devnet simulates, exactly as the mainnet contracts
 * write them (sources and choices: docs/devnet.md):
 * - FxDAO vaults 0.6.0 (FxDAO/FxDAO-SC contracts/vaults, src/storage/{vaults,core,currencies}.rs);
 * - Reflector v2 storage and v3 events (reflector-network/reflector-contract).
 */

export const TEMPORARY = 0
export const PERSISTENT = 1
const CONTRACT_EVENT = 1
const SCV_CONTRACT_INSTANCE = 19
const SCV_LEDGER_KEY_CONTRACT_INSTANCE = 20
const CONTRACT_EXECUTABLE_WASM = 0

// ---------------------------------------------------------------------------------------------
// FxDAO vaults 0.6.0

/** `VaultKey{account, denomination, index}`: the key `next_key`/`lowest_key` point with. */
export interface VaultKeyValue {
  account: xdr.ScAddressWire
  denomination: string
  index: bigint
}

/** `OptionalVaultKey`: a contracttype enum (`Vec[Sym "None"]` / `Vec[Sym "Some", VaultKey]`), not Rust's Option. */
export function buildOptionalVaultKey(key: VaultKeyValue | null): ScVal {
  if (key === null) return buildVec([buildSymbol('None')])
  return buildVec([
    buildSymbol('Some'),
    buildStruct({
      account: buildAddressVal(key.account),
      denomination: buildSymbol(key.denomination),
      index: buildU128(key.index),
    }),
  ])
}

/** floor(10^9 × collateral / debt), on u128 (utils/indexes.rs `calculate_user_vault_index`). */
export function computeVaultIndex(totalDebt: bigint, totalCollateral: bigint): bigint {
  return (1_000_000_000n * totalCollateral) / totalDebt
}

/** `VaultsDataKeys::Vault((Address, Symbol))`, persistent. */
export function buildVaultKey(account: xdr.ScAddressWire, denomination: string): ScVal {
  return buildVec([buildSymbol('Vault'), buildVec([buildAddressVal(account), buildSymbol(denomination)])])
}

/** `VaultsDataKeys::VaultIndex(VaultIndexKey{user, denomination})`, persistent, holding the U128 index. */
export function buildVaultIndexKey(account: xdr.ScAddressWire, denomination: string): ScVal {
  return buildVec([
    buildSymbol('VaultIndex'),
    buildStruct({ denomination: buildSymbol(denomination), user: buildAddressVal(account) }),
  ])
}

export interface VaultValue {
  account: xdr.ScAddressWire
  denomination: string
  index: bigint
  next: VaultKeyValue | null
  totalCollateral: bigint
  totalDebt: bigint
}

/** The `Vault` struct: account, denomination, index, next_key, total_collateral, total_debt. */
export function buildVaultValue(v: VaultValue): ScVal {
  return buildStruct({
    account: buildAddressVal(v.account),
    denomination: buildSymbol(v.denomination),
    index: buildU128(v.index),
    next_key: buildOptionalVaultKey(v.next),
    total_collateral: buildU128(v.totalCollateral),
    total_debt: buildU128(v.totalDebt),
  })
}

export interface VaultsInfoValue {
  denomination: string
  lowest: VaultKeyValue | null
  minColRate: bigint
  minDebtCreation: bigint
  openingColRate: bigint
  totalCol: bigint
  totalDebt: bigint
  totalVaults: bigint
}

/** `VaultsDataKeys::VaultsInfo(Symbol)`, held in INSTANCE storage. */
export function buildVaultsInfoKey(denomination: string): ScVal {
  return buildVec([buildSymbol('VaultsInfo'), buildSymbol(denomination)])
}

/** `VaultsInfo`: eight fields, no rate (FxDAO debt does not accrue). */
export function buildVaultsInfoValue(v: VaultsInfoValue): ScVal {
  return buildStruct({
    denomination: buildSymbol(v.denomination),
    lowest_key: buildOptionalVaultKey(v.lowest),
    min_col_rate: buildU128(v.minColRate),
    min_debt_creation: buildU128(v.minDebtCreation),
    opening_col_rate: buildU128(v.openingColRate),
    total_col: buildU128(v.totalCol),
    total_debt: buildU128(v.totalDebt),
    total_vaults: buildU64(v.totalVaults),
  })
}

export interface CoreStateValue {
  admin: xdr.ScAddressWire
  colToken: xdr.ScAddressWire
  /** Scaled by 10^7: 50_000 is 0.5%. */
  fee: bigint
  oracle: xdr.ScAddressWire
  panicMode: boolean
  protocolManager: xdr.ScAddressWire
  stableIssuer: xdr.ScAddressWire
  treasury: xdr.ScAddressWire
}

/** `CoreDataKeys::CoreState`, instance. */
export function buildCoreStateKey(): ScVal {
  return buildVec([buildSymbol('CoreState')])
}

export function buildCoreStateValue(v: CoreStateValue): ScVal {
  return buildStruct({
    admin: buildAddressVal(v.admin),
    col_token: buildAddressVal(v.colToken),
    fee: buildU128(v.fee),
    oracle: buildAddressVal(v.oracle),
    panic_mode: buildBool(v.panicMode),
    protocol_manager: buildAddressVal(v.protocolManager),
    stable_issuer: buildAddressVal(v.stableIssuer),
    treasury: buildAddressVal(v.treasury),
  })
}

/** `CurrenciesDataKeys::Currency(Symbol)`, instance. */
export function buildCurrencyKey(denomination: string): ScVal {
  return buildVec([buildSymbol('Currency'), buildSymbol(denomination)])
}

export function buildCurrencyValue(denomination: string, contract: Uint8Array, active: boolean): ScVal {
  return buildStruct({
    active: buildBool(active),
    contract: buildAddressVal(buildContractAddress(contract)),
    denomination: buildSymbol(denomination),
  })
}

// ---------------------------------------------------------------------------------------------
// Ledger entries

export function buildContractDataEntry(
  contract: Uint8Array,
  key: ScVal,
  val: ScVal,
  lastModifiedLedgerSeq: number,
  durability: number = PERSISTENT,
): xdr.LedgerEntryWire {
  return {
    lastModifiedLedgerSeq,
    data: {
      type: 6,
      contractData: { ext: { v: 0 }, contract: buildContractAddress(contract), key, durability, val },
    },
    ext: { v: 0 },
  }
}

export function buildContractDataKey(
  contract: Uint8Array,
  key: ScVal,
  durability: number = PERSISTENT,
): xdr.LedgerKeyWire {
  return { type: 6, contractData: { contract: buildContractAddress(contract), key, durability } }
}

export function buildInstanceKey(): ScVal {
  return { type: SCV_LEDGER_KEY_CONTRACT_INSTANCE } as ScVal
}

/**
 * A contract's instance entry: key `LedgerKeyContractInstance`, persistent, value
 * `ScContractInstance{executable: wasm hash, storage}` with the storage map sorted by key.
 */
export function buildInstanceEntry(
  contract: Uint8Array,
  wasmHash: Uint8Array,
  storage: [ScVal, ScVal][],
  lastModifiedLedgerSeq: number,
): xdr.LedgerEntryWire {
  const val = {
    type: SCV_CONTRACT_INSTANCE,
    instance: {
      executable: { type: CONTRACT_EXECUTABLE_WASM, wasmHash },
      storage: buildSortedMap(storage),
    },
  } as ScVal
  return buildContractDataEntry(contract, buildInstanceKey(), val, lastModifiedLedgerSeq)
}

// ---------------------------------------------------------------------------------------------
// Reflector

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

export function buildContractEvent(
  contract: Uint8Array,
  topics: ScVal[],
  data: ScVal,
): xdr.ContractEventWire {
  return { ext: { v: 0 }, contractId: contract, type: CONTRACT_EVENT, body: { v: 0, v0: { topics, data } } }
}
