import type { SimTx, WorldState } from '../world/world-state.ts'
import { liquidationTxs } from './calls-auction.ts'
import { claimTx, gulpTx } from './calls-emissions.ts'
import { positionBase, prices, submit } from './calls-submit.ts'
import {
  accrueReserve,
  add,
  clonePositions,
  divFloor,
  emptyPositions,
  RequestType,
  SCALAR_7,
  SCALAR_12,
  toAssetFromB,
  toAssetFromD,
} from './math.ts'
import type { BlendSim, PoolState, Req } from './state.ts'

/** What the lending accounts do, ledger after ledger: claims, submits, gulps, liquidations. */

/** Ledgers between two `gulp_emissions` of a pool (the backstop distributes hourly here, weekly on mainnet). */
const GULP_INTERVAL_LEDGERS = 720

/** A plausible amount of reserve i for an account, in stroops. */
export function amountOf(s: BlendSim, account: number, i: number): bigint {
  const units = i === 0 ? s.rng.nextRange(300, 30_000) : s.rng.nextRange(50, 4_000)
  return BigInt(units * s.size[account]!) * 10_000_000n + BigInt(s.rng.nextInt(10_000_000))
}

/** Underlying of reserve `i` worth `base` (oracle base, 14 decimals). */
function underlyingFor(w: WorldState, i: number, base: bigint): bigint {
  return divFloor(base * 10_000_000n, prices(w)[i]!)
}

/** What an account does next in its pool, given its position. */
function chooseRequests(s: BlendSim, w: WorldState, pool: PoolState, account: number): Req[] {
  const pos = pool.users.get(account)?.positions ?? emptyPositions()
  const empty = pos.collateral.size + pos.supply.size + pos.liabilities.size === 0
  const pick = () => {
    const roll = s.rng.nextInt(10)
    return roll < 5 ? 0 : roll < 8 ? 1 : 2
  }
  const now = BigInt(w.closeTime)
  const load = (i: number) =>
    accrueReserve(pool.reserves[i]!.config, pool.reserves[i]!.data, pool.config.bstopRate, now)
  const borrowRoom = (extra: Req[]): bigint => {
    const p = clonePositions(pos)
    for (const r of extra) add(p.collateral, r.reserve, divFloor(r.amount * SCALAR_12, load(r.reserve).bRate))
    const { collateralBase, liabilityBase } = positionBase(s, pool, p, w, (i) => load(i))
    return collateralBase - liabilityBase
  }
  const borrowReq = (extra: Req[], exclude: number): Req | null => {
    const room = borrowRoom(extra)
    if (room <= 0n) return null
    let i = pick()
    if (i === exclude) i = (i + 1) % 3
    // Mostly well inside the limit; now and then past it, and the pool refuses.
    const ppm = s.rng.chance(0.04) ? s.rng.nextRange(1_050_000, 1_400_000) : s.rng.nextRange(300_000, 850_000)
    const effective = (room * BigInt(ppm)) / 1_000_000n
    const amount = (underlyingFor(w, i, effective) * BigInt(pool.reserves[i]!.config.lFactor)) / SCALAR_7
    return amount > 0n ? { reserve: i, amount, type: RequestType.Borrow } : null
  }
  if (empty) {
    const i = pick()
    if (s.rng.chance(0.25)) return [{ reserve: i, amount: amountOf(s, account, i), type: RequestType.Supply }]
    const col: Req = { reserve: i, amount: amountOf(s, account, i), type: RequestType.SupplyCollateral }
    if (s.rng.chance(0.4)) return [col]
    const borrow = borrowReq([col], i)
    return borrow ? [col, borrow] : [col]
  }
  const roll = s.rng.nextInt(100)
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
    for (const i of collateral) reqs.push({ reserve: i, amount: huge, type: RequestType.WithdrawCollateral })
    for (const i of supply) reqs.push({ reserve: i, amount: huge, type: RequestType.Withdraw })
    return reqs
  }
  if (roll < 32) {
    const i =
      collateral.length > 0 && s.rng.chance(0.7) ? collateral[s.rng.nextInt(collateral.length)]! : pick()
    return [{ reserve: i, amount: amountOf(s, account, i), type: RequestType.SupplyCollateral }]
  }
  if (roll < 52 && collateral.length > 0) {
    const borrow = borrowReq([], -1)
    if (borrow) return [borrow]
  }
  if (roll < 70 && liabilities.length > 0) {
    const i = liabilities[s.rng.nextInt(liabilities.length)]!
    const owed = toAssetFromD(load(i), pos.liabilities.get(i)!)
    const part = (owed * BigInt(s.rng.nextRange(100_000, 900_000))) / 1_000_000n
    if (part > 0n) return [{ reserve: i, amount: part, type: RequestType.Repay }]
  }
  if (roll < 85 && collateral.length > 0) {
    // Part of the collateral: may leave the position unhealthy, and then the pool refuses.
    const i = collateral[s.rng.nextInt(collateral.length)]!
    const held = toAssetFromB(load(i), pos.collateral.get(i)!)
    const part = (held * BigInt(s.rng.nextRange(50_000, 600_000))) / 1_000_000n
    if (part > 0n) return [{ reserve: i, amount: part, type: RequestType.WithdrawCollateral }]
  }
  if (supply.length > 0 && s.rng.chance(0.5)) {
    const i = supply[s.rng.nextInt(supply.length)]!
    const held = toAssetFromB(load(i), pos.supply.get(i)!)
    const part = s.rng.chance(0.3) ? huge : (held * BigInt(s.rng.nextRange(100_000, 900_000))) / 1_000_000n
    if (part > 0n) return [{ reserve: i, amount: part, type: RequestType.Withdraw }]
  }
  const i = pick()
  return [{ reserve: i, amount: amountOf(s, account, i), type: RequestType.Supply }]
}

/** This ledger's lending transactions: liquidations, gulps, then the accounts' claims and submits. */
export function ledgerTxs(s: BlendSim, w: WorldState): SimTx[] {
  if (w.sequence <= s.started) return []
  const expected = s.accounts * s.activity * (0.5 + s.rng.nextFloat())
  const picks = Math.floor(expected) + (s.rng.chance(expected % 1) ? 1 : 0)
  const txs: SimTx[] = liquidationTxs(s, w)
  s.pools.forEach((pool, p) => {
    if ((w.sequence - s.started) % GULP_INTERVAL_LEDGERS === p * 7)
      txs.push(gulpTx(s, w, pool, BigInt(s.rng.nextRange(500, 3_000)) * 10_000_000n))
  })
  for (let k = 0; k < picks; k++) {
    const account = s.rng.nextInt(s.accounts)
    const p = s.poolOf[account]!
    if (p < 0 || s.dormantUntil[account]! > w.sequence - s.started) continue
    const pool = s.pools[p]!
    if (s.rng.chance(0.05)) {
      const claim = claimTx(s, w, pool, account)
      if (claim) {
        txs.push(claim)
        continue
      }
    }
    const requests = chooseRequests(s, w, pool, account)
    if (requests.length === 0) continue
    txs.push(submit(s, w, pool, account, requests))
    // Dormant stretches: the position grows with interest while its entry stays as it is.
    if (s.rng.chance(0.08)) s.dormantUntil[account] = w.sequence - s.started + s.rng.nextRange(200, 4_000)
  }
  return txs
}
