import { StrKey, scValToNative, xdr } from '@stellar/stellar-sdk'

/**
 * LedgerCloseMeta XDR -> the few facts the protocol adapters read, for watched contracts only.
 * Values are converted with `scValToNative`: u128/i128 become bigint, addresses StrKey strings,
 * symbol-keyed maps plain objects.
 */

/** One ledger reduced to what touched the watched contracts. */
export interface DecodedLedger {
  sequence: number
  /** Ledger hash, lowercase hex. */
  hash: string
  /** Close time, epoch seconds. */
  closeTime: number
  /** Transactions, in apply order, that emitted an event or changed contract data of a watched contract. */
  transactions: DecodedTransaction[]
}

export interface DecodedTransaction {
  /** Transaction hash, lowercase hex. */
  hash: string
  /** A failed transaction is listed with no events and no changes: nothing it did took effect. */
  successful: boolean
  events: DecodedEvent[]
  contractDataChanges: ContractDataChange[]
}

export interface DecodedEvent {
  /** Emitting contract, C... StrKey. */
  contract: string
  topics: unknown[]
  data: unknown
}

/** A contract-data entry as it stands after the change, or its removal. */
export type ContractDataChange =
  | {
      kind: 'created' | 'updated' | 'restored'
      contract: string
      durability: 'persistent' | 'temporary'
      key: unknown
      value: unknown
    }
  | { kind: 'removed'; contract: string; durability: 'persistent' | 'temporary'; key: unknown }

/** Which contracts a decoder keeps; everything else is dropped before any ScVal conversion. */
export interface WatchedContracts {
  readonly ids: readonly Uint8Array[]
  readonly strkeys: readonly string[]
}

export function buildWatchedContracts(strkeys: readonly string[]): WatchedContracts {
  return { ids: strkeys.map((s) => StrKey.decodeContract(s)), strkeys: [...strkeys] }
}

/** Index of the watched contract with these 32 id bytes, or -1. */
function findWatched(watched: WatchedContracts, id: Uint8Array): number {
  const ids = watched.ids
  for (let i = 0; i < ids.length; i++) {
    const candidate = ids[i]!
    // Compare the first word before the rest: almost every foreign contract differs there.
    if (candidate[0] !== id[0] || candidate[1] !== id[1] || candidate[2] !== id[2]) continue
    if (Buffer.compare(candidate, id) === 0) return i
  }
  return -1
}

function watchedAddress(watched: WatchedContracts, address: xdr.ScAddress): string | null {
  if (address.type !== 'scAddressTypeContract') return null
  const index = findWatched(watched, address.contractId.value)
  return index < 0 ? null : watched.strkeys[index]!
}

function durabilityName(durability: xdr.ContractDataDurability): 'persistent' | 'temporary' {
  return durability === xdr.ContractDataDurability.temporary ? 'temporary' : 'persistent'
}

/** Keys that name no data of the contract's own (its instance, auth nonces) are not state. */
function isStateKey(key: xdr.ScVal): boolean {
  return key.type !== 'scvLedgerKeyContractInstance' && key.type !== 'scvLedgerKeyNonce'
}

function readChange(
  change: xdr.LedgerEntryChange,
  watched: WatchedContracts,
  out: ContractDataChange[],
): boolean {
  if (change.type === 'ledgerEntryRemoved') {
    const key = change.removed
    if (key.type !== 'contractData') return false
    const contract = watchedAddress(watched, key.contractData.contract)
    if (contract === null || !isStateKey(key.contractData.key)) return false
    out.push({
      kind: 'removed',
      contract,
      durability: durabilityName(key.contractData.durability),
      key: scValToNative(key.contractData.key),
    })
    return true
  }
  let kind: 'created' | 'updated' | 'restored'
  let entry: xdr.LedgerEntry
  if (change.type === 'ledgerEntryCreated') {
    kind = 'created'
    entry = change.created
  } else if (change.type === 'ledgerEntryUpdated') {
    kind = 'updated'
    entry = change.updated
  } else if (change.type === 'ledgerEntryRestored') {
    kind = 'restored'
    entry = change.restored
  } else {
    // ledgerEntryState is the pre-image of the change that follows it.
    return false
  }
  const data = entry.data
  if (data.type !== 'contractData') return false
  const contract = watchedAddress(watched, data.contractData.contract)
  if (contract === null || !isStateKey(data.contractData.key)) return false
  out.push({
    kind,
    contract,
    durability: durabilityName(data.contractData.durability),
    key: scValToNative(data.contractData.key),
    value: scValToNative(data.contractData.val),
  })
  return true
}

