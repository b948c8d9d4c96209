import type { xdr } from '@stellar/stellar-sdk'
import {
  buildAddressVal,
  buildBool,
  buildContractAddress,
  buildStruct,
  buildSymbol,
  buildU64,
  buildU128,
  buildVec,
  type ScVal,
} from '../ledger/scval.ts'

/**
 * FxDAO vaults 0.6.0's storage, exactly as the mainnet contract writes it (FxDAO/FxDAO-SC
 * contracts/vaults, src/storage/{vaults,core,currencies}.rs; sources and choices: docs/devnet.md).
 */

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
