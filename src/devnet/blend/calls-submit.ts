import type { xdr } from '@stellar/stellar-sdk'
import { buildAddressVal, buildContractAddress, buildVec } from '../ledger/scval.ts'
import { PRICE_ONE, type SimTx, type WorldState } from '../world/world-state.ts'
import { createEmissionTx } from './calls-emissions.ts'
import {
  buildPoolActionEvent,
  buildRequestValue,
  type PositionsValue,
  type ReserveDataValue,
} from './layout.ts'
import {
  add,
  clonePositions,
  divCeil,
  divFloor,
  EVENT_NAMES,
  emptyPositions,
  isHfUnder,
  MIN_HF,
  mulCeil,
  mulFloor,
  type PositionBase,
  RequestType,
  remove,
  SCALAR_7,
  SCALAR_12,
  toAssetFromB,
  toAssetFromD,
  utilization,
} from './math.ts'
import {
  accountAddress,
  type BlendSim,
  byAsset,
  type PoolState,
  type Req,
  resDataEntry,
  reserveCache,
  sourceOf,
  writePositions,
} from './state.ts'

/** Oracle prices (14 decimals) of the reserves, as the feed last published them. */
export function prices(w: WorldState): bigint[] {
  return [w.xlmPrice, PRICE_ONE, w.denoms[1]!.price]
}

/** Simulates `submit(from, from, from, requests)`; a failed check fails the transaction. */
export function submit(
  s: BlendSim,
  w: WorldState,
  pool: PoolState,
  account: number,
  requests: Req[],
  toAddress?: xdr.ScAddressWire,
): SimTx {
  const now = BigInt(w.closeTime)
  const from = accountAddress(s, account)
  // A contract user's `to` may differ (a strategy withdraws straight to the vault's depositor).
  const to = toAddress ?? from
  const args = [
    buildAddressVal(from),
    buildAddressVal(from),
    buildAddressVal(to),
    buildVec(requests.map((r) => buildRequestValue(s.assets[r.reserve]!, r.amount, r.type))),
  ]
  const failed = (): SimTx => ({
    source: sourceOf(s, account),
    contract: pool.id,
    fn: 'submit',
    args,
    successful: false,
    changes: [],
    events: [],
  })
  const { cache, toStore, load } = reserveCache(pool, now)
  const existing = pool.users.get(account)
  const pos = existing ? clonePositions(existing.positions) : emptyPositions()
  const prevCount = pos.liabilities.size + pos.collateral.size
  const events: xdr.ContractEventWire[] = []
  const spenderTransfer = new Map<number, bigint>()
  const poolTransfer = new Map<number, bigint>()
  const checkMaxUtil: number[] = []
  let checkHealth = false
  const em = createEmissionTx(pool, now, (a: number) => accountAddress(s, a))
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
    events.push(buildPoolActionEvent(pool.id, EVENT_NAMES[req.type]!, s.assets[i]!, from, tokens, shares))
  }
  // validate_submit: positions cap, no liquidation under way, utilization caps, health.
  const count = pos.liabilities.size + pos.collateral.size
  if (count > prevCount && pool.config.maxPositions < count) return failed()
  if (pool.auctions.has(account)) return failed()
  for (const i of checkMaxUtil) {
    if (utilization(load(i, false)) > BigInt(pool.reserves[i]!.config.maxUtil)) return failed()
  }
  if (checkHealth && pos.liabilities.size > 0) {
    const data = positionBase(s, pool, pos, w, load)
    if (isHfUnder(data, MIN_HF)) return failed()
    if (data.collateralBase < pool.config.minCollateral) return failed()
  }
  // Transfers: spender -> pool, then pool -> to, each map in the host's order (by asset address).
  const poolAddress = buildContractAddress(pool.id)
  for (const [i, amount] of byAsset(s, spenderTransfer))
    events.push(s.sacs[i]!.transfer(from, poolAddress, amount))
  for (const [i, amount] of byAsset(s, poolTransfer))
    events.push(s.sacs[i]!.transfer(poolAddress, to, amount))
  // Effects: emissions, ResData of the touched reserves in the order they were first loaded, Positions.
  const changes: xdr.LedgerEntryChangeWire[] = em.commit(w.sequence)
  for (const i of toStore) {
    const r = pool.reserves[i]!
    const before = resDataEntry(pool, r)
    r.data = cache.get(i)!
    r.modified = w.sequence
    changes.push({ type: 3, state: before }, { type: 1, updated: resDataEntry(pool, r) })
  }
  writePositions(s, pool, w, account, existing, pos, changes)
  return {
    source: sourceOf(s, account),
    contract: pool.id,
    fn: 'submit',
    args,
    successful: true,
    changes,
    events,
  }
}

/** health_factor.rs `calculate_from_positions`, in the oracle's base (14 decimals). */
export function positionBase(
  s: BlendSim,
  pool: PoolState,
  pos: PositionsValue,
  w: WorldState,
  load: (i: number, store: boolean) => ReserveDataValue,
): PositionBase {
  const price = prices(w)
  let collateralBase = 0n
  let liabilityBase = 0n
  let collateralRaw = 0n
  let liabilityRaw = 0n
  for (let i = 0; i < s.assets.length; i++) {
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
