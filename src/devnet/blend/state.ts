import type { xdr } from '@stellar/stellar-sdk'
import { buildContractDataEntry, buildInstanceEntry } from '../ledger/contract-layout.ts'
import { createSacEvents, type SacEvents } from '../ledger/sac-events.ts'
import { buildAccountAddress, buildContractAddress } from '../ledger/scval.ts'
import { BLEND_POOL_NAMES, type DevnetIdentities } from '../world/identities.ts'
import { createRng, type Rng } from '../world/prng.ts'
import type { WorldState } from '../world/world-state.ts'
import {
  type AuctionValue,
  buildPoolInstanceStorage,
  buildPositionsKey,
  buildPositionsValue,
  buildResConfigKey,
  buildResDataKey,
  buildReserveConfigValue,
  buildReserveDataValue,
  buildResListKey,
  buildResListValue,
  type EmissionDataValue,
  type PoolConfigValue,
  type PositionsValue,
  type ReserveConfigValue,
  type ReserveDataValue,
  type UserEmissionValue,
} from './layout.ts'
import { accrueReserve, ORACLE_SCALAR } from './math.ts'

/** The simulated Blend pools' in-memory state, their specs, and the ledger entries built from it. */

export interface ReserveState {
  asset: Uint8Array
  config: ReserveConfigValue
  data: ReserveDataValue
  modified: number
}

interface UserState {
  positions: PositionsValue
  modified: number
}

