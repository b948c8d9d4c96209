import type { xdr } from '@stellar/stellar-sdk'
import { buildContractDataEntry } from '../ledger/contract-layout.ts'
import { buildAddressVal, buildContractAddress, buildU32, buildVec } from '../ledger/scval.ts'
import type { SimTx, WorldState } from '../world/world-state.ts'
import {
  buildClaimEvent,
  buildEmisDataKey,
  buildEmisDataValue,
  buildGulpEmissionsEvent,
  buildPoolEmisKey,
  buildPoolEmisValue,
  buildReserveEmissionUpdateEvent,
  buildUserEmisKey,
  buildUserEmisValue,
  type EmissionDataValue,
  type UserEmissionValue,
} from './layout.ts'
import { divFloor, emptyPositions, mulFloor, SCALAR_7 } from './math.ts'
import { accountAddress, type BlendSim, type PoolState, sourceOf } from './state.ts'

/** Blend emissions: a transaction's `EmisData`/`UserEmis` bookkeeping, `gulp_emissions` and `claim`. */

const SECONDS_PER_WEEK = 604_800n

/**
 * The emissions bookkeeping of one transaction (distributor.rs, manager.rs): `EmisData` and
 * `UserEmis` are read through and written back, as changes, only when the transaction succeeds.
 */
export function createEmissionTx(
  pool: PoolState,
  now: bigint,
  addressOf: (account: number) => xdr.ScAddressWire,
) {
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

/** `PoolEmis`: the emission shares set by `set_emissions_config`. */
export function poolEmisEntry(pool: PoolState, modified: number) {
  return buildContractDataEntry(pool.id, buildPoolEmisKey(), buildPoolEmisValue(pool.shares), modified)
}

/** `gulp_emissions`: the backstop's new emissions split by share into each token's eps for a week. */
export function gulpTx(s: BlendSim, w: WorldState, pool: PoolState, newEmissions: bigint): SimTx {
  const now = BigInt(w.closeTime)
  const em = createEmissionTx(pool, now, (a: number) => accountAddress(s, a))
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
    source: s.ids.blendAdmin,
    contract: pool.id,
    fn: 'gulp_emissions',
    args: [],
    successful: true,
    changes: em.commit(w.sequence),
    events,
  }
}

/** `claim(from, reserve_token_ids, from)` over the tokens the account holds; null when it holds none with emissions. */
export function claimTx(
  s: BlendSim,
  w: WorldState,
  pool: PoolState,
  account: number,
  claimIds?: number[],
): SimTx | null {
  const pos = pool.users.get(account)?.positions ?? (claimIds ? emptyPositions() : undefined)
  if (!pos) return null
  const tokenIds: number[] = claimIds ? [...claimIds] : []
  for (let i = 0; i < pool.reserves.length && !claimIds; i++) {
    if (pos.liabilities.has(i) && pool.shares.has(i * 2)) tokenIds.push(i * 2)
    if ((pos.collateral.has(i) || pos.supply.has(i)) && pool.shares.has(i * 2 + 1)) tokenIds.push(i * 2 + 1)
  }
  if (tokenIds.length === 0) return null
  const from = accountAddress(s, account)
  const em = createEmissionTx(pool, BigInt(w.closeTime), (a: number) => accountAddress(s, a))
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
  if (toClaim > 0n) events.push(s.blndSac.transfer(buildContractAddress(s.ids.blendBackstop), from, toClaim))
  events.push(buildClaimEvent(pool.id, from, tokenIds, toClaim))
  return {
    source: sourceOf(s, account),
    contract: pool.id,
    fn: 'claim',
    args: [buildAddressVal(from), buildVec(tokenIds.map(buildU32)), buildAddressVal(from)],
    successful: true,
    changes: em.commit(w.sequence),
    events,
  }
}
