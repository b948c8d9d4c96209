import type { DecodedLedger } from '../../chain/decode-ledger.ts'
import {
  type AccountGroupChange,
  type ContractStateChange,
  type ProtocolLedgerFacts,
  type StoredItem,
  toStoredValue,
} from '../kit/protocol-module.ts'
import { readLendingActivities } from './activities.ts'

/**
 * Blend v2 pools as mainnet writes them (blend-contracts-v2 pool/src/storage.rs; docs/devnet.md).
 * Positions come from the persistent `Positions(user)` entries alone, never from replaying events:
 * auctions move b- and d-tokens between users with no supply or borrow event. A `Positions` value
 * is `{collateral, liabilities, supply}`, each a `Map<u32 reserve index, i128>` of b-tokens
 * (collateral, supply) or d-tokens (liabilities). Each user's emissions of a reserve token,
 * `UserEmis({reserve_id, user})` = `{accrued, index}`, are part of the account's state too: a claim
 * or an accrual changes what it is owed. The pool's own state is kept as history: `ResData(asset)`,
 * `ResConfig(asset)`, `ResList`, `EmisData(res_token_id)`, `PoolEmis`, and from instance storage
 * `Config` (PoolConfig), `Name` and `BLNDTkn` (the token it emits).
 */

export type BalanceKind = 'collateral' | 'liabilities' | 'supply'
export const BALANCE_KINDS: readonly BalanceKind[] = ['collateral', 'liabilities', 'supply']

/** One stored balance: b-tokens (collateral, supply) or d-tokens (liabilities) of one reserve of one pool. */
export interface StoredLendingBalance {
  pool: string
  reserve_index: number
  kind: BalanceKind
  /** An integer string, in the reserve's decimals. */
  tokens: string
  /** Ledger at which this item itself last changed (added by the account book). */
  ledger: number
}

/** One stored `UserEmis` entry: what the pool owes the account for one reserve token. */
export interface StoredLendingEmissions {
  pool: string
  /** reserve index × 2 for the d-token, × 2 + 1 for the b-token. */
  reserve_token_id: number
  kind: 'emissions'
  /** BLND, 7 decimals, an integer string. */
  accrued: string
  /** The token's emission index the account last accrued to, an integer string. */
  index: string
  ledger: number
}

export type StoredLendingItem = StoredLendingBalance | StoredLendingEmissions

const pad2 = (n: number) => String(n).padStart(2, '0')

/** The group of a pool's `Positions` entry: every balance item sits under it. */
export const positionsGroup = (pool: string) => `${pool}/positions`
/** The group (and key) of one `UserEmis` entry. */
export const emissionsGroup = (pool: string, reserveTokenId: number) =>
  `${pool}/emissions/${pad2(reserveTokenId)}`

/** The key of a stored item: sorted by pool, emissions before positions, then reserve and kind. */
export function lendingItemKey(item: StoredItem): string {
  const pool = String(item.pool)
  if (item.kind === 'emissions') return emissionsGroup(pool, Number(item.reserve_token_id))
  return `${positionsGroup(pool)}/${pad2(Number(item.reserve_index))}/${String(item.kind)}`
}

/** State keys of a pool's history (`contract_state.key`). */
export const STATE = {
  resData: (asset: string) => `ResData/${asset}`,
  resConfig: (asset: string) => `ResConfig/${asset}`,
  emisData: (resTokenId: number) => `EmisData/${resTokenId}`,
  resList: 'ResList',
  poolEmis: 'PoolEmis',
  config: 'Config',
  name: 'Name',
  /** The token the pool emits (BLND), from instance storage. */
  emissionToken: 'BLNDTkn',
} as const

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `Positions` -> its balance items, zero balances left out (the contract removes them from its maps). */
function readPositions(pool: string, value: unknown): Array<{ key: string; value: StoredItem }> | null {
  if (!isRecord(value)) return null
  const items: Array<{ key: string; value: StoredItem }> = []
  for (const kind of BALANCE_KINDS) {
    const map = value[kind]
    if (!isRecord(map)) return null
    for (const [index, tokens] of Object.entries(map)) {
      const reserveIndex = Number(index)
      if (!Number.isInteger(reserveIndex) || typeof tokens !== 'bigint') return null
      if (tokens === 0n) continue
      const item = { pool, reserve_index: reserveIndex, kind, tokens: tokens.toString() }
      items.push({ key: lendingItemKey(item), value: item })
    }
  }
  return items
}

