import type { VaultStateChange } from '../protocols/vaultprotocol/adapt-ledger.ts'
import type { StoredVault } from '../protocols/vaultprotocol/stored-vault.ts'

export const VAULT_PROTOCOL = 'vaultprotocol'

/** One vault of an account, with the ledger at which it itself last changed. */
export interface VaultPosition {
  denomination: string
  totalCollateral: bigint
  totalDebt: bigint
  index: bigint
  ledger: number
}

export interface SnapshotRow {
  protocol: string
  address: string
  ledger: number
  /** JSON array, see `serializePositions`. */
  positions: string
}

/** The `positions` JSON of a snapshot: sorted by denomination, integers as strings. */
export function serializePositions(positions: Iterable<VaultPosition>): string {
  const sorted = [...positions].sort((a, b) =>
    a.denomination < b.denomination ? -1 : a.denomination > b.denomination ? 1 : 0,
  )
  return JSON.stringify(
    sorted.map((p) => ({
      denomination: p.denomination,
      total_collateral: p.totalCollateral.toString(),
      total_debt: p.totalDebt.toString(),
      index: p.index.toString(),
      ledger: p.ledger,
    })),
  )
}

export function parsePositions(json: string): VaultPosition[] {
  return (JSON.parse(json) as StoredVault[]).map((p) => ({
    denomination: p.denomination,
    totalCollateral: BigInt(p.total_collateral),
    totalDebt: BigInt(p.total_debt),
    index: BigInt(p.index),
    ledger: p.ledger,
  }))
}

function sameValues(a: VaultPosition | undefined, b: VaultPosition | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return a.totalCollateral === b.totalCollateral && a.totalDebt === b.totalDebt && a.index === b.index
}

/** What the book knows at a checkpoint: each account's open vaults. */
export interface VaultBookState {
  accounts: Map<string, Map<string, VaultPosition>>
}

export interface VaultBook {
  /**
   * Applies one ledger's changes; returns the rows it makes. Ledgers must come in order, and every
   * account they touch must be cached (`load`) first: an account absent from the cache is empty.
   */
  applyLedger(ledger: number, changes: readonly VaultStateChange[]): SnapshotRow[]
  /** Whether an account's current state is cached. */
  has(account: string): boolean
  /** Caches an account's current state as the store holds it (its latest snapshot; empty when none). */
  load(account: string, positions: readonly VaultPosition[]): void
  /**
   * Forgets the least recently touched accounts beyond `maxAccounts`. Call it only when everything
   * applied is committed: the store then holds every forgotten state.
   */
  trim(maxAccounts: number): void
  state(): VaultBookState
}

/**
 * The current vault state of the accounts a batch touches: a bounded cache over the store, so a
 * change is detected without a database read for recently active accounts, and memory does not
 * grow with the number of accounts. A snapshot is made only when an account's positions differ at
 * the end of the ledger from what they were at its start: a rewrite with identical values, or a
 * change undone within the same ledger, is no change.
 */
export function createVaultBook(initial?: VaultBookState): VaultBook {
  // Insertion order is recency: a touched account is moved to the end.
  const accounts = initial?.accounts ?? new Map<string, Map<string, VaultPosition>>()

  function applyLedger(ledger: number, changes: readonly VaultStateChange[]): SnapshotRow[] {
    // Values at the start of the ledger of every (account, denomination) it touches.
    const before = new Map<string, Map<string, VaultPosition | undefined>>()

    for (const change of changes) {
      let vaults = accounts.get(change.account)
      let touched = before.get(change.account)
      if (touched === undefined) {
        touched = new Map()
        before.set(change.account, touched)
        accounts.delete(change.account)
      }
      if (vaults === undefined) vaults = new Map()
      accounts.set(change.account, vaults)
      if (!touched.has(change.denomination)) touched.set(change.denomination, vaults.get(change.denomination))
      if (change.kind === 'vault-removed') {
        vaults.delete(change.denomination)
        continue
      }
      vaults.set(change.denomination, {
        denomination: change.denomination,
        totalCollateral: change.totalCollateral,
        totalDebt: change.totalDebt,
        index: change.index,
        ledger,
      })
    }

    const snapshots: SnapshotRow[] = []
    for (const [account, touched] of before) {
      const vaults = accounts.get(account)!
      let changed = false
      for (const [denomination, previous] of touched) {
        const current = vaults.get(denomination)
        if (sameValues(previous, current)) {
          // Put back the untouched original so its `ledger` stays that of its last change (a
          // neighbour's `next_key` rewrite, or a value undone within the ledger, is no change).
          if (previous !== undefined) vaults.set(denomination, previous)
          continue
        }
        changed = true
      }
      if (!changed) continue
      snapshots.push({
        protocol: VAULT_PROTOCOL,
        address: account,
        ledger,
        positions: serializePositions(vaults.values()),
      })
    }
    snapshots.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))
    return snapshots
  }

  return {
    applyLedger,
    has: (account) => accounts.has(account),
    load(account, positions) {
      accounts.set(account, new Map(positions.map((p) => [p.denomination, p])))
    },
    trim(maxAccounts) {
      for (const account of accounts.keys()) {
        if (accounts.size <= maxAccounts) break
        accounts.delete(account)
      }
    },
    state: () => ({ accounts }),
  }
}
