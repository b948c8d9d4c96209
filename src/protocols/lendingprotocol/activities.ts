import type { DecodedLedger } from '../../chain/decode-ledger.ts'
import { type ActivityPlace, type ProtocolActivity, readEventActivities } from '../kit/protocol-module.ts'
import { LENDING } from './id.ts'

/**
 * The pool's events as typed activities (blend-contracts-v2 pool/src/events.rs; every topic string a
 * Symbol). They say what a user did; positions are read from storage, never from these.
 */

/** `submit` requests 0-5: `[name, asset, from]`, data `(underlying amount, b- or d-tokens)`. */
export const POOL_REQUEST_EVENTS = [
  'supply',
  'withdraw',
  'supply_collateral',
  'withdraw_collateral',
  'borrow',
  'repay',
] as const
export type PoolRequestEvent = (typeof POOL_REQUEST_EVENTS)[number]

/**
 * Every activity type of the lending module. The pool events blend-contracts-v2 publishes that
 * name an account (pool/src/events.rs).
 */
export const LENDING_ACTIVITY_TYPES: readonly string[] = [
  ...POOL_REQUEST_EVENTS,
  'new_auction',
  'fill_auction',
  'claim',
]

export interface PoolRequestActivity extends ProtocolActivity {
  type: PoolRequestEvent
  asset: string
  /** Underlying moved, in the asset's units. */
  amount: bigint
  /** b-tokens minted or burnt (supply side), d-tokens (borrow side). */
  tokens: bigint
}

/** An auction's lot and bid: asset -> b-tokens (lot of a user liquidation) or d-tokens (its bid). */
export interface AuctionAmounts {
  bid: Record<string, bigint>
  lot: Record<string, bigint>
  block: number
}

export interface NewAuctionActivity extends ProtocolActivity, AuctionAmounts {
  type: 'new_auction'
  /** 0 user liquidation, 1 bad debt, 2 interest. */
  auction_type: number
  percent: number
}

export interface FillAuctionActivity extends ProtocolActivity, AuctionAmounts {
  type: 'fill_auction'
  auction_type: number
  filler: string
  fill_percent: bigint
}

export interface ClaimActivity extends ProtocolActivity {
  type: 'claim'
  reserve_token_ids: number[]
  /** BLND, 7 decimals. */
  amount: bigint
}

export type LendingActivity = PoolRequestActivity | NewAuctionActivity | FillAuctionActivity | ClaimActivity

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function readAmounts(map: unknown): Record<string, bigint> | null {
  if (!isRecord(map)) return null
  const out: Record<string, bigint> = {}
  for (const [asset, amount] of Object.entries(map)) {
    if (typeof amount !== 'bigint') return null
    out[asset] = amount
  }
  return out
}

function readAuction(value: unknown): AuctionAmounts | null {
  if (!isRecord(value) || typeof value.block !== 'number') return null
  const bid = readAmounts(value.bid)
  const lot = readAmounts(value.lot)
  return bid && lot ? { bid, lot, block: value.block } : null
}

type Where = ActivityPlace

function readActivity(where: Where, topics: unknown[], data: unknown): LendingActivity | null {
  const [name, first, second] = topics
  if (typeof name !== 'string') return null
  if ((POOL_REQUEST_EVENTS as readonly string[]).includes(name)) {
    if (typeof first !== 'string' || typeof second !== 'string' || !Array.isArray(data)) return null
    const [amount, tokens] = data
    if (typeof amount !== 'bigint' || typeof tokens !== 'bigint') return null
    return { ...where, type: name as PoolRequestEvent, account: second, asset: first, amount, tokens }
  }
  if (name === 'new_auction' || name === 'fill_auction') {
    if (typeof first !== 'number' || typeof second !== 'string' || !Array.isArray(data)) return null
    if (name === 'new_auction') {
      const [percent, auction] = data
      const amounts = readAuction(auction)
      if (typeof percent !== 'number' || amounts === null) return null
      return { ...where, type: name, account: second, auction_type: first, percent, ...amounts }
    }
    const [filler, fillPercent, auction] = data
    const amounts = readAuction(auction)
    if (typeof filler !== 'string' || typeof fillPercent !== 'bigint' || amounts === null) return null
    return {
      ...where,
      type: name,
      account: second,
      counterparties: [filler],
      auction_type: first,
      filler,
      fill_percent: fillPercent,
      ...amounts,
    }
  }
  if (name === 'claim') {
    if (typeof first !== 'string' || !Array.isArray(data)) return null
    const [ids, amount] = data
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'number') || typeof amount !== 'bigint')
      return null
    return { ...where, type: name, account: first, reserve_token_ids: ids as number[], amount }
  }
  return null
}

/**
 * Every user activity the pools' events of one ledger announce, in apply order. Other pool events
 * (`gulp_emissions`, `reserve_emission_update`, admin events) are the pool's own bookkeeping;
 * `flash_loan`, `delete_auction`, `bad_debt` and `defaulted_debt` are not decoded yet.
 */
export function readLendingActivities(ledger: DecodedLedger, pools: ReadonlySet<string>): LendingActivity[] {
  return readEventActivities(ledger, LENDING, pools, readActivity)
}
