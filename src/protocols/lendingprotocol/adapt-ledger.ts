import type { DecodedLedger } from '../../chain/decode-ledger.ts'
import type { AccountGroupChange, ContractStateChange, StoredItem, StoredValue } from '../protocol-module.ts'

/**
 * Blend v2 pools as mainnet writes them (notes: protocols.md §1; blend-contracts-v2 pool/src/storage.rs).
 * Positions come from the persistent `Positions(user)` entries alone, never from replaying events:
 * auctions move b- and d-tokens between users with no supply or borrow event. A `Positions` value is
 * `{collateral, liabilities, supply}`, each a `Map<u32 reserve index, i128 tokens>` of b-tokens
 * (collateral, supply) or d-tokens (liabilities). The pool's own state is kept as history:
 * `ResData(asset)` (rates, totals), `ResConfig(asset)`, `ResList`, `EmisData(res_token_id)`,
 * `PoolEmis`, and from instance storage `Config` (PoolConfig) and `Name`.
 */

export type BalanceKind = 'collateral' | 'liabilities' | 'supply'
export const BALANCE_KINDS: readonly BalanceKind[] = ['collateral', 'liabilities', 'supply']

/** One stored lending item: a balance of b- or d-tokens of one reserve of one pool. */
export interface StoredLendingBalance {
  pool: string
  reserve_index: number
  kind: BalanceKind
  /** b-tokens (collateral, supply) or d-tokens (liabilities), an integer string. */
  tokens: string
  /** Ledger at which this balance itself last changed (added by the account book). */
  ledger: number
}

/** The key of a balance item: sorted by pool, then reserve index (two digits: at most 30 reserves), then kind. */
export function balanceKey(pool: string, reserveIndex: number, kind: BalanceKind): string {
  return `${pool}/${String(reserveIndex).padStart(2, '0')}/${kind}`
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
} as const

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Native ScVal (bigints, numbers, strings, maps as objects) -> stored JSON, integers beyond numbers as strings. */
export function toStoredValue(value: unknown): StoredValue {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value
  if (value === null || value === undefined) return null
  if (Array.isArray(value)) return value.map(toStoredValue)
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex')
  if (isRecord(value)) {
    const out: { [key: string]: StoredValue } = {}
    for (const key of Object.keys(value)) out[key] = toStoredValue(value[key])
    return out
  }
  return String(value)
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
      items.push({
        key: balanceKey(pool, reserveIndex, kind),
        value: { pool, reserve_index: reserveIndex, kind, tokens: tokens.toString() },
      })
    }
  }
  return items
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
export function adaptLendingLedger(
  ledger: DecodedLedger,
  pools: ReadonlySet<string>,
): { accounts: AccountGroupChange[]; states: ContractStateChange[] } {
  const accounts: AccountGroupChange[] = []
  const states: ContractStateChange[] = []
  for (const tx of ledger.transactions) {
    if (!tx.successful) continue
    for (const change of tx.contractDataChanges) {
      if (!pools.has(change.contract) || change.durability !== 'persistent' || change.kind === 'restored')
        continue
      const pool = change.contract
      if (change.key === STATE.resList || change.key === STATE.poolEmis) {
        if (change.kind !== 'removed') states.push({ contract: pool, key: change.key, value: toStoredValue(change.value) })
        continue
      }
      const tagged = taggedKey(change.key)
      if (tagged === null) continue
      const [tag, arg] = tagged
      if (tag === 'Positions' && typeof arg === 'string') {
        if (change.kind === 'removed') {
          accounts.push({ account: arg, group: pool, items: [] })
          continue
        }
        const items = readPositions(pool, change.value)
        if (items !== null) accounts.push({ account: arg, group: pool, items })
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
        if (key === STATE.config || key === STATE.name) {
          states.push({ contract: instance.contract, key, value: toStoredValue(value) })
        }
      }
    }
  }
  return { accounts, states }
}
