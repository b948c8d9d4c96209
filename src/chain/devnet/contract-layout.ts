import type { xdr } from '@stellar/stellar-sdk'
import {
  buildAddressVal,
  buildContractAddress,
  buildI128,
  buildStruct,
  buildSymbol,
  buildU64,
  buildU128,
  buildVec,
  type ScVal,
} from './scval.ts'

/** Contract-data layouts of DESIGN 7.1, as ScVal wire values. */

const PERSISTENT = 1
const CONTRACT_EVENT = 1
const NONE = buildVec([buildSymbol('None')])

export interface VaultValue {
  account: xdr.ScAddressWire
  denomination: string
  totalCollateral: bigint
  /** Normalised debt: debt = ceil(totalDebt * debtRate / 10^12). */
  totalDebt: bigint
}

export interface VaultsInfoValue {
  denomination: string
  debtRate: bigint
  minColRate: bigint
  minDebtCreation: bigint
  openingColRate: bigint
  totalCol: bigint
  totalDebt: bigint
  totalVaults: bigint
}

/** index = 10^9 * collateral / normalised debt, integer division, as the public contract computes it. */
export function computeVaultIndex(totalCollateral: bigint, totalDebt: bigint): bigint {
  return totalDebt === 0n ? 0n : (1_000_000_000n * totalCollateral) / totalDebt
}

export function buildVaultKey(account: xdr.ScAddressWire, denomination: string): ScVal {
  return buildVec([buildSymbol('Vault'), buildVec([buildAddressVal(account), buildSymbol(denomination)])])
}

export function buildVaultValue(v: VaultValue): ScVal {
  return buildStruct({
    account: buildAddressVal(v.account),
    denomination: buildSymbol(v.denomination),
    index: buildU128(computeVaultIndex(v.totalCollateral, v.totalDebt)),
    next_key: NONE,
    total_collateral: buildU128(v.totalCollateral),
    total_debt: buildU128(v.totalDebt),
  })
}

export function buildVaultsInfoKey(denomination: string): ScVal {
  return buildVec([buildSymbol('VaultsInfo'), buildSymbol(denomination)])
}

export function buildVaultsInfoValue(v: VaultsInfoValue): ScVal {
  return buildStruct({
    debt_rate: buildI128(v.debtRate),
    denomination: buildSymbol(v.denomination),
    lowest_key: NONE,
    min_col_rate: buildU128(v.minColRate),
    min_debt_creation: buildU128(v.minDebtCreation),
    opening_col_rate: buildU128(v.openingColRate),
    total_col: buildU128(v.totalCol),
    total_debt: buildU128(v.totalDebt),
    total_vaults: buildU64(v.totalVaults),
  })
}

export function buildContractDataEntry(
  contract: Uint8Array,
  key: ScVal,
  val: ScVal,
  lastModifiedLedgerSeq: number,
): xdr.LedgerEntryWire {
  return {
    lastModifiedLedgerSeq,
    data: {
      type: 6,
      contractData: {
        ext: { v: 0 },
        contract: buildContractAddress(contract),
        key,
        durability: PERSISTENT,
        val,
      },
    },
    ext: { v: 0 },
  }
}

export function buildContractDataKey(contract: Uint8Array, key: ScVal): xdr.LedgerKeyWire {
  return { type: 6, contractData: { contract: buildContractAddress(contract), key, durability: PERSISTENT } }
}

/** One oracle price: the asset is a token contract (Addr) or a fiat symbol (Sym). */
export interface OraclePrice {
  asset: { contract: Uint8Array } | { symbol: string }
  /** USD per unit, 14 decimals. */
  price: bigint
}

/** Reflector v3 style: topics [REFLECTOR, update, timestamp_ms], data Vec[Vec[asset, price]]. */
export function buildOracleUpdateEvent(
  oracle: Uint8Array,
  timestampMs: bigint,
  prices: OraclePrice[],
): xdr.ContractEventWire {
  const data = buildVec(
    prices.map((p) =>
      buildVec([
        'contract' in p.asset
          ? buildAddressVal(buildContractAddress(p.asset.contract))
          : buildSymbol(p.asset.symbol),
        buildI128(p.price),
      ]),
    ),
  )
  return {
    ext: { v: 0 },
    contractId: oracle,
    type: CONTRACT_EVENT,
    body: {
      v: 0,
      v0: { topics: [buildSymbol('REFLECTOR'), buildSymbol('update'), buildU64(timestampMs)], data },
    },
  }
}