/** `UserEmissionData{accrued, index}` -> its stored item. */
function readUserEmissions(pool: string, reserveTokenId: number, value: unknown): StoredItem | null {
  if (!isRecord(value) || typeof value.accrued !== 'bigint' || typeof value.index !== 'bigint') return null
  return {
    pool,
    reserve_token_id: reserveTokenId,
    kind: 'emissions',
    accrued: value.accrued.toString(),
    index: value.index.toString(),
  }
}

/** `Vec[Symbol(tag), arg]` keys as native values: `[tag, arg]`. */
function taggedKey(key: unknown): [string, unknown] | null {
  if (!Array.isArray(key) || key.length !== 2 || typeof key[0] !== 'string') return null
  return [key[0], key[1]]
}

/**
 * The pool facts of one ledger, in apply order. A restored entry (protocol 23) comes back with the
 * value it held: no change. Failed transactions changed nothing and are skipped.
 */
export function adaptLendingLedger(ledger: DecodedLedger, pools: ReadonlySet<string>): ProtocolLedgerFacts {
  const accounts: AccountGroupChange[] = []
  const states: ContractStateChange[] = []
  for (const tx of ledger.transactions) {
    if (!tx.successful) continue
    for (const change of tx.contractDataChanges) {
      if (!pools.has(change.contract) || change.durability !== 'persistent' || change.kind === 'restored')
        continue
      const pool = change.contract
      if (change.key === STATE.resList || change.key === STATE.poolEmis) {
        if (change.kind !== 'removed')
          states.push({ contract: pool, key: change.key, value: toStoredValue(change.value) })
        continue
      }
      const tagged = taggedKey(change.key)
      if (tagged === null) continue
      const [tag, arg] = tagged
      if (tag === 'Positions' && typeof arg === 'string') {
        const items = change.kind === 'removed' ? [] : readPositions(pool, change.value)
        if (items !== null) accounts.push({ account: arg, group: positionsGroup(pool), items })
        continue
      }
      if (
        tag === 'UserEmis' &&
        isRecord(arg) &&
        typeof arg.user === 'string' &&
        typeof arg.reserve_id === 'number'
      ) {
        const group = emissionsGroup(pool, arg.reserve_id)
        const item = change.kind === 'removed' ? null : readUserEmissions(pool, arg.reserve_id, change.value)
        if (change.kind === 'removed') accounts.push({ account: arg.user, group, items: [] })
        else if (item !== null)
          accounts.push({ account: arg.user, group, items: [{ key: group, value: item }] })
        continue
      }
      if (change.kind === 'removed') continue
      if ((tag === 'ResData' || tag === 'ResConfig') && typeof arg === 'string') {
        const key = tag === 'ResData' ? STATE.resData(arg) : STATE.resConfig(arg)
        states.push({ contract: pool, key, value: toStoredValue(change.value) })
      } else if (tag === 'EmisData' && typeof arg === 'number') {
        states.push({ contract: pool, key: STATE.emisData(arg), value: toStoredValue(change.value) })
      }
    }
    for (const instance of tx.instanceChanges) {
      if (!pools.has(instance.contract)) continue
      for (const { key, value } of instance.storage) {
        if (key === STATE.config || key === STATE.name || key === STATE.emissionToken) {
          states.push({ contract: instance.contract, key, value: toStoredValue(value) })
        }
      }
    }
  }
  return { accounts, states, activities: readLendingActivities(ledger, pools) }
}
