import type { xdr } from '@stellar/stellar-sdk'
import { buildContractDataEntry } from '../ledger/contract-layout.ts'
import type { ScVal } from '../ledger/scval.ts'
import type { AccountOf } from '../simulated-protocol.ts'
import { auctionEntry } from './calls-auction.ts'
import { poolEmisEntry } from './calls-emissions.ts'
import { buildEmisDataValue, buildUserEmisValue } from './layout.ts'
import {
  type BlendSim,
  instanceEntry,
  listEntry,
  positionsEntry,
  resConfigEntry,
  resDataEntry,
} from './state.ts'

/** `getLedgerEntries` for the pools: their entries as last written. */
export function lookupEntry(
  s: BlendSim,
  contract: Buffer,
  key: ScVal,
  durability: number,
  accountOf: AccountOf,
): xdr.LedgerEntryWire | null | undefined {
  const pool = s.pools.find((p) => contract.equals(p.id))
  if (!pool) return undefined
  if (s.started === 0) return null
  const accountOrLiquidator = (v: ScVal): number | undefined => {
    if (v.type === 18 && v.address.type === 1) {
      const id = Buffer.from(v.address.contractId)
      for (const [user, contract] of s.contractUsers) if (id.equals(contract)) return user
      return undefined
    }
    return v.type === 18 &&
      v.address.type === 0 &&
      Buffer.from(v.address.accountId.ed25519).equals(s.ids.blendLiquidator)
      ? s.liquidator
      : accountOf(v)
  }
  if (key.type === 20) return durability === 1 ? instanceEntry(s, pool) : null
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
      ? auctionEntry(s, pool, account)
      : null
  }
  if (durability !== 1) return null
  if (key.type === 15) {
    const name = key.sym.toString()
    if (name === 'ResList') return listEntry(pool)
    return name === 'PoolEmis' ? poolEmisEntry(pool, s.started) : null
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
    return user && account !== undefined ? positionsEntry(s, pool, account, user) : null
  }
  if (arg.type !== 18 || arg.address.type !== 1) return null
  const id = Buffer.from(arg.address.contractId)
  const reserve = pool.reserves.find((r) => id.equals(Buffer.from(r.asset)))
  if (!reserve) return null
  if (tag === 'ResData') return resDataEntry(pool, reserve)
  if (tag === 'ResConfig') return resConfigEntry(pool, reserve, s.started)
  return null
}
