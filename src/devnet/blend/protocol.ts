import type { xdr } from '@stellar/stellar-sdk'
import {
  buildContractDataEntry,
  buildContractDataKey,
  buildInstanceEntry,
  TEMPORARY,
} from '../ledger/contract-layout.ts'
import { createSacEvents, type SacEvents } from '../ledger/sac-events.ts'
import {
  buildAccountAddress,
  buildAddressVal,
  buildContractAddress,
  buildI128,
  buildString,
  buildStruct,
  buildU32,
  buildU64,
  buildVec,
  type ScVal,
} from '../ledger/scval.ts'
import type { SimulatedProtocol } from '../simulated-protocol.ts'
import { BLEND_POOL_NAMES, type DevnetIdentities } from '../world/identities.ts'
import { createRng, type Rng } from '../world/prng.ts'
import { ORACLE_INTERVAL_LEDGERS, PRICE_ONE, type SimTx, type WorldState } from '../world/world-state.ts'
import {
  type AuctionValue,
  buildAuctionKey,
  buildAuctionValue,
  buildClaimEvent,
  buildEmisDataKey,
  buildEmisDataValue,
  buildFillAuctionEvent,
  buildGulpEmissionsEvent,
  buildNewAuctionEvent,
  buildPoolActionEvent,
  buildPoolEmisKey,
  buildPoolEmisValue,
  buildPoolInstanceStorage,
  buildPositionsKey,
  buildPositionsValue,
  buildQueuedReserveInitValue,
  buildQueueSetReserveEvent,
  buildRequestValue,
  buildResConfigKey,
  buildResDataKey,
  buildReserveConfigValue,
  buildReserveDataValue,
  buildReserveEmissionUpdateEvent,
  buildResInitKey,
  buildResListKey,
  buildResListValue,
  buildSetReserveEvent,
  buildSetStatusAdminEvent,
  buildUserEmisKey,
  buildUserEmisValue,
  type EmissionDataValue,
  type PoolConfigValue,
  type PositionsValue,
  type ReserveConfigValue,
  type ReserveDataValue,
  type TokenMap,
  type UserEmissionValue,
} from './layout.ts'

/**
 * Two Blend v2 lending pools (blend-capital/blend-contracts-v2, pool/), simulated: deployment and
 * reserve set-up, and `submit` with requests 0-5 following pool/src/pool/{submit,actions,reserve,
 * interest,health_factor,user}.rs: every touched reserve is accrued to the ledger's time, b/d tokens
 * are minted and burnt with the contract's rounding, health and utilization are checked (a failed
 * check fails the transaction, which then changes nothing), and the effects come in the contract's
 * order. No emissions are configured, so no `EmisData`/`UserEmis` is written (the contract writes
 * none while `EmisData` is absent). Activity comes from its own random stream, so the rest of the
 * world is unchanged by it. Layouts and choices: docs/devnet.md.
 */

export const SCALAR_7 = 10_000_000n
export const SCALAR_12 = 1_000_000_000_000n
const SECONDS_PER_YEAR = 31_536_000n
/** `submit` refuses a health factor under 1.0000100 (submit.rs `validate_submit`). */
const MIN_HF = 10_000_100n
const ORACLE_SCALAR = 10n ** 14n

export const RequestType = {
  Supply: 0,
  Withdraw: 1,
  SupplyCollateral: 2,
  WithdrawCollateral: 3,
  Borrow: 4,
  Repay: 5,
} as const

const EVENT_NAMES = ['supply', 'withdraw', 'supply_collateral', 'withdraw_collateral', 'borrow', 'repay']

// ---------------------------------------------------------------------------------------------
// Fixed-point arithmetic (soroban-fixed-point-math): floor and ceil are mathematical, also below zero.

export function divFloor(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q
}

export function divCeil(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n === b < 0n ? q + 1n : q
}

const mulFloor = (x: bigint, y: bigint, d: bigint) => divFloor(x * y, d)
const mulCeil = (x: bigint, y: bigint, d: bigint) => divCeil(x * y, d)

// ---------------------------------------------------------------------------------------------
// Reserves (reserve.rs, interest.rs)

export function toAssetFromB(d: ReserveDataValue, b: bigint): bigint {
  return mulFloor(b, d.bRate, SCALAR_12)
}

export function toAssetFromD(d: ReserveDataValue, dTokens: bigint): bigint {
  return mulCeil(dTokens, d.dRate, SCALAR_12)
}

export function utilization(d: ReserveDataValue): bigint {
  const liabilities = toAssetFromD(d, d.dSupply)
  const supply = toAssetFromB(d, d.bSupply)
  if (liabilities === 0n) return 0n
  if (liabilities >= supply) return SCALAR_7
  return divCeil(liabilities * SCALAR_7, supply)
}

/** `calc_accrual`: the 12-decimal accrual factor and the new rate modifier. */
export function calcAccrual(
  c: ReserveConfigValue,
  util: bigint,
  irMod: bigint,
  dt: bigint,
): [bigint, bigint] {
  const target = BigInt(c.util)
  const rBase = BigInt(c.rBase)
  const rOne = BigInt(c.rOne)
  const rTwo = BigInt(c.rTwo)
  let curIr: bigint
  if (util <= target) {
    const utilScalar = divCeil(util * SCALAR_7, target)
    const baseRate = mulCeil(utilScalar, rOne, SCALAR_7) + rBase
    curIr = mulCeil(baseRate, irMod, SCALAR_7)
  } else if (util <= 9_500_000n) {
    const utilScalar = divCeil((util - target) * SCALAR_7, 9_500_000n - target)
    const baseRate = mulCeil(utilScalar, rTwo, SCALAR_7) + rOne + rBase
    curIr = mulCeil(baseRate, irMod, SCALAR_7)
  } else {
    const utilScalar = divCeil((util - 9_500_000n) * SCALAR_7, 500_000n)
    const extra = mulCeil(utilScalar, BigInt(c.rThree), SCALAR_7)
    curIr = extra + mulCeil(irMod, rTwo + rOne + rBase, SCALAR_7)
  }
  const utilDif = util - target
  const reactivity = BigInt(c.reactivity)
  let newIrMod: bigint
  if (utilDif >= 0n) {
    const next = irMod + mulFloor(dt * utilDif, reactivity, SCALAR_7)
    newIrMod = next > 10n * SCALAR_7 ? 10n * SCALAR_7 : next
  } else {
    const next = irMod + mulCeil(dt * utilDif, reactivity, SCALAR_7)
    newIrMod = next < SCALAR_7 / 10n ? SCALAR_7 / 10n : next
  }
  const timeWeight = (dt * SCALAR_12) / SECONDS_PER_YEAR
  return [SCALAR_12 + mulCeil(timeWeight, curIr, SCALAR_7), newIrMod]
}

/** `Reserve::load`: the reserve data accrued to `now` (a new object; the input is left alone). */
export function accrueReserve(
  c: ReserveConfigValue,
  data: ReserveDataValue,
  bstopRate: number,
  now: bigint,
): ReserveDataValue {
  const d = { ...data }
  if (now === d.lastTime) return d
  const util = utilization(d)
  if (d.bSupply === 0n || util === 0n) {
    d.lastTime = now
    return d
  }
  const [accrual, irMod] = calcAccrual(c, util, d.irMod, now - d.lastTime)
  d.irMod = irMod
  const preLiabilities = toAssetFromD(d, d.dSupply)
  d.dRate = mulCeil(accrual, d.dRate, SCALAR_12)
  const accrued = toAssetFromD(d, d.dSupply) - preLiabilities
  const preSupply = toAssetFromB(d, d.bSupply)
  if (accrued > 0n) {
    let credit = 0n
    if (bstopRate > 0) {
      credit = mulFloor(accrued, BigInt(bstopRate), SCALAR_7)
      d.backstopCredit += credit
    }
    d.bRate = divFloor((preSupply + accrued - credit) * SCALAR_12, d.bSupply)
  }
  d.lastTime = now
  return d
}

