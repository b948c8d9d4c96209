import type { xdr } from '@stellar/stellar-sdk'
import { buildContractEvent } from '../ledger/contract-layout.ts'
import {
  buildAddressVal,
  buildBool,
  buildContractAddress,
  buildI128,
  buildSortedMap,
  buildString,
  buildStruct,
  buildSymbol,
  buildU32,
  buildU64,
  buildVec,
  type ScVal,
} from '../ledger/scval.ts'

/**
 * Storage and events of a Blend v2 lending pool, as blend-capital/blend-contracts-v2 writes them
 * (pool/src/storage.rs, pool/src/events.rs; sources and choices: docs/devnet.md). Keys are
 * `PoolDataKey` variants (`Vec[Symbol(variant), arg]`) or plain Symbols; structs are maps with their
 * field names sorted; every topic string is a Symbol.
 */

export interface ReserveConfigValue {
  index: number
  decimals: number
  cFactor: number
  lFactor: number
  util: number
  maxUtil: number
  rBase: number
  rOne: number
  rTwo: number
  rThree: number
  reactivity: number
  supplyCap: bigint
  enabled: boolean
}

export interface ReserveDataValue {
  bRate: bigint
  dRate: bigint
  irMod: bigint
  bSupply: bigint
  dSupply: bigint
  backstopCredit: bigint
  lastTime: bigint
}

export interface PoolConfigValue {
  bstopRate: number
  maxPositions: number
  minCollateral: bigint
  oracle: Uint8Array
  status: number
}

/** reserve index -> b- or d-token balance. */
export type TokenMap = Map<number, bigint>

export interface PositionsValue {
  collateral: TokenMap
  liabilities: TokenMap
  supply: TokenMap
}

const addressVal = (contract: Uint8Array) => buildAddressVal(buildContractAddress(contract))

export function buildPoolConfigValue(c: PoolConfigValue): ScVal {
  return buildStruct({
    bstop_rate: buildU32(c.bstopRate),
    max_positions: buildU32(c.maxPositions),
    min_collateral: buildI128(c.minCollateral),
    oracle: addressVal(c.oracle),
    status: buildU32(c.status),
  })
}

/** The pool's instance storage (`Admin`, `Backstop`, `BLNDTkn`, `Config`, `Name`), unsorted: the entry sorts it. */
export function buildPoolInstanceStorage(p: {
  admin: xdr.ScAddressWire
  backstop: Uint8Array
  blnd: Uint8Array
  config: PoolConfigValue
  name: string
}): [ScVal, ScVal][] {
  return [
    [buildSymbol('Admin'), buildAddressVal(p.admin)],
    [buildSymbol('Name'), buildString(p.name)],
    [buildSymbol('Backstop'), addressVal(p.backstop)],
    [buildSymbol('Config'), buildPoolConfigValue(p.config)],
    [buildSymbol('BLNDTkn'), addressVal(p.blnd)],
  ]
}

export function buildResListKey(): ScVal {
  return buildSymbol('ResList')
}

export function buildResListValue(assets: Uint8Array[]): ScVal {
  return buildVec(assets.map(addressVal))
}

export function buildResConfigKey(asset: Uint8Array): ScVal {
  return buildVec([buildSymbol('ResConfig'), addressVal(asset)])
}

export function buildResDataKey(asset: Uint8Array): ScVal {
  return buildVec([buildSymbol('ResData'), addressVal(asset)])
}

/** `ResInit(asset)`, temporary: `QueuedReserveInit{new_config, unlock_time}`. */
export function buildResInitKey(asset: Uint8Array): ScVal {
  return buildVec([buildSymbol('ResInit'), addressVal(asset)])
}

export function buildPositionsKey(user: xdr.ScAddressWire): ScVal {
  return buildVec([buildSymbol('Positions'), buildAddressVal(user)])
}

export function buildReserveConfigValue(c: ReserveConfigValue): ScVal {
  return buildStruct({
    c_factor: buildU32(c.cFactor),
    decimals: buildU32(c.decimals),
    enabled: buildBool(c.enabled),
    index: buildU32(c.index),
    l_factor: buildU32(c.lFactor),
    max_util: buildU32(c.maxUtil),
    r_base: buildU32(c.rBase),
    r_one: buildU32(c.rOne),
    r_three: buildU32(c.rThree),
    r_two: buildU32(c.rTwo),
    reactivity: buildU32(c.reactivity),
    supply_cap: buildI128(c.supplyCap),
    util: buildU32(c.util),
  })
}

