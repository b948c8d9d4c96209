import type { xdr } from '@stellar/stellar-sdk'
import { buildContractDataEntry, buildInstanceEntry } from '../ledger/contract-layout.ts'
import type { ScVal } from '../ledger/scval.ts'

/**
 * One DeFindex transaction's ledger-entry changes. A contract may write an entry several times in
 * one call (the vault sets `Report` when it locks fees and again after investing); the meta carries
 * each entry once, with its pre-image as the transaction found it and its value as it left it.
 */
export interface TxChanges {
  /** Records a write of a persistent entry named `name` (unique in the tx): `before` is its value and modified ledger, or null when new. */
  write(
    name: string,
    contract: Uint8Array,
    key: ScVal,
    before: { val: ScVal; modified: number } | null,
    after: ScVal,
  ): void
  /** Records a rewrite of a contract's instance entry, with the storage before and after. */
  writeInstance(
    contract: Uint8Array,
    wasm: Uint8Array,
    before: { storage: [ScVal, ScVal][]; modified: number },
    after: [ScVal, ScVal][],
  ): void
  /** Appends another contract's changes (the pool's `submit`) at this point of the call. */
  append(changes: xdr.LedgerEntryChangeWire[]): void
  build(): xdr.LedgerEntryChangeWire[]
}

export function createTxChanges(sequence: number): TxChanges {
  const order: (string | xdr.LedgerEntryChangeWire[])[] = []
  const entries = new Map<string, { before: xdr.LedgerEntryWire | null; after: xdr.LedgerEntryWire }>()
  const put = (name: string, before: xdr.LedgerEntryWire | null, after: xdr.LedgerEntryWire) => {
    const seen = entries.get(name)
    if (seen) seen.after = after
    else {
      entries.set(name, { before, after })
      order.push(name)
    }
  }
  return {
    write(name, contract, key, before, after) {
      put(
        name,
        before ? buildContractDataEntry(contract, key, before.val, before.modified) : null,
        buildContractDataEntry(contract, key, after, sequence),
      )
    },
    writeInstance(contract, wasm, before, after) {
      put(
        `instance:${Buffer.from(contract).toString('hex')}`,
        buildInstanceEntry(contract, wasm, before.storage, before.modified),
        buildInstanceEntry(contract, wasm, after, sequence),
      )
    },
    append(changes) {
      order.push(changes)
    },
    build() {
      const out: xdr.LedgerEntryChangeWire[] = []
      for (const item of order) {
        if (typeof item !== 'string') {
          out.push(...item)
          continue
        }
        const { before, after } = entries.get(item)!
        if (before) out.push({ type: 3, state: before }, { type: 1, updated: after })
        else out.push({ type: 0, created: after })
      }
      return out
    },
  }
}
