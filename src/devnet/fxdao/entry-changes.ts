import type { xdr } from '@stellar/stellar-sdk'
import { buildContractDataKey } from '../ledger/contract-layout.ts'
import type { WorldState } from '../world/world-state.ts'
import { buildVaultIndexKey, buildVaultKey } from './layout.ts'
import {
  accountAddress,
  buildVaultEntry,
  buildVaultIndexEntry,
  buildVaultInstanceEntry,
  type VaultRecord,
  vaultMapKey,
} from './state.ts'

/** The Vault and VaultIndex entry changes of one transaction, and the entries' TTL and eviction. */

// ---------------------------------------------------------------------------------------------
// Entry changes of one transaction

/** What an entry looked like when a transaction first touched it. */
export interface Before {
  record: VaultRecord
  vault: xdr.LedgerEntryWire | null
  vaultFingerprint: string | null
  index: xdr.LedgerEntryWire | null
  indexValue: bigint | null
  account: number
}

/** A record's stored fields, to tell whether a transaction changed its entry. */
export function fingerprint(v: VaultRecord): string {
  const n = v.next
  return `${v.account}|${v.collateral}|${v.debt}|${v.index}|${n ? `${n.account}/${n.denom}/${n.index}` : '-'}`
}

/**
 * Collects the net change of every Vault and VaultIndex entry a transaction touches. `touch` must be
 * called for a record before it (or the list around it) changes; an archived entry is restored
 * first (LEDGER_ENTRY_RESTORED), as protocol 23 restores what a transaction's footprint needs.
 */
export function createEntryTracker(w: WorldState) {
  const restores: xdr.LedgerEntryChangeWire[] = []
  const touched = new Map<VaultRecord, Before>()
  const infoBefore = buildVaultInstanceEntry(w)

  const restore = (v: VaultRecord, which: 'vault' | 'index') => {
    if (which === 'vault' && v.vaultArchived) {
      restores.push({ type: 4, restored: buildVaultEntry(w, v) })
      v.vaultArchived = false
      v.vaultLiveUntil = w.sequence + w.ttlLedgers
      scheduleExpiry(w, v, v.vaultLiveUntil)
    }
    if (which === 'index' && v.indexArchived) {
      restores.push({ type: 4, restored: buildVaultIndexEntry(w, v) })
      v.indexArchived = false
      v.indexLiveUntil = w.sequence + w.ttlLedgers
      scheduleExpiry(w, v, v.indexLiveUntil)
    }
  }

  return {
    /** Before-image of a record's entries; `owner` also reads its VaultIndex (the target of the call). */
    touch(v: VaultRecord | null, owner = false) {
      if (!v) return
      restore(v, 'vault')
      if (owner) restore(v, 'index')
      if (touched.has(v)) return
      touched.set(v, {
        record: v,
        vault: buildVaultEntry(w, v),
        vaultFingerprint: fingerprint(v),
        index: buildVaultIndexEntry(w, v),
        indexValue: v.index,
        account: v.account,
      })
    },
    /** A record that did not exist before this transaction. */
    created(v: VaultRecord) {
      touched.set(v, {
        record: v,
        vault: null,
        vaultFingerprint: null,
        index: null,
        indexValue: null,
        account: v.account,
      })
    },
    /** The changes in meta order: restores, then each entry's net change, then the instance entry. */
    finish(): xdr.LedgerEntryChangeWire[] {
      const changes: xdr.LedgerEntryChangeWire[] = [...restores]
      for (const before of touched.values()) {
        const v = before.record
        const open = w.vaults.get(vaultMapKey(v.account, v.denom)) === v
        const d = w.denoms[v.denom]!
        if (!open) {
          if (before.vault === null) continue
          const account = accountAddress(w, before.account)
          changes.push(
            { type: 3, state: before.vault },
            { type: 2, removed: buildContractDataKey(w.ids.vaultContract, buildVaultKey(account, d.name)) },
            { type: 3, state: before.index! },
            {
              type: 2,
              removed: buildContractDataKey(w.ids.vaultContract, buildVaultIndexKey(account, d.name)),
            },
          )
          continue
        }
        if (before.vault === null) {
          v.vaultModified = w.sequence
          v.indexModified = w.sequence
          renew(w, v, 'vault')
          renew(w, v, 'index')
          changes.push(
            { type: 0, created: buildVaultEntry(w, v) },
            { type: 0, created: buildVaultIndexEntry(w, v) },
          )
          continue
        }
        if (fingerprint(v) !== before.vaultFingerprint) {
          v.vaultModified = w.sequence
          renew(w, v, 'vault')
          changes.push({ type: 3, state: before.vault }, { type: 1, updated: buildVaultEntry(w, v) })
        }
        if (v.index !== before.indexValue) {
          v.indexModified = w.sequence
          renew(w, v, 'index')
          changes.push({ type: 3, state: before.index! }, { type: 1, updated: buildVaultIndexEntry(w, v) })
        }
      }
      w.vaultInstanceModified = w.sequence
      changes.push({ type: 3, state: infoBefore }, { type: 1, updated: buildVaultInstanceEntry(w) })
      return changes
    },
  }
}

function renew(w: WorldState, v: VaultRecord, which: 'vault' | 'index'): void {
  const until = w.sequence + w.ttlLedgers
  if (which === 'vault') v.vaultLiveUntil = until
  else v.indexLiveUntil = until
  scheduleExpiry(w, v, until)
}

/** Files a record under the ledger its entry stops being live. */
export function scheduleExpiry(w: WorldState, v: VaultRecord, liveUntil: number): void {
  const bucket = w.expiries.get(liveUntil)
  if (bucket) bucket.push(v)
  else w.expiries.set(liveUntil, [v])
}

/**
 * Protocol 23 eviction: entries whose TTL ended the ledger before are archived now, their keys
 * listed in `evictedKeys`. They keep their values (the world still holds them).
 */
export function evictExpired(w: WorldState): xdr.LedgerKeyWire[] {
  const expired = w.sequence - 1
  const bucket = w.expiries.get(expired)
  if (!bucket) return []
  w.expiries.delete(expired)
  const keys: xdr.LedgerKeyWire[] = []
  if (!w.protocol23) {
    // Before protocol 23 nothing is evicted: look again once the network has switched.
    for (const v of bucket) scheduleExpiry(w, v, w.sequence)
    return keys
  }
  for (const v of bucket) {
    if (w.vaults.get(vaultMapKey(v.account, v.denom)) !== v) continue
    const d = w.denoms[v.denom]!
    const account = accountAddress(w, v.account)
    if (!v.vaultArchived && v.vaultLiveUntil <= expired) {
      v.vaultArchived = true
      keys.push(buildContractDataKey(w.ids.vaultContract, buildVaultKey(account, d.name)))
    }
    if (!v.indexArchived && v.indexLiveUntil <= expired) {
      v.indexArchived = true
      keys.push(buildContractDataKey(w.ids.vaultContract, buildVaultIndexKey(account, d.name)))
    }
  }
  return keys
}
