import type { xdr } from '@stellar/stellar-sdk'
import { buildContractEvent } from '../ledger/contract-layout.ts'
import {
  buildAddressVal,
  buildBool,
  buildBytes,
  buildI128,
  buildString,
  buildStruct,
  buildSymbol,
  buildU32,
  buildVec,
  type ScVal,
} from '../ledger/scval.ts'

/**
 * Storage and events of Soroswap's factory, router and pairs, as soroswap/core writes them
 * (contracts/{pair,factory,router}/src/{storage,event}.rs, the pair's LP token in
 * contracts/pair/src/soroswap_pair_token/, soroban-token-sdk 20.0.0 for its events and metadata),
 * and the Stellar asset contract's balance entry of a contract holder. Sources and choices:
 * docs/devnet.md. A Rust `&str` topic is an ScString, `symbol_short!` an ScSymbol, and every event
 * struct is a map with its field names sorted.
 */

type Address = xdr.ScAddressWire

// ---------------------------------------------------------------------------------------------
// Pair (contracts/pair/src/storage.rs: `#[repr(u32)] enum DataKey` keys are plain U32s)

export const PAIR_TOKEN_0 = 0
export const PAIR_TOKEN_1 = 1
export const PAIR_RESERVE_0 = 2
export const PAIR_RESERVE_1 = 3
export const PAIR_FACTORY = 4

export interface PairInstanceValue {
  token0: Address
  token1: Address
  reserve0: bigint
  reserve1: bigint
  factory: Address
  /** The LP token's metadata (`write_metadata`): decimals 7, name and symbol from the tokens' symbols. */
  name: string
  symbol: string
  /** `TotalSupply`, absent until the first mint. */
  totalSupply: bigint | null
}

/**
 * The pair's instance storage: `U32(0..4)`, the token SDK's `Symbol("METADATA")` and the LP token's
 * `Vec[Symbol("TotalSupply")]`. `U32(5)` (KLast) is written only while the factory's fees are on,
 * which they never are here (nor on mainnet: the XLM/USDC pair in ledger 63092990 has none).
 */
export function buildPairInstanceStorage(v: PairInstanceValue): [ScVal, ScVal][] {
  const storage: [ScVal, ScVal][] = [
    [buildU32(PAIR_TOKEN_0), buildAddressVal(v.token0)],
    [buildU32(PAIR_TOKEN_1), buildAddressVal(v.token1)],
    [buildU32(PAIR_RESERVE_0), buildI128(v.reserve0)],
    [buildU32(PAIR_RESERVE_1), buildI128(v.reserve1)],
    [buildU32(PAIR_FACTORY), buildAddressVal(v.factory)],
    [
      buildSymbol('METADATA'),
      buildStruct({ decimal: buildU32(7), name: buildString(v.name), symbol: buildString(v.symbol) }),
    ],
  ]
  if (v.totalSupply !== null) storage.push([buildVec([buildSymbol('TotalSupply')]), buildI128(v.totalSupply)])
  return storage
}

/** The LP token's `DataKey::Balance(Address)`: persistent, value i128 (an emptied balance stays, at 0). */
export function buildLpBalanceKey(holder: Address): ScVal {
  return buildVec([buildSymbol('Balance'), buildAddressVal(holder)])
}

// ---------------------------------------------------------------------------------------------
// Factory (contracts/factory/src/storage.rs: `contracttype` enum keys)

export interface FactoryInstanceValue {
  feeTo: Address
  feeToSetter: Address
  totalPairs: number
}

/** Instance: `FeeTo`, `FeeToSetter`, `TotalPairs` (`FeesEnabled` only once `set_fees_enabled` runs). */
export function buildFactoryInstanceStorage(v: FactoryInstanceValue): [ScVal, ScVal][] {
  return [
    [buildVec([buildSymbol('FeeTo')]), buildAddressVal(v.feeTo)],
    [buildVec([buildSymbol('FeeToSetter')]), buildAddressVal(v.feeToSetter)],
    [buildVec([buildSymbol('TotalPairs')]), buildU32(v.totalPairs)],
  ]
}

