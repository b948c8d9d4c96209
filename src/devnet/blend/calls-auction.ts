import { buildContractDataEntry, buildContractDataKey, TEMPORARY } from '../ledger/contract-layout.ts'
import {
  buildAddressVal,
  buildContractAddress,
  buildI128,
  buildStruct,
  buildU32,
  buildVec,
} from '../ledger/scval.ts'
import { ORACLE_INTERVAL_LEDGERS, type SimTx, type WorldState } from '../world/world-state.ts'
import { createEmissionTx } from './calls-emissions.ts'
import { positionBase } from './calls-submit.ts'
import {
  type AuctionValue,
  buildAuctionKey,
  buildAuctionValue,
  buildFillAuctionEvent,
  buildNewAuctionEvent,
  type PositionsValue,
  type ReserveDataValue,
} from './layout.ts'
import {
  add,
  clonePositions,
  divCeil,
  divFloor,
  emptyPositions,
  isHfOver,
  isHfUnder,
  MIN_HF,
  mulCeil,
  mulFloor,
  ORACLE_SCALAR,
  remove,
  SCALAR_7,
} from './math.ts'
import {
  accountAddress,
  type BlendSim,
  byAsset,
  type PoolState,
  pool0Config,
  positionsEntry,
  resDataEntry,
  reserveCache,
  sourceOf,
  writePositions,
} from './state.ts'

/** User liquidations: `new_auction` on unhealthy borrowers and the liquidator's fills. */

/** Removes (sign -1) or adds (+1) b-tokens as collateral and d-tokens as liabilities, with emissions first (user.rs). */
function movePositions(
  s: BlendSim,
  pos: PositionsValue,
  account: number,
  lot: Map<number, bigint>,
  bid: Map<number, bigint>,
  sign: 1 | -1,
  load: (i: number, store: boolean) => ReserveDataValue,
  em: ReturnType<typeof createEmissionTx>,
): boolean {
  // Map<Address, i128> iterates by asset address.
  for (const [i, amount] of byAsset(s, lot)) {
    if (amount <= 0n) continue
    const d = load(i, true)
    const scalar = 10n ** BigInt(pool0Config(s, i).decimals)
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
  for (const [i, amount] of byAsset(s, bid)) {
    if (amount <= 0n) continue
    const d = load(i, true)
    const scalar = 10n ** BigInt(pool0Config(s, i).decimals)
    em.update(account, i * 2, d.dSupply, scalar, pos.liabilities.get(i) ?? 0n)
    if (sign > 0) add(pos.liabilities, i, amount)
    else if (!remove(pos.liabilities, i, amount)) return false
    d.dSupply += BigInt(sign) * amount
  }
  return true
}

/**
 * `new_auction(0, user, bid, lot, percent)` on every liability and collateral of an unhealthy
 * user, with the smallest percent whose result passes `create_user_liq_auction_data`'s checks
 * (health after it within [1.03, 1.15]). Null when no percent passes, or when the lot would take
 * all collateral (its fill would turn the rest into bad debt, which the devnet does not simulate).
 */
function newAuctionTx(s: BlendSim, w: WorldState, pool: PoolState, account: number): SimTx | null {
  const user = pool.users.get(account)
  if (!user || pool.auctions.has(account) || user.positions.liabilities.size === 0) return null
  const now = BigInt(w.closeTime)
  const pos = user.positions
  const rc = reserveCache(pool, now)
  const data = positionBase(s, pool, pos, w, rc.load)
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
    const next = positionBase(s, pool, after, w, rc.load)
    if (isHfOver(next, 11_500_000n)) return null
    if (isHfUnder(next, 10_300_000n)) continue
    // rm_positions runs on the user in memory: only its emission updates reach storage.
    const em = createEmissionTx(pool, now, (a: number) => accountAddress(s, a))
    movePositions(s, clonePositions(pos), account, lot, bid, -1, rc.load, em)
    const auction: AuctionValue = { bid, lot, block: w.sequence + 1 }
    pool.auctions.set(account, {
      data: auction,
      modified: w.sequence,
      fillAt: w.sequence + s.rng.nextRange(120, 260),
    })
    const from = accountAddress(s, account)
    const changes = em.commit(w.sequence)
    changes.push({ type: 0, created: auctionEntry(s, pool, account) })
    return {
      source: s.ids.blendLiquidator,
      contract: pool.id,
      fn: 'new_auction',
      args: [
        buildU32(0),
        buildAddressVal(from),
        buildVec(byAsset(s, bid).map(([i]) => buildAddressVal(buildContractAddress(s.assets[i]!)))),
        buildVec(byAsset(s, lot).map(([i]) => buildAddressVal(buildContractAddress(s.assets[i]!)))),
        buildU32(percent),
      ],
      successful: true,
      changes,
      events: [buildNewAuctionEvent(pool.id, from, percent, auction, s.assets)],
    }
  }
  return null
}

