import type { AccountGroupChange, StoredItem } from '../protocols/kit/protocol-module.ts'
import type { SnapshotsTable } from '../store/schema.ts'

/** One stored item of an account and the ledger at which it itself last changed. */
interface HeldItem {
  /** The item's value without its ledger, serialized: equal text, equal value. */
  json: string
  value: StoredItem
  ledger: number
}

type Holdings = Map<string, HeldItem>

/** An account's positions in one protocol, as the store holds them, for the book to continue from. */
export type LoadedItems = ReadonlyArray<{ key: string; value: StoredItem; ledger: number }>

export interface AccountBook {
  /**
   * Applies one ledger's group changes of one protocol; returns the snapshots it makes. Ledgers come
   * in order, and every account they touch must be cached (`load`) first: an uncached account is empty.
   */
  applyLedger(ledger: number, changes: readonly AccountGroupChange[]): SnapshotsTable[]
  has(account: string): boolean
  load(account: string, items: LoadedItems): void
  /** Forgets the least recently touched accounts beyond `maxAccounts`; only once everything applied is committed. */
  trim(maxAccounts: number): void
  /** Accounts cached now (tests and benchmarks). */
  size(): number
}

function inGroup(key: string, group: string): boolean {
  return key === group || key.startsWith(`${group}/`)
}

function byKey(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** The `positions` JSON of a snapshot: items sorted by key, each with the ledger it last changed at. */
export function serializeHoldings(holdings: Holdings): string {
  const keys = [...holdings.keys()].sort(byKey)
  return `[${keys.map((k) => {
    const held = holdings.get(k)!
    return JSON.stringify({ ...held.value, ledger: held.ledger })
  })}]`
}

/**
 * The current positions, in one protocol, of the accounts a batch touches: a bounded cache over the
 * store, so change detection needs no read for recently active accounts and memory does not grow
 * with the number of accounts. A snapshot is made only when an account's items differ at the end of
 * a ledger from what they were at its start: a rewrite with identical values, or a change undone
 * within the ledger, is no change, and an untouched item keeps the ledger of its own last change.
 */
export function createAccountBook(protocol: string): AccountBook {
  // Insertion order is recency: a touched account moves to the end.
  const accounts = new Map<string, Holdings>()

  function applyLedger(ledger: number, changes: readonly AccountGroupChange[]): SnapshotsTable[] {
    // Each touched account's items at the start of the ledger.
    const before = new Map<string, Holdings>()
    for (const change of changes) {
      let holdings = accounts.get(change.account)
      if (!before.has(change.account)) {
        const current = holdings ?? new Map()
        before.set(change.account, new Map(current))
        accounts.delete(change.account)
        holdings = current
      }
      accounts.set(change.account, holdings!)
      for (const key of holdings!.keys()) if (inGroup(key, change.group)) holdings!.delete(key)
      for (const item of change.items) {
        holdings!.set(item.key, { json: JSON.stringify(item.value), value: item.value, ledger })
      }
    }

    const snapshots: SnapshotsTable[] = []
    for (const [account, previous] of before) {
      const holdings = accounts.get(account)!
      let changed = holdings.size !== previous.size
      for (const [key, item] of holdings) {
        const old = previous.get(key)
        if (old !== undefined && old.json === item.json) {
          // The same value: it keeps the ledger of its own last change.
          holdings.set(key, old)
        } else changed = true
      }
      if (!changed) continue
      snapshots.push({ protocol, address: account, ledger, positions: serializeHoldings(holdings) })
    }
    snapshots.sort((a, b) => byKey(a.address, b.address))
    return snapshots
  }

  return {
    applyLedger,
    has: (account) => accounts.has(account),
    load(account, items) {
      const holdings: Holdings = new Map()
      for (const { key, value, ledger } of items) {
        holdings.set(key, { json: JSON.stringify(value), value, ledger })
      }
      accounts.set(account, holdings)
    },
    trim(maxAccounts) {
      for (const account of accounts.keys()) {
        if (accounts.size <= maxAccounts) break
        accounts.delete(account)
      }
    },
    size: () => accounts.size,
  }
}