/** Persistent `PairWasmHash` -> BytesN<32>. */
export function buildPairWasmHashEntry(wasmHash: Uint8Array): [ScVal, ScVal] {
  return [buildVec([buildSymbol('PairWasmHash')]), buildBytes(wasmHash)]
}

/** Persistent `PairAddressesNIndexed(n)` -> the n-th pair created (0-based). */
export function buildPairAddressesNIndexedKey(n: number): ScVal {
  return buildVec([buildSymbol('PairAddressesNIndexed'), buildU32(n)])
}

/** Persistent `PairAddressesByTokens(Pair(token_0, token_1))`: the tuple struct is a Vec. */
export function buildPairAddressesByTokensKey(token0: Address, token1: Address): ScVal {
  return buildVec([
    buildSymbol('PairAddressesByTokens'),
    buildVec([buildAddressVal(token0), buildAddressVal(token1)]),
  ])
}

// ---------------------------------------------------------------------------------------------
// Router (contracts/router/src/storage.rs)

export function buildRouterInstanceStorage(factory: Address): [ScVal, ScVal][] {
  return [[buildVec([buildSymbol('Factory')]), buildAddressVal(factory)]]
}

// ---------------------------------------------------------------------------------------------
// Stellar asset contract: a contract's balance is a persistent entry of the asset contract

/** `DataKey::Balance(Address)` of the asset contract, for a contract holder (accounts use trust lines). */
export function buildSacBalanceKey(holder: Address): ScVal {
  return buildVec([buildSymbol('Balance'), buildAddressVal(holder)])
}

/** `BalanceValue{amount, authorized, clawback}`: the devnet's issuers neither require auth nor claw back. */
export function buildSacBalanceValue(amount: bigint): ScVal {
  return buildStruct({ amount: buildI128(amount), authorized: buildBool(true), clawback: buildBool(false) })
}

// ---------------------------------------------------------------------------------------------
// Events

function buildSoroswapEvent(
  contract: Uint8Array,
  prefix: 'SoroswapPair' | 'SoroswapFactory' | 'SoroswapRouter',
  name: string,
  fields: Record<string, ScVal>,
): xdr.ContractEventWire {
  return buildContractEvent(contract, [buildString(prefix), buildSymbol(name)], buildStruct(fields))
}

export function buildPairDepositEvent(
  pair: Uint8Array,
  v: { to: Address; amount0: bigint; amount1: bigint; liquidity: bigint; reserve0: bigint; reserve1: bigint },
): xdr.ContractEventWire {
  return buildSoroswapEvent(pair, 'SoroswapPair', 'deposit', {
    to: buildAddressVal(v.to),
    amount_0: buildI128(v.amount0),
    amount_1: buildI128(v.amount1),
    liquidity: buildI128(v.liquidity),
    new_reserve_0: buildI128(v.reserve0),
    new_reserve_1: buildI128(v.reserve1),
  })
}

/** `liquidity` is the LP amount burnt (what the pair held above its locked 1,000). */
export function buildPairWithdrawEvent(
  pair: Uint8Array,
  v: { to: Address; amount0: bigint; amount1: bigint; liquidity: bigint; reserve0: bigint; reserve1: bigint },
): xdr.ContractEventWire {
  return buildSoroswapEvent(pair, 'SoroswapPair', 'withdraw', {
    to: buildAddressVal(v.to),
    liquidity: buildI128(v.liquidity),
    amount_0: buildI128(v.amount0),
    amount_1: buildI128(v.amount1),
    new_reserve_0: buildI128(v.reserve0),
    new_reserve_1: buildI128(v.reserve1),
  })
}

export function buildPairSwapEvent(
  pair: Uint8Array,
  v: { to: Address; in0: bigint; in1: bigint; out0: bigint; out1: bigint },
): xdr.ContractEventWire {
  return buildSoroswapEvent(pair, 'SoroswapPair', 'swap', {
    to: buildAddressVal(v.to),
    amount_0_in: buildI128(v.in0),
    amount_1_in: buildI128(v.in1),
    amount_0_out: buildI128(v.out0),
    amount_1_out: buildI128(v.out1),
  })
}