export function buildQueuedReserveInitValue(c: ReserveConfigValue, unlockTime: bigint): ScVal {
  return buildStruct({ new_config: buildReserveConfigValue(c), unlock_time: buildU64(unlockTime) })
}

export function buildReserveDataValue(d: ReserveDataValue): ScVal {
  return buildStruct({
    b_rate: buildI128(d.bRate),
    b_supply: buildI128(d.bSupply),
    backstop_credit: buildI128(d.backstopCredit),
    d_rate: buildI128(d.dRate),
    d_supply: buildI128(d.dSupply),
    ir_mod: buildI128(d.irMod),
    last_time: buildU64(d.lastTime),
  })
}

/** A `Map<u32, i128>` as the host keeps it: sorted by key. */
export function buildTokenMap(m: TokenMap): ScVal {
  const entries: [ScVal, ScVal][] = [...m].map(([k, v]) => [buildU32(k), buildI128(v)])
  return { type: 17, map: buildSortedMap(entries) }
}

export function buildPositionsValue(p: PositionsValue): ScVal {
  return buildStruct({
    collateral: buildTokenMap(p.collateral),
    liabilities: buildTokenMap(p.liabilities),
    supply: buildTokenMap(p.supply),
  })
}

/** `Request{address, amount, request_type}`: the `submit` argument. */
export function buildRequestValue(asset: Uint8Array, amount: bigint, requestType: number): ScVal {
  return buildStruct({
    address: addressVal(asset),
    amount: buildI128(amount),
    request_type: buildU32(requestType),
  })
}

// ---------------------------------------------------------------------------------------------
// Events (pool/src/events.rs)

/** supply / withdraw / supply_collateral / withdraw_collateral / borrow / repay: `[name, asset, from]`, data `(tokens, b/d tokens)`. */
export function buildPoolActionEvent(
  pool: Uint8Array,
  name: string,
  asset: Uint8Array,
  from: xdr.ScAddressWire,
  tokens: bigint,
  shares: bigint,
): xdr.ContractEventWire {
  return buildContractEvent(
    pool,
    [buildSymbol(name), addressVal(asset), buildAddressVal(from)],
    buildVec([buildI128(tokens), buildI128(shares)]),
  )
}

/** `set_reserve`: topics `[set_reserve]`, data `(asset, index)`. */
export function buildSetReserveEvent(
  pool: Uint8Array,
  asset: Uint8Array,
  index: number,
): xdr.ContractEventWire {
  return buildContractEvent(
    pool,
    [buildSymbol('set_reserve')],
    buildVec([addressVal(asset), buildU32(index)]),
  )
}

/** `queue_set_reserve`: topics `[queue_set_reserve, admin]`, data `(asset, ReserveConfig)`. */
export function buildQueueSetReserveEvent(
  pool: Uint8Array,
  admin: xdr.ScAddressWire,
  asset: Uint8Array,
  config: ReserveConfigValue,
): xdr.ContractEventWire {
  return buildContractEvent(
    pool,
    [buildSymbol('queue_set_reserve'), buildAddressVal(admin)],
    buildVec([addressVal(asset), buildReserveConfigValue(config)]),
  )
}

/** Admin `set_status`: topics `[set_status, admin]`, data the status u32. */
export function buildSetStatusAdminEvent(
  pool: Uint8Array,
  admin: xdr.ScAddressWire,
  status: number,
): xdr.ContractEventWire {
  return buildContractEvent(pool, [buildSymbol('set_status'), buildAddressVal(admin)], buildU32(status))
}

// ---------------------------------------------------------------------------------------------
// Emissions (pool/src/emissions/{manager,distributor}.rs)

/** `ReserveEmissionData`: eps has 14 decimals (BLND's 7 times SCALAR_7). */
export interface EmissionDataValue {
  eps: bigint
  expiration: bigint
  index: bigint
  lastTime: bigint
}

export interface UserEmissionValue {
  accrued: bigint
  index: bigint
}

/** `PoolEmis`, persistent: `Map<u32, u64>` res_token_id -> share of the pool's emissions (7 decimals). */
export function buildPoolEmisKey(): ScVal {
  return buildSymbol('PoolEmis')
}

export function buildPoolEmisValue(shares: Map<number, bigint>): ScVal {
  return { type: 17, map: buildSortedMap([...shares].map(([k, v]) => [buildU32(k), buildU64(v)])) }
}

export function buildEmisDataKey(resTokenId: number): ScVal {
  return buildVec([buildSymbol('EmisData'), buildU32(resTokenId)])
}

