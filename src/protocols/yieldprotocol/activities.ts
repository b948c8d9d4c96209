import type { DecodedLedger } from '../../chain/decode-ledger.ts'
import { type ActivityPlace, type ProtocolActivity, readEventActivities } from '../kit/protocol-module.ts'
import { YIELD } from './id.ts'

/**
 * Every activity type of this module. A vault's deposit, withdraw and rebalance events, and
 * transfers of its shares.
 */
export const YIELD_ACTIVITY_TYPES: readonly string[] = ['deposit', 'withdraw', 'transfer', 'rebalance']

/**
 * The vaults' events as typed activities (paltalabs/defindex apps/contracts/vault/src/events.rs:
 * topics `[String "DeFindexVault", Symbol name]`, data a struct; the df-token's own `transfer` is
 * soroban-token-sdk's `[Symbol transfer, from, to]` with an i128). They say what an account did;
 * balances are read from storage, never from these.
 */

/** One asset of `total_managed_funds_before` (`CurrentAssetInvestmentAllocation`). */
export interface ManagedFunds {
  asset: string
  idle_amount: bigint
  invested_amount: bigint
  total_amount: bigint
  strategy_allocations: Array<{ strategy_address: string; amount: bigint; paused: boolean | null }>
}

export interface VaultDepositActivity extends ProtocolActivity {
  type: 'deposit'
  /** Per asset, in the vault's asset order. */
  amounts: bigint[]
  df_tokens_minted: bigint
  total_managed_funds_before: ManagedFunds[] | null
  total_supply_before: bigint | null
}

export interface VaultWithdrawActivity extends ProtocolActivity {
  type: 'withdraw'
  amounts_withdrawn: bigint[]
  df_tokens_burned: bigint
  total_managed_funds_before: ManagedFunds[] | null
  total_supply_before: bigint | null
}

/** A df-token transfer: `account` is the sender. */
export interface ShareTransferActivity extends ProtocolActivity {
  type: 'transfer'
  to: string
  amount: bigint
}

/** A manager's rebalance: `account` is the vault itself (the event names no caller). */
export interface RebalanceActivity extends ProtocolActivity {
  type: 'rebalance'
  /** `invest`, `unwind`, `swap_exact_in`... as the event's `rebalance_method` symbol states it. */
  method: string
}

export type YieldActivity =
  | VaultDepositActivity
  | VaultWithdrawActivity
  | ShareTransferActivity
  | RebalanceActivity

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const bigints = (v: unknown): bigint[] | null =>
  Array.isArray(v) && v.every((x) => typeof x === 'bigint') ? (v as bigint[]) : null

function readManagedFunds(v: unknown): ManagedFunds[] | null {
  if (!Array.isArray(v)) return null
  const out: ManagedFunds[] = []
  for (const a of v) {
    if (
      !isRecord(a) ||
      typeof a.asset !== 'string' ||
      typeof a.idle_amount !== 'bigint' ||
      typeof a.invested_amount !== 'bigint' ||
      typeof a.total_amount !== 'bigint' ||
      !Array.isArray(a.strategy_allocations)
    )
      return null
    const allocations: ManagedFunds['strategy_allocations'] = []
    for (const s of a.strategy_allocations) {
      if (!isRecord(s) || typeof s.strategy_address !== 'string' || typeof s.amount !== 'bigint') return null
      allocations.push({
        strategy_address: s.strategy_address,
        amount: s.amount,
        paused: typeof s.paused === 'boolean' ? s.paused : null,
      })
    }
    out.push({
      asset: a.asset,
      idle_amount: a.idle_amount,
      invested_amount: a.invested_amount,
      total_amount: a.total_amount,
      strategy_allocations: allocations,
    })
  }
  return out
}

type Where = ActivityPlace

function readActivity(where: Where, topics: unknown[], data: unknown): YieldActivity | null {
  const [first, second, third] = topics
  if (first === 'transfer' && topics.length === 3) {
    if (typeof second !== 'string' || typeof third !== 'string' || typeof data !== 'bigint') return null
    return { ...where, type: 'transfer', account: second, counterparties: [third], to: third, amount: data }
  }
  if (first !== 'DeFindexVault' || !isRecord(data)) return null
  // Older vaults emit no `total_*_before`: those are null then.
  const funds = readManagedFunds(data.total_managed_funds_before)
  const supply = typeof data.total_supply_before === 'bigint' ? data.total_supply_before : null
  if (second === 'deposit') {
    const amounts = bigints(data.amounts)
    if (typeof data.depositor !== 'string' || amounts === null || typeof data.df_tokens_minted !== 'bigint')
      return null
    return {
      ...where,
      type: 'deposit',
      account: data.depositor,
      amounts,
      df_tokens_minted: data.df_tokens_minted,
      total_managed_funds_before: funds,
      total_supply_before: supply,
    }
  }
  if (second === 'withdraw') {
    const amounts = bigints(data.amounts_withdrawn)
    if (typeof data.withdrawer !== 'string' || amounts === null || typeof data.df_tokens_burned !== 'bigint')
      return null
    return {
      ...where,
      type: 'withdraw',
      account: data.withdrawer,
      amounts_withdrawn: amounts,
      df_tokens_burned: data.df_tokens_burned,
      total_managed_funds_before: funds,
      total_supply_before: supply,
    }
  }
  if (second === 'rebalance') {
    if (typeof data.rebalance_method !== 'string') return null
    return { ...where, type: 'rebalance', account: where.contract, method: data.rebalance_method }
  }
  return null
}

/**
 * Every deposit, withdrawal, share transfer and rebalance the vaults' events of one ledger
 * announce, in apply order. Fee distribution (`dfees`), role changes and rescues are the vault's
 * own bookkeeping and are not decoded.
 */
export function readYieldActivities(ledger: DecodedLedger, vaults: ReadonlySet<string>): YieldActivity[] {
  return readEventActivities(ledger, YIELD, vaults, readActivity)
}