// ---------------------------------------------------------------------------------------------
// The devnet's pools

interface ReserveState {
  asset: Uint8Array
  config: ReserveConfigValue
  data: ReserveDataValue
  modified: number
}

interface UserState {
  positions: PositionsValue
  modified: number
}

interface PoolState {
  id: Uint8Array
  name: string
  config: PoolConfigValue
  reserves: ReserveState[]
  users: Map<number, UserState>
  instanceModified: number
  listModified: number
  /** `PoolEmis`: res_token_id -> share (7 decimals). */
  shares: Map<number, bigint>
  emis: Map<number, { data: EmissionDataValue; modified: number }>
  /** `${account}:${res_token_id}` -> UserEmis. */
  userEmis: Map<string, { value: UserEmissionValue; modified: number }>
  /** Open user liquidation auctions by liquidatee, with the ledger the liquidator fills them at. */
  auctions: Map<number, { data: AuctionValue; modified: number; fillAt: number }>
}

export interface BlendPoolSpec {
  name: string
  bstopRate: number
  maxPositions: number
  minCollateral: bigint
  /** `set_emissions_config`: res_token_id (reserve index × 2, + 1 for the b-token) -> share. */
  shares: [number, bigint][]
}

/** The devnet's two pools, shaped after the mainnet Fixed and YieldBlox v2 pools. */
export const POOL_SPECS: BlendPoolSpec[] = [
  {
    name: BLEND_POOL_NAMES[0],
    bstopRate: 2_000_000,
    maxPositions: 4,
    minCollateral: ORACLE_SCALAR,
    shares: [
      [0, 2_000_000n],
      [1, 3_000_000n],
      [2, 2_500_000n],
      [3, 2_500_000n],
    ],
  },
  {
    name: BLEND_POOL_NAMES[1],
    bstopRate: 1_000_000,
    maxPositions: 6,
    minCollateral: 5n * ORACLE_SCALAR,
    shares: [
      [1, 4_000_000n],
      [3, 3_000_000n],
      [5, 3_000_000n],
    ],
  },
]

type ReserveParams = Omit<ReserveConfigValue, 'index' | 'decimals' | 'enabled' | 'supplyCap'>
/** Reserve parameters in the order of `ResList`: XLM, USDC, EURC. */
const RESERVE_PARAMS: ReserveParams[] = [
  {
    cFactor: 7_500_000,
    lFactor: 7_500_000,
    util: 5_000_000,
    maxUtil: 7_000_000,
    rBase: 100_000,
    rOne: 500_000,
    rTwo: 5_000_000,
    rThree: 50_000_000,
    reactivity: 20,
  },
  {
    cFactor: 9_500_000,
    lFactor: 9_500_000,
    util: 8_000_000,
    maxUtil: 9_500_000,
    rBase: 30_000,
    rOne: 400_000,
    rTwo: 1_200_000,
    rThree: 50_000_000,
    reactivity: 40,
  },
  {
    cFactor: 9_000_000,
    lFactor: 9_000_000,
    util: 7_500_000,
    maxUtil: 9_000_000,
    rBase: 50_000,
    rOne: 500_000,
    rTwo: 1_500_000,
    rThree: 50_000_000,
    reactivity: 40,
  },
]
/** Supply caps, in the underlying's stroops: 2e9 XLM, 5e8 USDC, 2e8 EURC. */
const SUPPLY_CAPS = [2_000_000_000n * 10_000_000n, 500_000_000n * 10_000_000n, 200_000_000n * 10_000_000n]

export interface BlendOptions {
  /** Probability that a given lending account submits in a given ledger. */
  activity: number
}

/** The Blend pools as a simulated protocol, and what DeFindex's strategies call in them. */
export interface Blend extends SimulatedProtocol {
  /** Makes a contract (a DeFindex strategy) a user of a pool; returns its user number. */
  addContractUser(contract: Uint8Array): number
  /**
   * `submit(user, user, to, requests)` called by a contract user inside its own transaction: the
   * pool's changes and events (successful) or nothing (failed), for the caller to place in its tx.
   */
  contractSubmit(w: WorldState, pool: number, user: number, requests: Req[], to: xdr.ScAddressWire): SimTx
  /** `claim(user, ids, user)` by a contract user (its own `claim_ids`). */
  contractClaim(w: WorldState, pool: number, user: number, ids: number[]): SimTx
  /** `get_reserve(asset).data`: the reserve accrued to this ledger's time, not stored. */
  loadReserve(w: WorldState, pool: number, reserve: number): ReserveDataValue
  /** A user's b-tokens supplied (not collateral) to a reserve, as its `Positions` entry says. */
  suppliedOf(pool: number, user: number, reserve: number): bigint
  /**
   * What a contract user's submits can change in a pool (reserves, its positions, emissions), kept
   * so that a transaction failing after one of them can be undone; returns the undo.
   */
  savepoint(pool: number, user: number): () => void
}

function emptyPositions(): PositionsValue {
  return { collateral: new Map(), liabilities: new Map(), supply: new Map() }
}

function clonePositions(p: PositionsValue): PositionsValue {
  return { collateral: new Map(p.collateral), liabilities: new Map(p.liabilities), supply: new Map(p.supply) }
}

const add = (m: TokenMap, i: number, v: bigint) => m.set(i, (m.get(i) ?? 0n) + v)
/** Removes `v`; a zero balance leaves the map (user.rs `remove_*`). */
function remove(m: TokenMap, i: number, v: bigint): boolean {
  const next = (m.get(i) ?? 0n) - v
  if (next < 0n) return false
  if (next === 0n) m.delete(i)
  else m.set(i, next)
  return true
}

interface PositionBase {
  collateralBase: bigint
  liabilityBase: bigint
  collateralRaw: bigint
  liabilityRaw: bigint
}

/** PositionData: health factor in the oracle's decimals (`as_health_factor`). */
const healthFactor = (p: PositionBase) => divFloor(p.collateralBase * ORACLE_SCALAR, p.liabilityBase)
/** `is_hf_over(max)`, max in 7 decimals. */
const isHfOver = (p: PositionBase, max: bigint) =>
  p.liabilityBase === 0n || healthFactor(p) > mulCeil(ORACLE_SCALAR, max, SCALAR_7)
/** `is_hf_under(min)`, min in 7 decimals. */
const isHfUnder = (p: PositionBase, min: bigint) =>
  p.liabilityBase !== 0n && healthFactor(p) < mulFloor(ORACLE_SCALAR, min, SCALAR_7)

/** A request the simulated account sends: reserve index, amount, type. */
export interface Req {
  reserve: number
  amount: bigint
  type: number
}

const SECONDS_PER_WEEK = 604_800n
/** Ledgers between two `gulp_emissions` of a pool (the backstop distributes hourly here, weekly on mainnet). */
const GULP_INTERVAL_LEDGERS = 720

/**
 * The emissions bookkeeping of one transaction (distributor.rs, manager.rs): `EmisData` and
 * `UserEmis` are read through and written back, as changes, only when the transaction succeeds.
 */