/** A user's open liquidation auction entry (temporary). */
export function auctionEntry(s: BlendSim, pool: PoolState, account: number) {
  const a = pool.auctions.get(account)!
  return buildContractDataEntry(
    pool.id,
    buildAuctionKey(0, accountAddress(s, account)),
    buildAuctionValue(a.data, s.assets),
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
function fillTx(s: BlendSim, w: WorldState, pool: PoolState, account: number): SimTx {
  const now = BigInt(w.closeTime)
  const auction = pool.auctions.get(account)!
  const filler = s.liquidator
  const fillerAddress = accountAddress(s, filler)
  const userAddress = accountAddress(s, account)
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
    source: sourceOf(s, filler),
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
  const em = createEmissionTx(pool, now, (a: number) => accountAddress(s, a))
  const user = pool.users.get(account)!
  const userPos = clonePositions(user.positions)
  const fillerState = pool.users.get(filler)
  const fillerPos = fillerState ? clonePositions(fillerState.positions) : emptyPositions()
  const prevCount = fillerPos.liabilities.size + fillerPos.collateral.size
  if (!movePositions(s, userPos, account, filled.lot, filled.bid, -1, rc.load, em)) return failed()
  movePositions(s, fillerPos, filler, filled.lot, filled.bid, 1, rc.load, em)
  // A full fill leaving liabilities without collateral would be bad debt: never the case here.
  if (userPos.liabilities.size > 0 && userPos.collateral.size === 0) return failed()
  const count = fillerPos.liabilities.size + fillerPos.collateral.size
  if (count > prevCount && pool.config.maxPositions < count) return failed()
  if (pool.auctions.has(filler)) return failed()
  if (fillerPos.liabilities.size > 0) {
    const data = positionBase(s, pool, fillerPos, w, rc.load)
    if (isHfUnder(data, MIN_HF) || data.collateralBase < pool.config.minCollateral) return failed()
  }
  // Effects: emissions, the auction deleted and the liquidatee stored (both during the request),
  // then ResData, then the filler's Positions.
  const changes = em.commit(w.sequence)
  changes.push(
    { type: 3, state: auctionEntry(s, pool, account) },
    { type: 2, removed: buildContractDataKey(pool.id, buildAuctionKey(0, userAddress), TEMPORARY) },
  )
  pool.auctions.delete(account)
  const userBefore = positionsEntry(s, pool, account, user)
  user.positions = userPos
  user.modified = w.sequence
  changes.push({ type: 3, state: userBefore }, { type: 1, updated: positionsEntry(s, pool, account, user) })
  for (const i of rc.toStore) {
    const r = pool.reserves[i]!
    const before = resDataEntry(pool, r)
    r.data = rc.cache.get(i)!
    r.modified = w.sequence
    changes.push({ type: 3, state: before }, { type: 1, updated: resDataEntry(pool, r) })
  }
  writePositions(s, pool, w, filler, fillerState, fillerPos, changes)
  return {
    source: sourceOf(s, filler),
    contract: pool.id,
    fn: 'submit',
    args,
    successful: true,
    changes,
    events: [buildFillAuctionEvent(pool.id, userAddress, fillerAddress, 100n, filled, s.assets)],
  }
}

/** After each price update: auctions for unhealthy borrowers; and every ledger, the fills due. */
export function liquidationTxs(s: BlendSim, w: WorldState): SimTx[] {
  const txs: SimTx[] = []
  for (const pool of s.pools) {
    if ((w.sequence - s.started) % ORACLE_INTERVAL_LEDGERS === 0) {
      for (const account of [...pool.users.keys()].sort((a, b) => a - b)) {
        if (account === s.liquidator) continue
        const tx = newAuctionTx(s, w, pool, account)
        if (tx) txs.push(tx)
      }
    }
    for (const [account, a] of [...pool.auctions].sort(([x], [y]) => x - y)) {
      if (a.fillAt <= w.sequence) txs.push(fillTx(s, w, pool, account))
    }
  }
  return txs
}