function readEvent(event: xdr.ContractEvent, watched: WatchedContracts, out: DecodedEvent[]): boolean {
  if (event.contractId === null || event.type !== xdr.ContractEventType.contract) return false
  const index = findWatched(watched, event.contractId.value)
  if (index < 0) return false
  const body = event.body.v0
  out.push({
    contract: watched.strkeys[index]!,
    topics: body.topics.map((t) => scValToNative(t)),
    data: scValToNative(body.data),
  })
  return true
}

function isSuccessful(result: xdr.TransactionResult): boolean {
  const type = result.result.type
  return type === 'txSuccess' || type === 'txFeeBumpInnerSuccess'
}

function readTransaction(
  pair: xdr.TransactionResultPair,
  meta: xdr.TransactionMeta,
  watched: WatchedContracts,
): DecodedTransaction | null {
  const events: DecodedEvent[] = []
  const changes: ContractDataChange[] = []
  if (meta.type === 'v4') {
    for (const op of meta.v4.operations) {
      for (const change of op.changes) readChange(change, watched, changes)
      for (const event of op.events) readEvent(event, watched, events)
    }
    for (const txEvent of meta.v4.events) readEvent(txEvent.event, watched, events)
  } else if (meta.type === 'v3') {
    for (const op of meta.v3.operations) {
      for (const change of op.changes) readChange(change, watched, changes)
    }
    for (const event of meta.v3.sorobanMeta?.events ?? []) readEvent(event, watched, events)
  } else {
    // Metas before v3 predate Soroban: no contract data, no contract events.
    return null
  }
  if (changes.length === 0 && events.length === 0) return null
  const hash = Buffer.from(pair.transactionHash.value).toString('hex')
  if (!isSuccessful(pair.result)) return { hash, successful: false, events: [], contractDataChanges: [] }
  return { hash, successful: true, events, contractDataChanges: changes }
}

/** Decodes one LedgerCloseMeta (v1 with TransactionMeta v3, or v2 with v4) from raw XDR bytes. */
export function decodeLedgerCloseMeta(bytes: Uint8Array, watched: WatchedContracts): DecodedLedger {
  const meta = xdr.LedgerCloseMeta.fromXdr(bytes)
  let headerEntry: xdr.LedgerHeaderHistoryEntry
  const transactions: DecodedTransaction[] = []
  if (meta.type === 'v2') {
    headerEntry = meta.v2.ledgerHeader
    for (const tx of meta.v2.txProcessing) {
      const decoded = readTransaction(tx.result, tx.txApplyProcessing, watched)
      if (decoded !== null) transactions.push(decoded)
    }
  } else if (meta.type === 'v1') {
    headerEntry = meta.v1.ledgerHeader
    for (const tx of meta.v1.txProcessing) {
      const decoded = readTransaction(tx.result, tx.txApplyProcessing, watched)
      if (decoded !== null) transactions.push(decoded)
    }
  } else {
    throw new Error('LedgerCloseMeta v0 predates Soroban and is not supported')
  }
  return {
    sequence: headerEntry.header.ledgerSeq,
    hash: Buffer.from(headerEntry.hash.value).toString('hex'),
    closeTime: Number(headerEntry.header.scpValue.closeTime),
    transactions,
  }
}

/** Base64 form, as Stellar RPC's `getLedgers` returns `metadataXdr`. */
export function decodeLedgerCloseMetaBase64(base64: string, watched: WatchedContracts): DecodedLedger {
  return decodeLedgerCloseMeta(Buffer.from(base64, 'base64'), watched)
}