export function buildPairSyncEvent(
  pair: Uint8Array,
  reserve0: bigint,
  reserve1: bigint,
): xdr.ContractEventWire {
  return buildSoroswapEvent(pair, 'SoroswapPair', 'sync', {
    new_reserve_0: buildI128(reserve0),
    new_reserve_1: buildI128(reserve1),
  })
}

export function buildPairSkimEvent(
  pair: Uint8Array,
  skimmed0: bigint,
  skimmed1: bigint,
): xdr.ContractEventWire {
  return buildSoroswapEvent(pair, 'SoroswapPair', 'skim', {
    skimmed_0: buildI128(skimmed0),
    skimmed_1: buildI128(skimmed1),
  })
}

export function buildFactoryInitEvent(factory: Uint8Array, setter: Address): xdr.ContractEventWire {
  return buildSoroswapEvent(factory, 'SoroswapFactory', 'init', { setter: buildAddressVal(setter) })
}

export function buildNewPairEvent(
  factory: Uint8Array,
  v: { token0: Address; token1: Address; pair: Address; length: number },
): xdr.ContractEventWire {
  return buildSoroswapEvent(factory, 'SoroswapFactory', 'new_pair', {
    token_0: buildAddressVal(v.token0),
    token_1: buildAddressVal(v.token1),
    pair: buildAddressVal(v.pair),
    new_pairs_length: buildU32(v.length),
  })
}

export function buildRouterInitEvent(router: Uint8Array, factory: Address): xdr.ContractEventWire {
  return buildSoroswapEvent(router, 'SoroswapRouter', 'init', { factory: buildAddressVal(factory) })
}

/** The router's `add` and `remove` events: tokens and amounts in the caller's order (a, b), not the pair's. */
export function buildRouterLiquidityEvent(
  router: Uint8Array,
  name: 'add' | 'remove',
  v: {
    tokenA: Address
    tokenB: Address
    pair: Address
    amountA: bigint
    amountB: bigint
    liquidity: bigint
    to: Address
  },
): xdr.ContractEventWire {
  return buildSoroswapEvent(router, 'SoroswapRouter', name, {
    token_a: buildAddressVal(v.tokenA),
    token_b: buildAddressVal(v.tokenB),
    pair: buildAddressVal(v.pair),
    amount_a: buildI128(v.amountA),
    amount_b: buildI128(v.amountB),
    liquidity: buildI128(v.liquidity),
    to: buildAddressVal(v.to),
  })
}

export function buildRouterSwapEvent(
  router: Uint8Array,
  path: Address[],
  amounts: bigint[],
  to: Address,
): xdr.ContractEventWire {
  return buildSoroswapEvent(router, 'SoroswapRouter', 'swap', {
    path: buildVec(path.map(buildAddressVal)),
    amounts: buildVec(amounts.map(buildI128)),
    to: buildAddressVal(to),
  })
}

/** The LP token's events (soroban-token-sdk 20): `[mint, admin, to]`, `[burn, from]`, `[transfer, from, to]`, data i128. */
export function buildLpMintEvent(pair: Uint8Array, admin: Address, to: Address, amount: bigint) {
  return buildContractEvent(
    pair,
    [buildSymbol('mint'), buildAddressVal(admin), buildAddressVal(to)],
    buildI128(amount),
  )
}

export function buildLpBurnEvent(pair: Uint8Array, from: Address, amount: bigint): xdr.ContractEventWire {
  return buildContractEvent(pair, [buildSymbol('burn'), buildAddressVal(from)], buildI128(amount))
}

export function buildLpTransferEvent(
  pair: Uint8Array,
  from: Address,
  to: Address,
  amount: bigint,
): xdr.ContractEventWire {
  return buildContractEvent(
    pair,
    [buildSymbol('transfer'), buildAddressVal(from), buildAddressVal(to)],
    buildI128(amount),
  )
}
