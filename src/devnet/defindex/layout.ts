import type { xdr } from '@stellar/stellar-sdk'
import { buildContractEvent } from '../ledger/contract-layout.ts'
import {
  buildAddressVal,
  buildBool,
  buildContractAddress,
  buildI128,
  buildString,
  buildStruct,
  buildSymbol,
  buildU32,
  buildVec,
  type ScVal,
} from '../ledger/scval.ts'

/**
 * DeFindex layouts (paltalabs/defindex at 32c8169b, soroban-sdk 22.0.3): the vault
 * (apps/contracts/vault/src/{storage,report,events,models}.rs, token/), its Blend strategy
 * (apps/contracts/strategies/blend/src/{storage,reserves}.rs) and the strategy events
 * (apps/contracts/strategies/core/src/event.rs). A genuine deposit of this shape is pubnet ledger
 * 63092996 (test/fixtures/pubnet). Every `DataKey` is a contracttype enum, so a unit variant is
 * `Vec[Sym]` and a tuple variant `Vec[Sym, arg]`; structs are maps sorted by field name.
 */

const addr = (contract: Uint8Array) => buildAddressVal(buildContractAddress(contract))
const enumKey = (name: string, ...args: ScVal[]) => buildVec([buildSymbol(name), ...args])

export interface ReportValue {
  prevBalance: bigint
  gainsOrLosses: bigint
  lockedFee: bigint
}

export interface StrategyReservesValue {
  totalShares: bigint
  totalBTokens: bigint
  bRate: bigint
}

export interface StrategyConfigValue {
  asset: Uint8Array
  pool: Uint8Array
  reserveId: number
  blendToken: Uint8Array
  router: Uint8Array
  claimIds: number[]
  rewardThreshold: bigint
}

export interface VaultSettings {
  name: string
  symbol: string
  asset: Uint8Array
  strategy: Uint8Array
  strategyName: string
  /** Basis points of gains locked as fees (`VaultFee`) and the protocol's share of them. */
  vaultFeeBps: number
  protocolFeeBps: number
  manager: xdr.ScAddressWire
  feeReceiver: xdr.ScAddressWire
  protocolFeeReceiver: xdr.ScAddressWire
  router: Uint8Array
}

// ---------------------------------------------------------------------------------------------
// Vault storage

/** `token::DataKey::Balance(addr)`: persistent i128 df-token balance. */
export function buildVaultBalanceKey(holder: xdr.ScAddressWire): ScVal {
  return enumKey('Balance', buildAddressVal(holder))
}

/** `DataKey::Report(strategy)`: persistent `Report`. */
export function buildReportKey(strategy: Uint8Array): ScVal {
  return enumKey('Report', addr(strategy))
}

export function buildReportValue(r: ReportValue): ScVal {
  return buildStruct({
    gains_or_losses: buildI128(r.gainsOrLosses),
    locked_fee: buildI128(r.lockedFee),
    prev_balance: buildI128(r.prevBalance),
  })
}

/** `Strategy{address, name: String, paused}` inside `AssetStrategySet{address, strategies}` (common/src/models.rs). */
export function buildAssetStrategySet(
  asset: Uint8Array,
  strategy: Uint8Array,
  name: string,
  paused: boolean,
): ScVal {
  return buildStruct({
    address: addr(asset),
    strategies: buildVec([
      buildStruct({ address: addr(strategy), name: buildString(name), paused: buildBool(paused) }),
    ]),
  })
}

/**
 * The vault's instance storage: roles (`access.rs` `RolesDataKey` unit variants), fees, router,
 * assets, `TotalSupply`, `Upgradable` and the token's `METADATA` (soroban-token-sdk: a bare Symbol
 * key, `TokenMetadata{decimal, name, symbol}`). No `Factory`: the mainnet vault of the fixture has none.
 */
export function buildVaultInstanceStorage(v: VaultSettings, totalSupply: bigint | null): [ScVal, ScVal][] {
  const manager = buildAddressVal(v.manager)
  // `TotalSupply` is first written by the first mint.
  const supply: [ScVal, ScVal][] =
    totalSupply === null ? [] : [[enumKey('TotalSupply'), buildI128(totalSupply)]]
  return [
    [
      buildSymbol('METADATA'),
      buildStruct({
        decimal: buildU32(7),
        name: buildString(`DeFindex-Vault-${v.name}`),
        symbol: buildString(v.symbol),
      }),
    ],
    [
      enumKey('AssetStrategySet', buildU32(0)),
      buildAssetStrategySet(v.asset, v.strategy, v.strategyName, false),
    ],
    [enumKey('DeFindexProtocolFeeRate'), buildU32(v.protocolFeeBps)],
    [enumKey('DeFindexProtocolFeeReceiver'), buildAddressVal(v.protocolFeeReceiver)],
    [enumKey('EmergencyManager'), manager],
    [enumKey('Manager'), manager],
    [enumKey('RebalanceManager'), manager],
    [enumKey('SoroswapRouter'), addr(v.router)],
    [enumKey('TotalAssets'), buildU32(1)],
    ...supply,
    [enumKey('Upgradable'), buildBool(true)],
    [enumKey('VaultFee'), buildU32(v.vaultFeeBps)],
    [enumKey('VaultFeeReceiver'), buildAddressVal(v.feeReceiver)],
  ]
}