export function buildEmisDataValue(d: EmissionDataValue): ScVal {
  return buildStruct({
    eps: buildU64(d.eps),
    expiration: buildU64(d.expiration),
    index: buildI128(d.index),
    last_time: buildU64(d.lastTime),
  })
}

/** `UserEmis(UserReserveKey{user, reserve_id})`: the key struct is a map sorted by field name. */
export function buildUserEmisKey(user: xdr.ScAddressWire, resTokenId: number): ScVal {
  return buildVec([
    buildSymbol('UserEmis'),
    buildStruct({ reserve_id: buildU32(resTokenId), user: buildAddressVal(user) }),
  ])
}

export function buildUserEmisValue(u: UserEmissionValue): ScVal {
  return buildStruct({ accrued: buildI128(u.accrued), index: buildI128(u.index) })
}

/** `reserve_emission_update`: topics `[reserve_emission_update]`, data `(res_token_id, eps, expiration)`. */
export function buildReserveEmissionUpdateEvent(
  pool: Uint8Array,
  resTokenId: number,
  eps: bigint,
  expiration: bigint,
): xdr.ContractEventWire {
  return buildContractEvent(
    pool,
    [buildSymbol('reserve_emission_update')],
    buildVec([buildU32(resTokenId), buildU64(eps), buildU64(expiration)]),
  )
}

/** `gulp_emissions`: topics `[gulp_emissions]`, data the i128 emissions received. */
export function buildGulpEmissionsEvent(pool: Uint8Array, emissions: bigint): xdr.ContractEventWire {
  return buildContractEvent(pool, [buildSymbol('gulp_emissions')], buildI128(emissions))
}

/** `claim`: topics `[claim, from]`, data `(reserve_token_ids, amount_claimed)`. */
export function buildClaimEvent(
  pool: Uint8Array,
  from: xdr.ScAddressWire,
  ids: number[],
  amount: bigint,
): xdr.ContractEventWire {
  return buildContractEvent(
    pool,
    [buildSymbol('claim'), buildAddressVal(from)],
    buildVec([buildVec(ids.map(buildU32)), buildI128(amount)]),
  )
}

// ---------------------------------------------------------------------------------------------
// Auctions (pool/src/auctions/auction.rs)

/** `AuctionData{bid, block, lot}`: bid and lot map asset addresses to d- and b-tokens. */
export interface AuctionValue {
  bid: Map<number, bigint>
  lot: Map<number, bigint>
  block: number
}

/** A `Map<Address, i128>` of reserve assets, sorted by address as the host keeps it. */
function buildAssetMap(m: Map<number, bigint>, assets: Uint8Array[]): ScVal {
  return { type: 17, map: buildSortedMap([...m].map(([i, v]) => [addressVal(assets[i]!), buildI128(v)])) }
}

export function buildAuctionValue(a: AuctionValue, assets: Uint8Array[]): ScVal {
  return buildStruct({
    bid: buildAssetMap(a.bid, assets),
    block: buildU32(a.block),
    lot: buildAssetMap(a.lot, assets),
  })
}

/** `Auction(AuctionKey{user, auct_type})`, temporary. */
export function buildAuctionKey(auctionType: number, user: xdr.ScAddressWire): ScVal {
  return buildVec([
    buildSymbol('Auction'),
    buildStruct({ auct_type: buildU32(auctionType), user: buildAddressVal(user) }),
  ])
}

/** `new_auction`: topics `[new_auction, auction_type, user]`, data `(percent, AuctionData)`. */
export function buildNewAuctionEvent(
  pool: Uint8Array,
  user: xdr.ScAddressWire,
  percent: number,
  auction: AuctionValue,
  assets: Uint8Array[],
): xdr.ContractEventWire {
  return buildContractEvent(
    pool,
    [buildSymbol('new_auction'), buildU32(0), buildAddressVal(user)],
    buildVec([buildU32(percent), buildAuctionValue(auction, assets)]),
  )
}

/** `fill_auction`: topics `[fill_auction, auction_type, user]`, data `(filler, fill_percent, filled AuctionData)`. */
export function buildFillAuctionEvent(
  pool: Uint8Array,
  user: xdr.ScAddressWire,
  filler: xdr.ScAddressWire,
  percent: bigint,
  filled: AuctionValue,
  assets: Uint8Array[],
): xdr.ContractEventWire {
  return buildContractEvent(
    pool,
    [buildSymbol('fill_auction'), buildU32(0), buildAddressVal(user)],
    buildVec([buildAddressVal(filler), buildI128(percent), buildAuctionValue(filled, assets)]),
  )
}