function createEmissionTx(pool: PoolState, now: bigint, addressOf: (account: number) => xdr.ScAddressWire) {
  const data = new Map<number, EmissionDataValue | null>()
  const dataWritten = new Set<number>()
  /** `${account}:${res_token_id}`. */
  const user = new Map<string, UserEmissionValue | null>()
  const userWritten = new Map<string, [number, number]>()
  const getData = (id: number): EmissionDataValue | null => {
    if (!data.has(id)) {
      const e = pool.emis.get(id)
      data.set(id, e ? { ...e.data } : null)
    }
    return data.get(id)!
  }
  const getUser = (key: string): UserEmissionValue | null => {
    if (!user.has(key)) {
      const e = pool.userEmis.get(key)
      user.set(key, e ? { ...e.value } : null)
    }
    return user.get(key)!
  }
  /** `update_emission_data`: null when the token has no emissions. */
  const updateData = (id: number, supply: bigint, scalar: bigint): EmissionDataValue | null => {
    const d = getData(id)
    if (!d) return null
    if (d.lastTime >= d.expiration || now === d.lastTime || d.eps === 0n || supply === 0n) return d
    const until = now > d.expiration ? d.expiration : now
    d.index += divFloor((until - d.lastTime) * d.eps * scalar, supply)
    d.lastTime = until
    dataWritten.add(id)
    return d
  }
  /** `update_user_emissions`: what a claim takes (0 when not claiming). */
  const updateUser = (
    account: number,
    id: number,
    d: EmissionDataValue,
    scalar: bigint,
    balance: bigint,
    claim: boolean,
  ): bigint => {
    const key = `${account}:${id}`
    const u = getUser(key)
    let accrued: bigint
    if (u) {
      if (u.index === d.index && !claim) return 0n
      accrued = u.accrued + (balance !== 0n ? divFloor(balance * (d.index - u.index), scalar * SCALAR_7) : 0n)
    } else {
      // First touch since emissions began: a holder is due the whole index so far.
      accrued = balance === 0n ? 0n : divFloor(balance * d.index, scalar * SCALAR_7)
    }
    user.set(key, { index: d.index, accrued: claim ? 0n : accrued })
    userWritten.set(key, [account, id])
    return claim ? accrued : 0n
  }
  return {
    updateData,
    /** `update_emissions`, called with the supply and the user's balance before a change. */
    update(account: number, id: number, supply: bigint, scalar: bigint, balance: bigint): void {
      const d = updateData(id, supply, scalar)
      if (d) updateUser(account, id, d, scalar, balance, false)
    },
    claim(account: number, id: number, supply: bigint, scalar: bigint, balance: bigint): bigint {
      const d = updateData(id, supply, scalar)
      return d ? updateUser(account, id, d, scalar, balance, true) : 0n
    },
    setData(id: number, d: EmissionDataValue): void {
      data.set(id, d)
      dataWritten.add(id)
    },
    /** Commits the writes to the pool and returns their entry changes (EmisData, then UserEmis). */
    commit(sequence: number): xdr.LedgerEntryChangeWire[] {
      const changes: xdr.LedgerEntryChangeWire[] = []
      for (const id of dataWritten) {
        const before = pool.emis.get(id)
        const key = buildEmisDataKey(id)
        if (before)
          changes.push({
            type: 3,
            state: buildContractDataEntry(pool.id, key, buildEmisDataValue(before.data), before.modified),
          })
        const next = { data: data.get(id)!, modified: sequence }
        pool.emis.set(id, next)
        const entry = buildContractDataEntry(pool.id, key, buildEmisDataValue(next.data), sequence)
        changes.push(before ? { type: 1, updated: entry } : { type: 0, created: entry })
      }
      for (const [mapKey, [account, id]] of userWritten) {
        const before = pool.userEmis.get(mapKey)
        const key = buildUserEmisKey(addressOf(account), id)
        if (before)
          changes.push({
            type: 3,
            state: buildContractDataEntry(pool.id, key, buildUserEmisValue(before.value), before.modified),
          })
        const next = { value: user.get(mapKey)!, modified: sequence }
        pool.userEmis.set(mapKey, next)
        const entry = buildContractDataEntry(pool.id, key, buildUserEmisValue(next.value), sequence)
        changes.push(before ? { type: 1, updated: entry } : { type: 0, created: entry })
      }
      return changes
    },
  }
}

