import type { xdr } from '@stellar/stellar-sdk'
import { buildContractAddress, buildSortedMap, type ScVal } from './scval.ts'

/**
 * Contract storage and events as the host writes them, shared by every simulated contract: a
 * contract-data entry and key, the contract-instance entry, a contract event. Each contract's own
 * keys and values are in its folder's layout.ts (sources and choices: docs/devnet.md).
 */

export const TEMPORARY = 0
export const PERSISTENT = 1
const CONTRACT_EVENT = 1
const SCV_CONTRACT_INSTANCE = 19
const SCV_LEDGER_KEY_CONTRACT_INSTANCE = 20
const CONTRACT_EXECUTABLE_WASM = 0

// ---------------------------------------------------------------------------------------------
// Ledger entries

export function buildContractDataEntry(
  contract: Uint8Array,
  key: ScVal,
  val: ScVal,
  lastModifiedLedgerSeq: number,
  durability: number = PERSISTENT,
): xdr.LedgerEntryWire {
  return {
    lastModifiedLedgerSeq,
    data: {
      type: 6,
      contractData: { ext: { v: 0 }, contract: buildContractAddress(contract), key, durability, val },
    },
    ext: { v: 0 },
  }
}

export function buildContractDataKey(
  contract: Uint8Array,
  key: ScVal,
  durability: number = PERSISTENT,
): xdr.LedgerKeyWire {
  return { type: 6, contractData: { contract: buildContractAddress(contract), key, durability } }
}

export function buildInstanceKey(): ScVal {
  return { type: SCV_LEDGER_KEY_CONTRACT_INSTANCE } as ScVal
}

/**
 * A contract's instance entry: key `LedgerKeyContractInstance`, persistent, value
 * `ScContractInstance{executable: wasm hash, storage}` with the storage map sorted by key.
 */
export function buildInstanceEntry(
  contract: Uint8Array,
  wasmHash: Uint8Array,
  storage: [ScVal, ScVal][],
  lastModifiedLedgerSeq: number,
): xdr.LedgerEntryWire {
  const val = {
    type: SCV_CONTRACT_INSTANCE,
    instance: {
      executable: { type: CONTRACT_EXECUTABLE_WASM, wasmHash },
      storage: buildSortedMap(storage),
    },
  } as ScVal
  return buildContractDataEntry(contract, buildInstanceKey(), val, lastModifiedLedgerSeq)
}

export function buildContractEvent(
  contract: Uint8Array,
  topics: ScVal[],
  data: ScVal,
): xdr.ContractEventWire {
  return { ext: { v: 0 }, contractId: contract, type: CONTRACT_EVENT, body: { v: 0, v0: { topics, data } } }
}
