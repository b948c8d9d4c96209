import { StrKey, type xdr } from '@stellar/stellar-sdk/base'
import { type ChangeSinks, readChange } from './contract-data.ts'
import type {
  ContractDataChange,
  DecodedEvent,
  DecodedTransaction,
  InstanceChange,
} from './decoded-ledger.ts'
import type { Invocation } from './envelopes.ts'
import type { Native } from './to-native.ts'
import { findWatched, type WatchedContracts } from './watched-contracts.ts'
import {
  CONTRACT_EVENT_CONTRACT,
  LEDGER_ENTRY_ACCOUNT,
  TX_FEE_BUMP_INNER_SUCCESS,
  TX_SUCCESS,
} from './wire.ts'

/** Contract events of watched contracts (not of holder-filtered ones: their traffic is not read). */
function readEvent(
  event: xdr.ContractEventWire,
  watched: WatchedContracts,
  out: DecodedEvent[],
  toNative: Native,
): void {
  if (event.contractId === null || event.type !== CONTRACT_EVENT_CONTRACT) return
  const index = findWatched(watched, event.contractId)
  if (index < 0 || watched.holderIds[index]) return
  const body = event.body.v0
  out.push({
    contract: watched.strkeys[index]!,
    topics: body.topics.map(toNative),
    data: toNative(body.data),
  })
}

/** The account whose balance paid the fee: the first account entry of the fee processing. */
function readFeeAccount(feeProcessing: readonly xdr.LedgerEntryChangeWire[]): string | null {
  for (const change of feeProcessing) {
    const entry =
      change.type === 0
        ? change.created
        : change.type === 1
          ? change.updated
          : change.type === 3
            ? change.state
            : null
    if (entry !== null && entry.data.type === LEDGER_ENTRY_ACCOUNT) {
      return StrKey.encodeEd25519PublicKey(Buffer.from(entry.data.account.accountId.ed25519))
    }
  }
  return null
}

/**
 * One transaction's facts for the watched contracts: its events and contract-data changes (meta v3:
 * events in `sorobanMeta`; v4: per operation), its fee, and what its envelope invoked. Null when it
 * touched no watched contract; a failed one is kept with no events and no changes.
 */
export function readTransaction(
  pair: xdr.TransactionResultPairWire,
  feeProcessing: readonly xdr.LedgerEntryChangeWire[],
  meta: xdr.TransactionMetaWire,
  watched: WatchedContracts,
  invocations: ReadonlyMap<string, Invocation>,
  toNative: Native,
): DecodedTransaction | null {
  const hash = Buffer.from(pair.transactionHash).toString('hex')
  const invocation = invocations.get(hash)
  const events: DecodedEvent[] = []
  const changes: ContractDataChange[] = []
  const instances: InstanceChange[] = []
  const sinks: ChangeSinks = { data: changes, instances, toNative }
  if (meta.v === 4) {
    for (const op of meta.v4.operations) {
      for (const change of op.changes) readChange(change, watched, sinks)
      for (const event of op.events) readEvent(event, watched, events, toNative)
    }
    for (const txEvent of meta.v4.events) readEvent(txEvent.event, watched, events, toNative)
  } else if (meta.v === 3) {
    for (const op of meta.v3.operations) {
      for (const change of op.changes) readChange(change, watched, sinks)
    }
    for (const event of meta.v3.sorobanMeta?.events ?? []) readEvent(event, watched, events, toNative)
  } else if (!invocation) {
    // Metas before v3 predate Soroban: no contract data, no contract events.
    return null
  }
  // A failed invocation of a watched contract has nothing in its meta: its envelope names it.
  if (changes.length === 0 && events.length === 0 && instances.length === 0 && !invocation) return null
  const code = pair.result.result.code
  const fee = {
    feeCharged: pair.result.feeCharged,
    feeAccount: readFeeAccount(feeProcessing),
    sourceAccount: invocation?.source ?? null,
    invoked: invocation ? { contract: invocation.contract, fn: invocation.fn, args: invocation.args } : null,
  }
  if (code !== TX_SUCCESS && code !== TX_FEE_BUMP_INNER_SUCCESS) {
    return { hash, successful: false, ...fee, events: [], contractDataChanges: [], instanceChanges: [] }
  }
  return { hash, successful: true, ...fee, events, contractDataChanges: changes, instanceChanges: instances }
}