/** One pool: its config, reserves, users, emissions and auctions. */
export interface PoolState {
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

/** A pool's settings at deployment. */
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
export const RESERVE_PARAMS: ReserveParams[] = [
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
export const SUPPLY_CAPS = [
  2_000_000_000n * 10_000_000n,
  500_000_000n * 10_000_000n,
  200_000_000n * 10_000_000n,
]

/** A request the simulated account sends: reserve index, amount, type. */
export interface Req {
  reserve: number
  amount: bigint
  type: number
}

/** The simulated pools and their population: what every Blend transaction reads and writes. */
export interface BlendSim {
  ids: DevnetIdentities
  accounts: number
  /** Probability that a given lending account submits in a given ledger. */
  activity: number
  rng: Rng
  /** The reserves' asset contracts, in the order of `ResList`: XLM, USDC, EURC. */
  assets: Uint8Array[]
  sacs: SacEvents[]
  blndSac: SacEvents
  admin: xdr.ScAddressWire
  pools: PoolState[]
  /** Who lends where: a pool index, or -1. */
  poolOf: Int8Array
  /** Ledgers after deployment until which an account stays dormant. */
  dormantUntil: Int32Array
  size: Uint8Array
  /** The ledger the pools were deployed in; 0 before. */
  started: number
  /** The liquidator is account number `accounts`, after the population. */
  liquidator: number
  /** Contract users (DeFindex strategies), numbered after the liquidator. */
  contractUsers: Map<number, Uint8Array>
}

/** The pools before deployment, and who lends where: about half the accounts, each in one pool; some start asleep. */
export function createBlendSim(ids: DevnetIdentities, accounts: number, activity: number): BlendSim {
  const rng: Rng = createRng(`${ids.seed}:blend`)
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
  const poolOf = new Int8Array(accounts).fill(-1)
  const dormantUntil = new Int32Array(accounts)
  const size = new Uint8Array(accounts)
  for (let a = 0; a < accounts; a++) {
    if (rng.chance(0.5)) poolOf[a] = rng.nextInt(pools.length)
    size[a] = rng.chance(0.03) ? 40 : 1
    dormantUntil[a] = rng.chance(0.25) ? rng.nextRange(0, 4_000) : 0
  }
  return {
    ids,
    accounts,
    activity,
    rng,
    assets: [ids.xlmContract, ids.usdcContract, ids.eurcContract],
    sacs: [
      createSacEvents(ids.xlmContract, 'native'),
      createSacEvents(ids.usdcContract, `USDC:${ids.usdcIssuerAddress}`),
      createSacEvents(ids.eurcContract, `EURC:${ids.eurcIssuerAddress}`),
    ],
    blndSac: createSacEvents(ids.blndContract, `BLND:${ids.blndIssuerAddress}`),
    admin: buildAccountAddress(ids.blendAdmin),
    pools,
    poolOf,
    dormantUntil,
    size,
    started: 0,
    liquidator: accounts,
    contractUsers: new Map(),
  }
}

/** A map keyed by reserve, in the order of its assets' addresses (how a host Map<Address, _> iterates). */
export function byAsset(s: BlendSim, m: Map<number, bigint>): [number, bigint][] {
  return [...m].sort(([a], [b]) => Buffer.compare(Buffer.from(s.assets[a]!), Buffer.from(s.assets[b]!)))
}

/** A reserve's configuration (the same in both pools). */
export function pool0Config(s: BlendSim, i: number): ReserveConfigValue {
  return s.pools[0]!.reserves[i]!.config
}

/** The account that signs for a user: the liquidator's own key, or the population's. */
export function sourceOf(s: BlendSim, a: number): Uint8Array {
  return a === s.liquidator ? s.ids.blendLiquidator : s.ids.accountKey(a)
}

/** A user's address: a contract user's contract, or its account. */
export function accountAddress(s: BlendSim, a: number): xdr.ScAddressWire {
  const contract = s.contractUsers.get(a)
  return contract ? buildContractAddress(contract) : buildAccountAddress(sourceOf(s, a))
}

/** The pool's instance entry. */
export function instanceEntry(s: BlendSim, pool: PoolState): xdr.LedgerEntryWire {
  return buildInstanceEntry(
    pool.id,
    s.ids.blendPoolWasm,
    buildPoolInstanceStorage({
      admin: s.admin,
      backstop: s.ids.blendBackstop,
      blnd: s.ids.blndContract,
      config: pool.config,
      name: pool.name,
    }),
    pool.instanceModified,
  )
}

/** `ResList`. */
export function listEntry(pool: PoolState): xdr.LedgerEntryWire {
  return buildContractDataEntry(
    pool.id,
    buildResListKey(),
    buildResListValue(pool.reserves.map((r) => r.asset)),
    pool.listModified,
  )
}

/** `ResData(asset)`. */
export function resDataEntry(pool: PoolState, r: ReserveState): xdr.LedgerEntryWire {
  return buildContractDataEntry(pool.id, buildResDataKey(r.asset), buildReserveDataValue(r.data), r.modified)
}

/** `ResConfig(asset)`. */
export function resConfigEntry(pool: PoolState, r: ReserveState, modified: number): xdr.LedgerEntryWire {
  return buildContractDataEntry(
    pool.id,
    buildResConfigKey(r.asset),
    buildReserveConfigValue(r.config),
    modified,
  )
}

/** `Positions(user)`. */
export function positionsEntry(
  s: BlendSim,
  pool: PoolState,
  account: number,
  u: UserState,
): xdr.LedgerEntryWire {
  return buildContractDataEntry(
    pool.id,
    buildPositionsKey(accountAddress(s, account)),
    buildPositionsValue(u.positions),
    u.modified,
  )
}

/** A transaction's reserve cache: each reserve accrued once, stored ones listed in load order. */
export function reserveCache(pool: PoolState, now: bigint) {
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
 * Writes an account's `Positions` entry in a transaction's changes: updated after its pre-image
 * when the account had one (`existing`), created otherwise.
 */
export function writePositions(
  s: BlendSim,
  pool: PoolState,
  w: WorldState,
  account: number,
  existing: UserState | undefined,
  positions: PositionsValue,
  changes: xdr.LedgerEntryChangeWire[],
): void {
  if (existing) {
    const before = positionsEntry(s, pool, account, existing)
    existing.positions = positions
    existing.modified = w.sequence
    changes.push({ type: 3, state: before }, { type: 1, updated: positionsEntry(s, pool, account, existing) })
  } else {
    const created = { positions, modified: w.sequence }
    pool.users.set(account, created)
    changes.push({ type: 0, created: positionsEntry(s, pool, account, created) })
  }
}