export function createBlend(ids: DevnetIdentities, accounts: number, options: BlendOptions): Blend {
  const rng: Rng = createRng(`${ids.seed}:blend`)
  const assets = [ids.xlmContract, ids.usdcContract, ids.eurcContract]
  const sacs: SacEvents[] = [
    createSacEvents(ids.xlmContract, 'native'),
    createSacEvents(ids.usdcContract, `USDC:${ids.usdcIssuerAddress}`),
    createSacEvents(ids.eurcContract, `EURC:${ids.eurcIssuerAddress}`),
  ]
  const blndSac = createSacEvents(ids.blndContract, `BLND:${ids.blndIssuerAddress}`)
  const admin = buildAccountAddress(ids.blendAdmin)
  const pools: PoolState[] = POOL_SPECS.map((spec, p) => ({
    id: ids.blendPools[p]!,
    name: spec.name,
    config: {
      bstopRate: spec.bstopRate,
      maxPositions: spec.maxPositions,
      minCollateral: spec.minCollateral,
      oracle: ids.oracleContract,
      status: 6,
    },
    reserves: [],
    users: new Map(),
    instanceModified: 0,
    listModified: 0,
    shares: new Map(spec.shares),
    emis: new Map(),
    userEmis: new Map(),
    auctions: new Map(),
  }))
  // Who lends where: about half the accounts, each in one pool; some start asleep.
  const poolOf = new Int8Array(accounts).fill(-1)
  const dormantUntil = new Int32Array(accounts)
  const size = new Uint8Array(accounts)
  for (let a = 0; a < accounts; a++) {
    if (rng.chance(0.5)) poolOf[a] = rng.nextInt(pools.length)
    size[a] = rng.chance(0.03) ? 40 : 1
    dormantUntil[a] = rng.chance(0.25) ? rng.nextRange(0, 4_000) : 0
  }
  let started = 0
  /** A map keyed by reserve, in the order of its assets' addresses (how a host Map<Address, _> iterates). */
  const byAsset = (m: Map<number, bigint>) =>
    [...m].sort(([a], [b]) => Buffer.compare(Buffer.from(assets[a]!), Buffer.from(assets[b]!)))
  const pool0Config = (i: number) => pools[0]!.reserves[i]!.config

  // The liquidator is account number `accounts`, after the population.
  const liquidator = accounts
  const sourceOf = (a: number) => (a === liquidator ? ids.blendLiquidator : ids.accountKey(a))
  // Contract users (DeFindex strategies) are numbered after the liquidator.
  const contractUsers = new Map<number, Uint8Array>()
  const accountAddress = (a: number): xdr.ScAddressWire => {
    const contract = contractUsers.get(a)
    return contract ? buildContractAddress(contract) : buildAccountAddress(sourceOf(a))
  }

  const instanceEntry = (pool: PoolState) =>
    buildInstanceEntry(
      pool.id,
      ids.blendPoolWasm,
      buildPoolInstanceStorage({
        admin,
        backstop: ids.blendBackstop,
        blnd: ids.blndContract,
        config: pool.config,
        name: pool.name,
      }),
      pool.instanceModified,
    )
  const listEntry = (pool: PoolState) =>
    buildContractDataEntry(
      pool.id,
      buildResListKey(),
      buildResListValue(pool.reserves.map((r) => r.asset)),
      pool.listModified,
    )
  const resDataEntry = (pool: PoolState, r: ReserveState) =>
    buildContractDataEntry(pool.id, buildResDataKey(r.asset), buildReserveDataValue(r.data), r.modified)
  const resConfigEntry = (pool: PoolState, r: ReserveState, modified: number) =>
    buildContractDataEntry(pool.id, buildResConfigKey(r.asset), buildReserveConfigValue(r.config), modified)
  const positionsEntry = (pool: PoolState, account: number, u: UserState) =>
    buildContractDataEntry(
      pool.id,
      buildPositionsKey(accountAddress(account)),
      buildPositionsValue(u.positions),
      u.modified,
    )

  const deployTxs = (w: WorldState): SimTx[] => {
    started = w.sequence
    const now = BigInt(w.closeTime)
    const txs: SimTx[] = []
    for (const pool of pools) {
      // The factory deploys the pool; its constructor writes the instance (status 6, setup).
      pool.instanceModified = w.sequence
      txs.push({
        source: ids.blendAdmin,
        contract: pool.id,
        fn: '__constructor',
        args: [
          buildAddressVal(admin),
          buildString(pool.name),
          buildAddressVal(buildContractAddress(ids.oracleContract)),
          buildU32(pool.config.bstopRate),
          buildU32(pool.config.maxPositions),
          buildI128(pool.config.minCollateral),
          buildAddressVal(buildContractAddress(ids.blendBackstop)),
          buildAddressVal(buildContractAddress(ids.blndContract)),
        ],
        successful: true,
        changes: [{ type: 0, created: instanceEntry(pool) }],
        events: [],
      })
      assets.forEach((asset, index) => {
        const config: ReserveConfigValue = {
          ...RESERVE_PARAMS[index]!,
          index,
          decimals: 7,
          enabled: true,
          supplyCap: SUPPLY_CAPS[index]!,
        }
        // Status 6 (setup): the queued reserve unlocks at once (config.rs `execute_queue_set_reserve`).
        const initKey = buildResInitKey(asset)
        txs.push({
          source: ids.blendAdmin,
          contract: pool.id,
          fn: 'queue_set_reserve',
          args: [buildAddressVal(buildContractAddress(asset)), buildReserveConfigValue(config)],
          successful: true,
          changes: [
            {
              type: 0,
              created: buildContractDataEntry(
                pool.id,
                initKey,
                buildQueuedReserveInitValue(config, now),
                w.sequence,
                TEMPORARY,
              ),
            },
          ],
          events: [buildQueueSetReserveEvent(pool.id, admin, asset, config)],
        })
        const listBefore = pool.reserves.length > 0 ? listEntry(pool) : null
        const reserve: ReserveState = {
          asset,
          config,
          data: {
            bRate: SCALAR_12,
            dRate: SCALAR_12,
            irMod: SCALAR_7,
            bSupply: 0n,
            dSupply: 0n,
            backstopCredit: 0n,
            lastTime: now,
          },
          modified: w.sequence,
        }
        pool.reserves.push(reserve)
        pool.listModified = w.sequence
        const changes: xdr.LedgerEntryChangeWire[] = [
          {
            type: 3,
            state: buildContractDataEntry(
              pool.id,
              initKey,
              buildQueuedReserveInitValue(config, now),
              w.sequence,
              TEMPORARY,
            ),
          },
          { type: 2, removed: buildContractDataKey(pool.id, initKey, TEMPORARY) },
        ]
        if (listBefore) changes.push({ type: 3, state: listBefore }, { type: 1, updated: listEntry(pool) })
        else changes.push({ type: 0, created: listEntry(pool) })
        changes.push(
          { type: 0, created: resDataEntry(pool, reserve) },
          { type: 0, created: resConfigEntry(pool, reserve, w.sequence) },
        )
        txs.push({
          source: ids.blendAdmin,
          contract: pool.id,
          fn: 'set_reserve',
          args: [buildAddressVal(buildContractAddress(asset))],
          successful: true,
          changes,
          events: [buildSetReserveEvent(pool.id, asset, index)],
        })
      })
      // The admin opens the pool (status 0, admin active).
      const before = instanceEntry(pool)
      pool.config = { ...pool.config, status: 0 }
      txs.push({
        source: ids.blendAdmin,
        contract: pool.id,
        fn: 'set_status',
        args: [buildU32(0)],
        successful: true,
        changes: [
          { type: 3, state: before },
          { type: 1, updated: instanceEntry(pool) },
        ],
        events: [buildSetStatusAdminEvent(pool.id, admin, 0)],
      })
      // `set_emissions_config` writes PoolEmis (no event); the first gulp creates every EmisData.
      txs.push({
        source: ids.blendAdmin,
        contract: pool.id,
        fn: 'set_emissions_config',
        args: [
          buildVec(
            [...pool.shares].map(([id, share]) =>
              buildStruct({
                res_index: buildU32(id >> 1),
                res_type: buildU32(id & 1),
                share: buildU64(share),
              }),
            ),
          ),
        ],
        successful: true,
        changes: [{ type: 0, created: poolEmisEntry(pool, w.sequence) }],
        events: [],
      })
      txs.push(gulpTx(w, pool, 2_000n * 10_000_000n))
      // The liquidator's collateral buffer: 10 million USDC, so its fills stay healthy.
      txs.push(
        submit(w, pool, liquidator, [
          { reserve: 1, amount: 10_000_000n * 10_000_000n, type: RequestType.SupplyCollateral },
        ]),
      )
    }
    return txs
  }

  const poolEmisEntry = (pool: PoolState, modified: number) =>
    buildContractDataEntry(pool.id, buildPoolEmisKey(), buildPoolEmisValue(pool.shares), modified)

  /** `gulp_emissions`: the backstop's new emissions split by share into each token's eps for a week. */
  const gulpTx = (w: WorldState, pool: PoolState, newEmissions: bigint): SimTx => {
    const now = BigInt(w.closeTime)
    const em = createEmissionTx(pool, now, accountAddress)
    const events: xdr.ContractEventWire[] = []
    let total = 0n
    for (const share of pool.shares.values()) total += share
    const expiration = now + SECONDS_PER_WEEK
    // Map<u32, u64> iterates by key.
    for (const [id, share] of [...pool.shares].sort(([a], [b]) => a - b)) {
      const r = pool.reserves[id >> 1]!
      const scalar = 10n ** BigInt(r.config.decimals)
      let tokensLeft = mulFloor(divFloor(share * SCALAR_7, total), newEmissions, SCALAR_7)
      const supply = id % 2 === 0 ? r.data.dSupply : r.data.bSupply
      const d = em.updateData(id, supply, scalar)
      let next: EmissionDataValue
      if (d) {
        if (d.expiration > now) tokensLeft += mulFloor(d.eps, d.expiration - now, SCALAR_7)
        next = { ...d, lastTime: now, expiration, eps: (tokensLeft * SCALAR_7) / SECONDS_PER_WEEK }
      } else {
        next = { expiration, eps: (tokensLeft * SCALAR_7) / SECONDS_PER_WEEK, index: 0n, lastTime: now }
      }
      em.setData(id, next)
      events.push(buildReserveEmissionUpdateEvent(pool.id, id, next.eps, expiration))
    }
    events.push(buildGulpEmissionsEvent(pool.id, newEmissions))
    return {
      source: ids.blendAdmin,
      contract: pool.id,
      fn: 'gulp_emissions',
      args: [],
      successful: true,
      changes: em.commit(w.sequence),
      events,
    }
  }

  /** `claim(from, reserve_token_ids, from)` over the tokens the account holds; null when it holds none with emissions. */
  const claimTx = (w: WorldState, pool: PoolState, account: number, claimIds?: number[]): SimTx | null => {
    const pos = pool.users.get(account)?.positions ?? (claimIds ? emptyPositions() : undefined)
    if (!pos) return null
    const tokenIds: number[] = claimIds ? [...claimIds] : []
    for (let i = 0; i < pool.reserves.length && !claimIds; i++) {
      if (pos.liabilities.has(i) && pool.shares.has(i * 2)) tokenIds.push(i * 2)
      if ((pos.collateral.has(i) || pos.supply.has(i)) && pool.shares.has(i * 2 + 1)) tokenIds.push(i * 2 + 1)
    }
    if (tokenIds.length === 0) return null
    const from = accountAddress(account)
    const em = createEmissionTx(pool, BigInt(w.closeTime), accountAddress)
    let toClaim = 0n
    for (const id of tokenIds) {
      // execute_claim reads ResData as stored (not accrued).
      const r = pool.reserves[id >> 1]!
      const scalar = 10n ** BigInt(r.config.decimals)
      const i = id >> 1
      toClaim +=
        id % 2 === 0
          ? em.claim(account, id, r.data.dSupply, scalar, pos.liabilities.get(i) ?? 0n)
          : em.claim(
              account,
              id,
              r.data.bSupply,
              scalar,
              (pos.collateral.get(i) ?? 0n) + (pos.supply.get(i) ?? 0n),
            )
    }
    const events: xdr.ContractEventWire[] = []
    // The BLND transfer (backstop -> to) happens inside execute_claim, before the `claim` event.
    if (toClaim > 0n) events.push(blndSac.transfer(buildContractAddress(ids.blendBackstop), from, toClaim))
    events.push(buildClaimEvent(pool.id, from, tokenIds, toClaim))
    return {
      source: sourceOf(account),
      contract: pool.id,
      fn: 'claim',
      args: [buildAddressVal(from), buildVec(tokenIds.map(buildU32)), buildAddressVal(from)],
      successful: true,
      changes: em.commit(w.sequence),
      events,
    }
  }

  /** Oracle prices (14 decimals) of the reserves, as the feed last published them. */
  const prices = (w: WorldState): bigint[] => [w.xlmPrice, PRICE_ONE, w.denoms[1]!.price]

  /** Simulates `submit(from, from, from, requests)`; a failed check fails the transaction. */
  const submit = (
    w: WorldState,
    pool: PoolState,
    account: number,
    requests: Req[],
    toAddress?: xdr.ScAddressWire,
  ): SimTx => {
    const now = BigInt(w.closeTime)
    const from = accountAddress(account)
    // A contract user's `to` may differ (a strategy withdraws straight to the vault's depositor).
    const to = toAddress ?? from
    const args = [
      buildAddressVal(from),
      buildAddressVal(from),
      buildAddressVal(to),
      buildVec(requests.map((r) => buildRequestValue(assets[r.reserve]!, r.amount, r.type))),
    ]
    const failed = (): SimTx => ({
      source: sourceOf(account),
      contract: pool.id,
      fn: 'submit',
      args,
      successful: false,
      changes: [],
      events: [],
    })
    const cache = new Map<number, ReserveDataValue>()
    const toStore: number[] = []
    const load = (i: number, store: boolean): ReserveDataValue => {
      if (store && !toStore.includes(i)) toStore.push(i)
      let d = cache.get(i)
      if (!d) {
        const r = pool.reserves[i]!
        d = accrueReserve(r.config, r.data, pool.config.bstopRate, now)
        cache.set(i, d)
      }
      return d
    }
    const existing = pool.users.get(account)
    const pos = existing ? clonePositions(existing.positions) : emptyPositions()
    const prevCount = pos.liabilities.size + pos.collateral.size
    const events: xdr.ContractEventWire[] = []
    const spenderTransfer = new Map<number, bigint>()
    const poolTransfer = new Map<number, bigint>()
    const checkMaxUtil: number[] = []
    let checkHealth = false
    const em = createEmissionTx(pool, now, accountAddress)
    for (const req of requests) {
      const i = req.reserve
      const c = pool.reserves[i]!.config
      const d = load(i, true)
      const scalar = 10n ** BigInt(c.decimals)
      // user.rs: emissions are brought up to date with the balance before every change.
      if (req.type === RequestType.Borrow || req.type === RequestType.Repay)
        em.update(account, i * 2, d.dSupply, scalar, pos.liabilities.get(i) ?? 0n)
      else
        em.update(
          account,
          i * 2 + 1,
          d.bSupply,
          scalar,
          (pos.collateral.get(i) ?? 0n) + (pos.supply.get(i) ?? 0n),
        )
      let tokens = req.amount
      let shares: bigint
      switch (req.type) {
        case RequestType.Supply:
        case RequestType.SupplyCollateral: {
          shares = divFloor(req.amount * SCALAR_12, d.bRate)
          if (shares <= 0n) return failed()
          add(req.type === RequestType.Supply ? pos.supply : pos.collateral, i, shares)
          d.bSupply += shares
          add(spenderTransfer, i, req.amount)
          if (toAssetFromB(d, d.bSupply) > c.supplyCap) return failed()
          break
        }
        case RequestType.Withdraw:
        case RequestType.WithdrawCollateral: {
          const map = req.type === RequestType.Withdraw ? pos.supply : pos.collateral
          const balance = map.get(i) ?? 0n
          shares = divCeil(req.amount * SCALAR_12, d.bRate)
          if (shares > balance) {
            shares = balance
            tokens = toAssetFromB(d, balance)
          }
          if (shares <= 0n || !remove(map, i, shares)) return failed()
          d.bSupply -= shares
          if (utilization(d) >= SCALAR_7) return failed()
          add(poolTransfer, i, tokens)
          if (req.type === RequestType.WithdrawCollateral) checkHealth = true
          break
        }
        case RequestType.Borrow: {
          shares = divCeil(req.amount * SCALAR_12, d.dRate)
          if (shares <= 0n) return failed()
          add(pos.liabilities, i, shares)
          d.dSupply += shares
          if (utilization(d) >= SCALAR_7) return failed()
          if (!checkMaxUtil.includes(i)) checkMaxUtil.push(i)
          add(poolTransfer, i, req.amount)
          checkHealth = true
          break
        }
        case RequestType.Repay: {
          const balance = pos.liabilities.get(i) ?? 0n
          shares = divFloor(req.amount * SCALAR_12, d.dRate)
          add(spenderTransfer, i, req.amount)
          if (shares > balance) {
            const owed = toAssetFromD(d, balance)
            const refund = req.amount - owed
            if (refund < 0n) return failed()
            add(poolTransfer, i, refund)
            shares = balance
            tokens = owed
          }
          if (shares <= 0n || !remove(pos.liabilities, i, shares)) return failed()
          d.dSupply -= shares
          break
        }
        default:
          throw new Error(`request type ${req.type} is not simulated`)
      }
      events.push(buildPoolActionEvent(pool.id, EVENT_NAMES[req.type]!, assets[i]!, from, tokens, shares))
    }
    // validate_submit: positions cap, no liquidation under way, utilization caps, health.
    const count = pos.liabilities.size + pos.collateral.size
    if (count > prevCount && pool.config.maxPositions < count) return failed()
    if (pool.auctions.has(account)) return failed()
    for (const i of checkMaxUtil) {
      if (utilization(load(i, false)) > BigInt(pool.reserves[i]!.config.maxUtil)) return failed()
    }
    if (checkHealth && pos.liabilities.size > 0) {
      const data = positionBase(pool, pos, w, load)
      if (isHfUnder(data, MIN_HF)) return failed()
      if (data.collateralBase < pool.config.minCollateral) return failed()
    }
    // Transfers: spender -> pool, then pool -> to, each map in the host's order (by asset address).
    const poolAddress = buildContractAddress(pool.id)
    for (const [i, amount] of byAsset(spenderTransfer))
      events.push(sacs[i]!.transfer(from, poolAddress, amount))
    for (const [i, amount] of byAsset(poolTransfer)) events.push(sacs[i]!.transfer(poolAddress, to, amount))
    // Effects: emissions, ResData of the touched reserves in the order they were first loaded, Positions.
    const changes: xdr.LedgerEntryChangeWire[] = em.commit(w.sequence)
    for (const i of toStore) {
      const r = pool.reserves[i]!
      const before = resDataEntry(pool, r)
      r.data = cache.get(i)!
      r.modified = w.sequence
      changes.push({ type: 3, state: before }, { type: 1, updated: resDataEntry(pool, r) })
    }
    if (existing) {
      const before = positionsEntry(pool, account, existing)
      existing.positions = pos
      existing.modified = w.sequence
      changes.push({ type: 3, state: before }, { type: 1, updated: positionsEntry(pool, account, existing) })
    } else {
      const user = { positions: pos, modified: w.sequence }
      pool.users.set(account, user)
      changes.push({ type: 0, created: positionsEntry(pool, account, user) })
    }
    return {
      source: sourceOf(account),
      contract: pool.id,
      fn: 'submit',
      args,
      successful: true,
      changes,
      events,
    }
  }

  /** health_factor.rs `calculate_from_positions`, in the oracle's base (14 decimals). */
  const positionBase = (
    pool: PoolState,
    pos: PositionsValue,
    w: WorldState,
    load: (i: number, store: boolean) => ReserveDataValue,
  ): PositionBase => {
    const price = prices(w)
    let collateralBase = 0n
    let liabilityBase = 0n
    let collateralRaw = 0n
    let liabilityRaw = 0n
    for (let i = 0; i < assets.length; i++) {
      const b = pos.collateral.get(i) ?? 0n
      const dTokens = pos.liabilities.get(i) ?? 0n
      if (b === 0n && dTokens === 0n) continue
      const c = pool.reserves[i]!.config
      const d = load(i, false)
      const scalar = 10n ** BigInt(c.decimals)
      if (b > 0n) {
        const eff = mulFloor(toAssetFromB(d, b), BigInt(c.cFactor), SCALAR_7)
        collateralBase += mulFloor(price[i]!, eff, scalar)
        collateralRaw += mulFloor(price[i]!, toAssetFromB(d, b), scalar)
      }
      if (dTokens > 0n) {
        const eff = divCeil(toAssetFromD(d, dTokens) * SCALAR_7, BigInt(c.lFactor))
        liabilityBase += mulCeil(price[i]!, eff, scalar)
        liabilityRaw += mulCeil(price[i]!, toAssetFromD(d, dTokens), scalar)
      }
    }
    return { collateralBase, liabilityBase, collateralRaw, liabilityRaw }
  }

  /** A plausible amount of reserve i for an account, in stroops. */
  const amountOf = (account: number, i: number): bigint => {
    const units = i === 0 ? rng.nextRange(300, 30_000) : rng.nextRange(50, 4_000)
    return BigInt(units * size[account]!) * 10_000_000n + BigInt(rng.nextInt(10_000_000))
  }

  /** Underlying of reserve `i` worth `base` (oracle base, 14 decimals). */
  const underlyingFor = (w: WorldState, i: number, base: bigint): bigint =>
    divFloor(base * 10_000_000n, prices(w)[i]!)

  /** What an account does next in its pool, given its position. */
  const chooseRequests = (w: WorldState, pool: PoolState, account: number): Req[] => {
    const pos = pool.users.get(account)?.positions ?? emptyPositions()
    const empty = pos.collateral.size + pos.supply.size + pos.liabilities.size === 0
    const pick = () => {
      const roll = rng.nextInt(10)
      return roll < 5 ? 0 : roll < 8 ? 1 : 2
    }
    const now = BigInt(w.closeTime)
    const load = (i: number) =>
      accrueReserve(pool.reserves[i]!.config, pool.reserves[i]!.data, pool.config.bstopRate, now)
    const borrowRoom = (extra: Req[]): bigint => {
      const p = clonePositions(pos)
      for (const r of extra)
        add(p.collateral, r.reserve, divFloor(r.amount * SCALAR_12, load(r.reserve).bRate))
      const { collateralBase, liabilityBase } = positionBase(pool, p, w, (i) => load(i))
      return collateralBase - liabilityBase
    }
    const borrowReq = (extra: Req[], exclude: number): Req | null => {
      const room = borrowRoom(extra)
      if (room <= 0n) return null
      let i = pick()
      if (i === exclude) i = (i + 1) % 3
      // Mostly well inside the limit; now and then past it, and the pool refuses.
      const ppm = rng.chance(0.04) ? rng.nextRange(1_050_000, 1_400_000) : rng.nextRange(300_000, 850_000)
      const effective = (room * BigInt(ppm)) / 1_000_000n
      const amount = (underlyingFor(w, i, effective) * BigInt(pool.reserves[i]!.config.lFactor)) / SCALAR_7
      return amount > 0n ? { reserve: i, amount, type: RequestType.Borrow } : null
    }
    if (empty) {
      const i = pick()
      if (rng.chance(0.25)) return [{ reserve: i, amount: amountOf(account, i), type: RequestType.Supply }]
      const col: Req = { reserve: i, amount: amountOf(account, i), type: RequestType.SupplyCollateral }
      if (rng.chance(0.4)) return [col]
      const borrow = borrowReq([col], i)
      return borrow ? [col, borrow] : [col]
    }
    const roll = rng.nextInt(100)
    const liabilities = [...pos.liabilities.keys()]
    const collateral = [...pos.collateral.keys()]
    const supply = [...pos.supply.keys()]
    const huge = 10n ** 30n
    if (roll < 12) {
      // Full exit: repay every liability (over-repaid, the rest refunded) and take everything out.
      const reqs: Req[] = []
      for (const i of liabilities) {
        const owed = toAssetFromD(load(i), pos.liabilities.get(i)!)
        reqs.push({ reserve: i, amount: owed + owed / 1000n + 1n, type: RequestType.Repay })
      }
      for (const i of collateral)
        reqs.push({ reserve: i, amount: huge, type: RequestType.WithdrawCollateral })
      for (const i of supply) reqs.push({ reserve: i, amount: huge, type: RequestType.Withdraw })
      return reqs
    }
    if (roll < 32) {
      const i =
        collateral.length > 0 && rng.chance(0.7) ? collateral[rng.nextInt(collateral.length)]! : pick()
      return [{ reserve: i, amount: amountOf(account, i), type: RequestType.SupplyCollateral }]
    }
    if (roll < 52 && collateral.length > 0) {
      const borrow = borrowReq([], -1)
      if (borrow) return [borrow]
    }
    if (roll < 70 && liabilities.length > 0) {
      const i = liabilities[rng.nextInt(liabilities.length)]!
      const owed = toAssetFromD(load(i), pos.liabilities.get(i)!)
      const part = (owed * BigInt(rng.nextRange(100_000, 900_000))) / 1_000_000n
      if (part > 0n) return [{ reserve: i, amount: part, type: RequestType.Repay }]
    }
    if (roll < 85 && collateral.length > 0) {
      // Part of the collateral: may leave the position unhealthy, and then the pool refuses.
      const i = collateral[rng.nextInt(collateral.length)]!
      const held = toAssetFromB(load(i), pos.collateral.get(i)!)
      const part = (held * BigInt(rng.nextRange(50_000, 600_000))) / 1_000_000n
      if (part > 0n) return [{ reserve: i, amount: part, type: RequestType.WithdrawCollateral }]
    }
    if (supply.length > 0 && rng.chance(0.5)) {
      const i = supply[rng.nextInt(supply.length)]!
      const held = toAssetFromB(load(i), pos.supply.get(i)!)
      const part = rng.chance(0.3) ? huge : (held * BigInt(rng.nextRange(100_000, 900_000))) / 1_000_000n
      if (part > 0n) return [{ reserve: i, amount: part, type: RequestType.Withdraw }]
    }
    const i = pick()
    return [{ reserve: i, amount: amountOf(account, i), type: RequestType.Supply }]
  }

  /** Removes (sign -1) or adds (+1) b-tokens as collateral and d-tokens as liabilities, with emissions first (user.rs). */
  const movePositions = (
    pos: PositionsValue,
    account: number,
    lot: Map<number, bigint>,
    bid: Map<number, bigint>,
    sign: 1 | -1,
    load: (i: number, store: boolean) => ReserveDataValue,
    em: ReturnType<typeof createEmissionTx>,
  ): boolean => {
    // Map<Address, i128> iterates by asset address.
    for (const [i, amount] of byAsset(lot)) {
      if (amount <= 0n) continue
      const d = load(i, true)
      const scalar = 10n ** BigInt(pool0Config(i).decimals)
      em.update(
        account,
        i * 2 + 1,
        d.bSupply,
        scalar,
        (pos.collateral.get(i) ?? 0n) + (pos.supply.get(i) ?? 0n),
      )
      if (sign > 0) add(pos.collateral, i, amount)
      else if (!remove(pos.collateral, i, amount)) return false
      d.bSupply += BigInt(sign) * amount
    }
    for (const [i, amount] of byAsset(bid)) {
      if (amount <= 0n) continue
      const d = load(i, true)
      const scalar = 10n ** BigInt(pool0Config(i).decimals)
      em.update(account, i * 2, d.dSupply, scalar, pos.liabilities.get(i) ?? 0n)
      if (sign > 0) add(pos.liabilities, i, amount)
      else if (!remove(pos.liabilities, i, amount)) return false
      d.dSupply += BigInt(sign) * amount
    }
    return true
  }

  /** A transaction's reserve cache: each reserve accrued once, stored ones listed in load order. */
  const reserveCache = (pool: PoolState, now: bigint) => {
    const cache = new Map<number, ReserveDataValue>()
    const toStore: number[] = []
    const load = (i: number, store: boolean): ReserveDataValue => {
      if (store && !toStore.includes(i)) toStore.push(i)
      let d = cache.get(i)
      if (!d) {
        const r = pool.reserves[i]!
        d = accrueReserve(r.config, r.data, pool.config.bstopRate, now)
        cache.set(i, d)
      }
      return d
    }
    return { cache, toStore, load }
  }

  /**
   * `new_auction(0, user, bid, lot, percent)` on every liability and collateral of an unhealthy
   * user, with the smallest percent whose result passes `create_user_liq_auction_data`'s checks
   * (health after it within [1.03, 1.15]). Null when no percent passes, or when the lot would take
   * all collateral (its fill would turn the rest into bad debt, which the devnet does not simulate).
   */
  const newAuctionTx = (w: WorldState, pool: PoolState, account: number): SimTx | null => {
    const user = pool.users.get(account)
    if (!user || pool.auctions.has(account) || user.positions.liabilities.size === 0) return null
    const now = BigInt(w.closeTime)
    const pos = user.positions
    const rc = reserveCache(pool, now)
    const data = positionBase(pool, pos, w, rc.load)
    if (data.liabilityBase <= data.collateralBase || pos.collateral.size === 0) return null
    if (pool.config.maxPositions < pos.collateral.size + pos.liabilities.size) return null
    const S = ORACLE_SCALAR
    // All positions are auctioned, so the auctioned position data equals the user's.
    const avgCf = divFloor(data.collateralBase * S, data.collateralRaw)
    const avgLf = divFloor(data.liabilityBase * S, data.liabilityRaw)
    const incentive = divCeil((S - divCeil(avgCf * S, avgLf)) * S, 2n * S) + S
    for (let percent = 1; percent <= 95; percent++) {
      const scaled = (BigInt(percent) * S) / 100n
      const withdrawn = mulFloor(mulFloor(data.liabilityRaw, scaled, S), incentive, S)
      let pct = divCeil(withdrawn * S, data.collateralRaw)
      if (pct > S) pct = S
      const lot = new Map<number, bigint>()
      const bid = new Map<number, bigint>()
      for (const [i, amount] of pos.collateral) lot.set(i, mulCeil(amount, pct, S))
      for (const [i, amount] of pos.liabilities) bid.set(i, mulCeil(amount, scaled, S))
      const after = clonePositions(pos)
      let ok = true
      for (const [i, v] of lot) ok &&= remove(after.collateral, i, v)
      for (const [i, v] of bid) ok &&= remove(after.liabilities, i, v)
      if (!ok || after.collateral.size === 0) return null
      const next = positionBase(pool, after, w, rc.load)
      if (isHfOver(next, 11_500_000n)) return null
      if (isHfUnder(next, 10_300_000n)) continue
      // rm_positions runs on the user in memory: only its emission updates reach storage.
      const em = createEmissionTx(pool, now, accountAddress)
      movePositions(clonePositions(pos), account, lot, bid, -1, rc.load, em)
      const auction: AuctionValue = { bid, lot, block: w.sequence + 1 }
      pool.auctions.set(account, {
        data: auction,
        modified: w.sequence,
        fillAt: w.sequence + rng.nextRange(120, 260),
      })
      const from = accountAddress(account)
      const changes = em.commit(w.sequence)
      changes.push({ type: 0, created: auctionEntry(pool, account) })
      return {
        source: ids.blendLiquidator,
        contract: pool.id,
        fn: 'new_auction',
        args: [
          buildU32(0),
          buildAddressVal(from),
          buildVec(byAsset(bid).map(([i]) => buildAddressVal(buildContractAddress(assets[i]!)))),
          buildVec(byAsset(lot).map(([i]) => buildAddressVal(buildContractAddress(assets[i]!)))),
          buildU32(percent),
        ],
        successful: true,
        changes,
        events: [buildNewAuctionEvent(pool.id, from, percent, auction, assets)],
      }
    }
    return null
  }

  const auctionEntry = (pool: PoolState, account: number) => {
    const a = pool.auctions.get(account)!
    return buildContractDataEntry(
      pool.id,
      buildAuctionKey(0, accountAddress(account)),
      buildAuctionValue(a.data, assets),
      a.modified,
      TEMPORARY,
    )
  }

  /**
   * The liquidator's `submit` with request 6 (FillUserLiquidationAuction, 100%): the auction scaled
   * by the blocks since it started (auction.rs `scale_auction`), lot b-tokens moved from the
   * liquidatee's collateral to the filler's, bid d-tokens from liabilities to liabilities, the
   * auction deleted, `fill_auction` emitted, no supply or borrow event and no transfer.
   */
  const fillTx = (w: WorldState, pool: PoolState, account: number): SimTx => {
    const now = BigInt(w.closeTime)
    const auction = pool.auctions.get(account)!
    const filler = liquidator
    const fillerAddress = accountAddress(filler)
    const userAddress = accountAddress(account)
    const args = [
      buildAddressVal(fillerAddress),
      buildAddressVal(fillerAddress),
      buildAddressVal(fillerAddress),
      buildVec([
        buildStruct({
          address: buildAddressVal(userAddress),
          amount: buildI128(100n),
          request_type: buildU32(6),
        }),
      ]),
    ]
    const failed = (): SimTx => ({
      source: sourceOf(filler),
      contract: pool.id,
      fn: 'submit',
      args,
      successful: false,
      changes: [],
      events: [],
    })
    const blockDif = BigInt(w.sequence - auction.data.block)
    const perBlock = 50_000n
    let lotModifier = SCALAR_7
    let bidModifier = SCALAR_7
    if (blockDif > 200n) bidModifier = blockDif < 400n ? SCALAR_7 - (blockDif - 200n) * perBlock : 0n
    else lotModifier = blockDif * perBlock
    // A 100% fill: every amount is taken whole, then scaled (bid rounds up, lot down).
    const filled: AuctionValue = { bid: new Map(), lot: new Map(), block: auction.data.block }
    for (const [i, amount] of auction.data.bid) {
      const v = mulCeil(amount, bidModifier, SCALAR_7)
      if (v > 0n) filled.bid.set(i, v)
    }
    for (const [i, amount] of auction.data.lot) {
      const v = mulFloor(amount, lotModifier, SCALAR_7)
      if (v > 0n) filled.lot.set(i, v)
    }
    const rc = reserveCache(pool, now)
    const em = createEmissionTx(pool, now, accountAddress)
    const user = pool.users.get(account)!
    const userPos = clonePositions(user.positions)
    const fillerState = pool.users.get(filler)
    const fillerPos = fillerState ? clonePositions(fillerState.positions) : emptyPositions()
    const prevCount = fillerPos.liabilities.size + fillerPos.collateral.size
    if (!movePositions(userPos, account, filled.lot, filled.bid, -1, rc.load, em)) return failed()
    movePositions(fillerPos, filler, filled.lot, filled.bid, 1, rc.load, em)
    // A full fill leaving liabilities without collateral would be bad debt: never the case here.
    if (userPos.liabilities.size > 0 && userPos.collateral.size === 0) return failed()
    const count = fillerPos.liabilities.size + fillerPos.collateral.size
    if (count > prevCount && pool.config.maxPositions < count) return failed()
    if (pool.auctions.has(filler)) return failed()
    if (fillerPos.liabilities.size > 0) {
      const data = positionBase(pool, fillerPos, w, rc.load)
      if (isHfUnder(data, MIN_HF) || data.collateralBase < pool.config.minCollateral) return failed()
    }
    // Effects: emissions, the auction deleted and the liquidatee stored (both during the request),
    // then ResData, then the filler's Positions.
    const changes = em.commit(w.sequence)
    changes.push(
      { type: 3, state: auctionEntry(pool, account) },
      { type: 2, removed: buildContractDataKey(pool.id, buildAuctionKey(0, userAddress), TEMPORARY) },
    )
    pool.auctions.delete(account)
    const userBefore = positionsEntry(pool, account, user)
    user.positions = userPos
    user.modified = w.sequence
    changes.push({ type: 3, state: userBefore }, { type: 1, updated: positionsEntry(pool, account, user) })
    for (const i of rc.toStore) {
      const r = pool.reserves[i]!
      const before = resDataEntry(pool, r)
      r.data = rc.cache.get(i)!
      r.modified = w.sequence
      changes.push({ type: 3, state: before }, { type: 1, updated: resDataEntry(pool, r) })
    }
    if (fillerState) {
      const before = positionsEntry(pool, filler, fillerState)
      fillerState.positions = fillerPos
      fillerState.modified = w.sequence
      changes.push(
        { type: 3, state: before },
        { type: 1, updated: positionsEntry(pool, filler, fillerState) },
      )
    } else {
      const created = { positions: fillerPos, modified: w.sequence }
      pool.users.set(filler, created)
      changes.push({ type: 0, created: positionsEntry(pool, filler, created) })
    }
    return {
      source: sourceOf(filler),
      contract: pool.id,
      fn: 'submit',
      args,
      successful: true,
      changes,
      events: [buildFillAuctionEvent(pool.id, userAddress, fillerAddress, 100n, filled, assets)],
    }
  }

  /** After each price update: auctions for unhealthy borrowers; and every ledger, the fills due. */
  const liquidationTxs = (w: WorldState): SimTx[] => {
    const txs: SimTx[] = []
    for (const pool of pools) {
      if ((w.sequence - started) % ORACLE_INTERVAL_LEDGERS === 0) {
        for (const account of [...pool.users.keys()].sort((a, b) => a - b)) {
          if (account === liquidator) continue
          const tx = newAuctionTx(w, pool, account)
          if (tx) txs.push(tx)
        }
      }
      for (const [account, a] of [...pool.auctions].sort(([x], [y]) => x - y)) {
        if (a.fillAt <= w.sequence) txs.push(fillTx(w, pool, account))
      }
    }
    return txs
  }

  const ledgerTxs = (w: WorldState): SimTx[] => {
    if (w.sequence <= started) return []
    const expected = accounts * options.activity * (0.5 + rng.nextFloat())
    const picks = Math.floor(expected) + (rng.chance(expected % 1) ? 1 : 0)
    const txs: SimTx[] = liquidationTxs(w)
    pools.forEach((pool, p) => {
      if ((w.sequence - started) % GULP_INTERVAL_LEDGERS === p * 7)
        txs.push(gulpTx(w, pool, BigInt(rng.nextRange(500, 3_000)) * 10_000_000n))
    })
    for (let k = 0; k < picks; k++) {
      const account = rng.nextInt(accounts)
      const p = poolOf[account]!
      if (p < 0 || dormantUntil[account]! > w.sequence - started) continue
      const pool = pools[p]!
      if (rng.chance(0.05)) {
        const claim = claimTx(w, pool, account)
        if (claim) {
          txs.push(claim)
          continue
        }
      }
      const requests = chooseRequests(w, pool, account)
      if (requests.length === 0) continue
      txs.push(submit(w, pool, account, requests))
      // Dormant stretches: the position grows with interest while its entry stays as it is.
      if (rng.chance(0.08)) dormantUntil[account] = w.sequence - started + rng.nextRange(200, 4_000)
    }
    return txs
  }

  const lookupEntry: SimulatedProtocol['lookupEntry'] = (_w, contract, key, durability, accountOf) => {
    const pool = pools.find((p) => contract.equals(p.id))
    if (!pool) return undefined
    if (started === 0) return null
    const accountOrLiquidator = (v: ScVal): number | undefined => {
      if (v.type === 18 && v.address.type === 1) {
        const id = Buffer.from(v.address.contractId)
        for (const [user, contract] of contractUsers) if (id.equals(contract)) return user
        return undefined
      }
      return v.type === 18 &&
        v.address.type === 0 &&
        Buffer.from(v.address.accountId.ed25519).equals(ids.blendLiquidator)
        ? liquidator
        : accountOf(v)
    }
    if (key.type === 20) return durability === 1 ? instanceEntry(pool) : null
    if (durability === 0) {
      // The only live temporary entries are user liquidation auctions.
      if (key.type !== 16 || key.vec?.length !== 2 || key.vec[1]?.type !== 17) return null
      let account: number | undefined
      let type: number | undefined
      for (const f of key.vec[1].map ?? []) {
        const field = f.key.type === 15 ? f.key.sym.toString() : ''
        if (field === 'user') account = accountOrLiquidator(f.val)
        if (field === 'auct_type' && f.val.type === 3) type = f.val.u32
      }
      return type === 0 && account !== undefined && pool.auctions.has(account)
        ? auctionEntry(pool, account)
        : null
    }
    if (durability !== 1) return null
    if (key.type === 15) {
      const name = key.sym.toString()
      if (name === 'ResList') return listEntry(pool)
      return name === 'PoolEmis' ? poolEmisEntry(pool, started) : null
    }
    if (key.type !== 16 || key.vec?.length !== 2 || key.vec[0]?.type !== 15) return null
    const tag = key.vec[0].sym.toString()
    const arg = key.vec[1]!
    if (tag === 'EmisData' && arg.type === 3) {
      const e = pool.emis.get(arg.u32)
      return e ? buildContractDataEntry(pool.id, key, buildEmisDataValue(e.data), e.modified) : null
    }
    if (tag === 'UserEmis' && arg.type === 17) {
      let id: number | undefined
      let account: number | undefined
      for (const f of arg.map ?? []) {
        const field = f.key.type === 15 ? f.key.sym.toString() : ''
        if (field === 'reserve_id' && f.val.type === 3) id = f.val.u32
        if (field === 'user') account = accountOrLiquidator(f.val)
      }
      const e = account === undefined ? undefined : pool.userEmis.get(`${account}:${id}`)
      return e ? buildContractDataEntry(pool.id, key, buildUserEmisValue(e.value), e.modified) : null
    }
    if (tag === 'Positions') {
      const account = accountOrLiquidator(arg)
      const user = account === undefined ? undefined : pool.users.get(account)
      return user && account !== undefined ? positionsEntry(pool, account, user) : null
    }
    if (arg.type !== 18 || arg.address.type !== 1) return null
    const id = Buffer.from(arg.address.contractId)
    const reserve = pool.reserves.find((r) => id.equals(Buffer.from(r.asset)))
    if (!reserve) return null
    if (tag === 'ResData') return resDataEntry(pool, reserve)
    if (tag === 'ResConfig') return resConfigEntry(pool, reserve, started)
    return null
  }

  return {
    name: 'blend',
    actsInDeployLedger: false,
    deployTxs,
    ledgerTxs,
    lookupEntry,
    addContractUser: (contract) => {
      const user = accounts + 1 + contractUsers.size
      contractUsers.set(user, contract)
      return user
    },
    contractSubmit: (w, p, user, requests, to) => submit(w, pools[p]!, user, requests, to),
    contractClaim: (w, p, user, claimIds) => claimTx(w, pools[p]!, user, claimIds)!,
    loadReserve: (w, p, i) => {
      const r = pools[p]!.reserves[i]!
      return accrueReserve(r.config, r.data, pools[p]!.config.bstopRate, BigInt(w.closeTime))
    },
    suppliedOf: (p, user, i) => pools[p]!.users.get(user)?.positions.supply.get(i) ?? 0n,
    savepoint: (p, user) => {
      const pool = pools[p]!
      // Entries are replaced, never mutated in place, so shallow copies are a faithful snapshot.
      const reserves = pool.reserves.map((r) => ({ data: r.data, modified: r.modified }))
      const state = pool.users.get(user)
      const saved = state ? { ...state } : null
      const emis = new Map(pool.emis)
      const userEmis = new Map(pool.userEmis)
      return () => {
        for (const [i, r] of pool.reserves.entries()) Object.assign(r, reserves[i])
        if (saved) pool.users.set(user, saved)
        else pool.users.delete(user)
        pool.emis = emis
        pool.userEmis = userEmis
      }
    },
  }
}