// ---------------------------------------------------------------------------------------------
// Strategy storage

/** `DataKey::VaultPos(vault)`: persistent i128 strategy shares. */
export function buildVaultPosKey(vault: Uint8Array): ScVal {
  return enumKey('VaultPos', addr(vault))
}

export function buildStrategyReservesValue(r: StrategyReservesValue): ScVal {
  return buildStruct({
    b_rate: buildI128(r.bRate),
    total_b_tokens: buildI128(r.totalBTokens),
    total_shares: buildI128(r.totalShares),
  })
}

/** Instance storage: `Config`, `Keeper`, and `Reserves` once the first deposit wrote it. */
export function buildStrategyInstanceStorage(
  c: StrategyConfigValue,
  keeper: xdr.ScAddressWire,
  reserves: StrategyReservesValue | null,
): [ScVal, ScVal][] {
  const storage: [ScVal, ScVal][] = [
    [
      enumKey('Config'),
      buildStruct({
        asset: addr(c.asset),
        blend_token: addr(c.blendToken),
        claim_ids: buildVec(c.claimIds.map(buildU32)),
        pool: addr(c.pool),
        reserve_id: buildU32(c.reserveId),
        reward_threshold: buildI128(c.rewardThreshold),
        router: addr(c.router),
      }),
    ],
    [enumKey('Keeper'), buildAddressVal(keeper)],
  ]
  if (reserves) storage.push([enumKey('Reserves'), buildStrategyReservesValue(reserves)])
  return storage
}

/** A Stellar asset contract's balance of a contract holder: `Balance(addr)` → `{amount, authorized, clawback}`. */
export function buildSacBalanceKey(holder: Uint8Array): ScVal {
  return enumKey('Balance', addr(holder))
}

export function buildSacBalanceValue(amount: bigint): ScVal {
  return buildStruct({ amount: buildI128(amount), authorized: buildBool(true), clawback: buildBool(false) })
}

// ---------------------------------------------------------------------------------------------
// Events

/** `CurrentAssetInvestmentAllocation` of a one-asset, one-strategy vault (vault/src/models.rs). */
export interface ManagedFunds {
  asset: Uint8Array
  strategy: Uint8Array
  idle: bigint
  invested: bigint
  paused: boolean
}

export function buildManagedFunds(f: ManagedFunds): ScVal {
  return buildVec([
    buildStruct({
      asset: addr(f.asset),
      idle_amount: buildI128(f.idle),
      invested_amount: buildI128(f.invested),
      strategy_allocations: buildVec([
        buildStruct({
          amount: buildI128(f.invested),
          paused: buildBool(f.paused),
          strategy_address: addr(f.strategy),
        }),
      ]),
      total_amount: buildI128(f.idle + f.invested),
    }),
  ])
}

/** Vault events: topics `[String "DeFindexVault", Symbol name]` (a `&str` topic is an ScString). */
export function buildVaultEvent(
  vault: Uint8Array,
  name: string,
  data: Record<string, ScVal>,
): xdr.ContractEventWire {
  return buildContractEvent(vault, [buildString('DeFindexVault'), buildSymbol(name)], buildStruct(data))
}

/** Strategy events: topics `[String strategy name, Symbol name]`, data a sorted struct. */
export function buildStrategyEvent(
  strategy: Uint8Array,
  name: string,
  data: Record<string, ScVal>,
): xdr.ContractEventWire {
  return buildContractEvent(strategy, [buildString('BlendStrategy'), buildSymbol(name)], buildStruct(data))
}

/** df-token events (soroban-token-sdk 22 `TokenUtils`): `[mint, admin, to]`, `[burn, from]`, `[transfer, from, to]`, data i128. */
export function buildDfTokenMint(
  vault: Uint8Array,
  to: xdr.ScAddressWire,
  amount: bigint,
): xdr.ContractEventWire {
  return buildContractEvent(vault, [buildSymbol('mint'), addr(vault), buildAddressVal(to)], buildI128(amount))
}

export function buildDfTokenBurn(
  vault: Uint8Array,
  from: xdr.ScAddressWire,
  amount: bigint,
): xdr.ContractEventWire {
  return buildContractEvent(vault, [buildSymbol('burn'), buildAddressVal(from)], buildI128(amount))
}

export function buildDfTokenTransfer(
  vault: Uint8Array,
  from: xdr.ScAddressWire,
  to: xdr.ScAddressWire,
  amount: bigint,
): xdr.ContractEventWire {
  return buildContractEvent(
    vault,
    [buildSymbol('transfer'), buildAddressVal(from), buildAddressVal(to)],
    buildI128(amount),
  )
}
