import type { DecodedLedger } from '../../chain/decode-ledger.ts'
import { type ActivityPlace, type ProtocolActivity, readEventActivities } from '../kit/protocol-module.ts'
import { AMM } from './id.ts'

/**
 * Every activity type of this module. A pair's deposit and withdraw events, its swaps, and LP
 * token transfers between accounts.
 */
export const AMM_ACTIVITY_TYPES: readonly string[] = [
  'add_liquidity',
  'remove_liquidity',
  'swap',
  'lp_transfer',
]

/**
 * A pair's events as typed activities. Pair events carry topics `[String("SoroswapPair"),
 * Symbol(name)]` and a struct (a map sorted by field name) as data (contracts/pair/src/event.rs);
 * the pair's LP token events are soroban-token-sdk's (`[Symbol("transfer"), from, to]`, data the
 * i128 amount). They say what an account did; positions are read from storage, never from these.
 */

const PAIR_TOPIC = 'SoroswapPair'

export interface LiquidityActivity extends ProtocolActivity {
  type: 'add_liquidity' | 'remove_liquidity'
  /** Token 0 and token 1 moved in (add) or out (remove), in each token's units. */
  amount_0: bigint
  amount_1: bigint
  /** LP tokens minted to the account (add) or burnt (remove). */
  liquidity: bigint
  /** The pair's reserves after the activity. */
  reserve_0: bigint
  reserve_1: bigint
}

export interface SwapActivity extends ProtocolActivity {
  type: 'swap'
  amount_0_in: bigint
  amount_0_out: bigint
  amount_1_in: bigint
  amount_1_out: bigint
}

/** LP tokens moved from `account` to `to` by a plain transfer. */
export interface LpTransferActivity extends ProtocolActivity {
  type: 'lp_transfer'
  to: string
  amount: bigint
}

export type AmmActivity = LiquidityActivity | SwapActivity | LpTransferActivity

type Where = ActivityPlace

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function bigints<K extends string>(
  data: Record<string, unknown>,
  keys: readonly K[],
): Record<K, bigint> | null {
  const out = {} as Record<K, bigint>
  for (const key of keys) {
    const value = data[key]
    if (typeof value !== 'bigint') return null
    out[key] = value
  }
  return out
}

const LIQUIDITY_FIELDS = ['amount_0', 'amount_1', 'liquidity', 'new_reserve_0', 'new_reserve_1'] as const
const SWAP_FIELDS = ['amount_0_in', 'amount_0_out', 'amount_1_in', 'amount_1_out'] as const

function readActivity(where: Where, topics: unknown[], data: unknown): AmmActivity | null {
  const [first, second, third] = topics
  if (first === PAIR_TOPIC && isRecord(data) && typeof data.to === 'string') {
    if (second === 'deposit' || second === 'withdraw') {
      const v = bigints(data, LIQUIDITY_FIELDS)
      if (v === null) return null
      return {
        ...where,
        type: second === 'deposit' ? 'add_liquidity' : 'remove_liquidity',
        account: data.to,
        amount_0: v.amount_0,
        amount_1: v.amount_1,
        liquidity: v.liquidity,
        reserve_0: v.new_reserve_0,
        reserve_1: v.new_reserve_1,
      }
    }
    if (second === 'swap') {
      const v = bigints(data, SWAP_FIELDS)
      return v === null ? null : { ...where, type: 'swap', account: data.to, ...v }
    }
    return null
  }
  if (first === 'transfer' && typeof second === 'string' && typeof third === 'string') {
    // A transfer to or from the pair itself is the first step of a withdrawal, not a move between accounts.
    if (typeof data !== 'bigint' || second === where.contract || third === where.contract) return null
    return {
      ...where,
      type: 'lp_transfer',
      account: second,
      counterparties: [third],
      to: third,
      amount: data,
    }
  }
  return null
}

/**
 * Every account activity the pairs' events of one ledger announce, in apply order: deposits, swaps,
 * withdrawals and LP transfers. `sync` and `skim`, and the LP token's `mint` and `burn` (which
 * accompany a deposit or withdrawal), are the pair's own bookkeeping.
 */
export function readAmmActivities(ledger: DecodedLedger, pairs: ReadonlySet<string>): AmmActivity[] {
  return readEventActivities(ledger, AMM, pairs, readActivity)
}
