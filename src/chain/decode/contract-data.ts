import type { xdr } from '@stellar/stellar-sdk/base'
import type { ContractDataChange, InstanceChange } from './decoded-ledger.ts'
import type { Native } from './to-native.ts'
import { type WatchedContracts, watchedIndex } from './watched-contracts.ts'
import {
  CHANGE_KINDS,
  DURABILITY_TEMPORARY,
  LEDGER_ENTRY_CONTRACT_DATA,
  SC_ADDRESS_CONTRACT,
  SCV_ADDRESS,
  SCV_CONTRACT_INSTANCE,
  SCV_LEDGER_KEY_CONTRACT_INSTANCE,
  SCV_LEDGER_KEY_NONCE,
  SCV_VEC,
} from './wire.ts'

/**
 * Contract-data changes of watched contracts, from a transaction's ledger-entry changes: entries
 * (only those of the given holders, for a holder-filtered contract) and instance storage.
 */

/** For a holder-filtered contract: whether the key is `Vec[Symbol, Address(one of its holders)]`. */
function keyOfHolder(watched: WatchedContracts, index: number, key: xdr.ScValWire): boolean {
  const holders = watched.holderIds[index]
  if (!holders) return true
  if (key.type !== SCV_VEC) return false
  const vec = key.vec ?? []
  const holder = vec[1]
  if (vec.length !== 2 || holder?.type !== SCV_ADDRESS || holder.address.type !== SC_ADDRESS_CONTRACT)
    return false
  const id = holder.address.contractId
  return holders.some((h) => Buffer.compare(h, id) === 0)
}

/** Keys that name no data of the contract's own (its instance, auth nonces) are not state. */
function isStateKey(key: xdr.ScValWire): boolean {
  return key.type !== SCV_LEDGER_KEY_CONTRACT_INSTANCE && key.type !== SCV_LEDGER_KEY_NONCE
}

function readInstance(
  kind: 'created' | 'updated',
  contract: string,
  val: xdr.ScValWire,
  out: InstanceChange[],
  toNative: Native,
): void {
  if (val.type !== SCV_CONTRACT_INSTANCE) return
  const storage = (val.instance.storage ?? []).map((entry) => ({
    key: toNative(entry.key),
    value: toNative(entry.val),
  }))
  out.push({ kind, contract, storage })
}

/** Where a transaction's changes go, and how their values become native ones. */
export interface ChangeSinks {
  data: ContractDataChange[]
  instances: InstanceChange[]
  toNative: Native
}

/**
 * A restored entry (LEDGER_ENTRY_RESTORED, protocol 23) comes back from the archive with the value
 * it held when evicted: it is reported as `restored` so adapters can tell it is no change of state.
 * Evicted keys (`evictedKeys` of the ledger) are never read: an archived entry still holds its value.
 */
export function readChange(
  change: xdr.LedgerEntryChangeWire,
  watched: WatchedContracts,
  out: ChangeSinks,
): void {
  const toNative = out.toNative
  if (change.type === 2) {
    const key = change.removed
    if (key.type !== LEDGER_ENTRY_CONTRACT_DATA) return
    const index = watchedIndex(watched, key.contractData.contract)
    if (index < 0 || !isStateKey(key.contractData.key)) return
    if (!keyOfHolder(watched, index, key.contractData.key)) return
    const contract = watched.strkeys[index]!
    out.data.push({
      kind: 'removed',
      contract,
      durability: key.contractData.durability === DURABILITY_TEMPORARY ? 'temporary' : 'persistent',
      key: toNative(key.contractData.key),
    })
    return
  }
  // ledgerEntryState (3) is the pre-image of the change that follows it.
  const kind = CHANGE_KINDS[change.type]
  if (kind === null || kind === undefined) return
  const entry =
    change.type === 0
      ? change.created
      : change.type === 1
        ? change.updated
        : change.type === 4
          ? change.restored
          : null
  if (entry === null || entry.data.type !== LEDGER_ENTRY_CONTRACT_DATA) return
  const data = entry.data.contractData
  const index = watchedIndex(watched, data.contract)
  if (index < 0) return
  const contract = watched.strkeys[index]!
  if (data.key.type === SCV_LEDGER_KEY_CONTRACT_INSTANCE) {
    // A restored instance holds what it held before: no change of its storage.
    if (kind !== 'restored' && watched.instanceStorage[index])
      readInstance(kind, contract, data.val, out.instances, toNative)
    return
  }
  if (!isStateKey(data.key) || !keyOfHolder(watched, index, data.key)) return
  out.data.push({
    kind,
    contract,
    durability: data.durability === DURABILITY_TEMPORARY ? 'temporary' : 'persistent',
    key: toNative(data.key),
    value: toNative(data.val),
  })
}
