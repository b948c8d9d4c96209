import { Reader } from '@stellar/js-xdr'
import { StrKey, xdr } from '@stellar/stellar-sdk/base'
import {
  type Invocation,
  networkIdOf,
  readEnvelopeInvocations,
  readInvocations,
  sdkToNative,
} from './decode-envelopes.ts'
import { skipXdr, visitXdr, XdrSpanError } from './xdr-span.ts'

/**
 * LedgerCloseMeta XDR -> the few facts the protocol adapters read, for watched contracts only.
 *
 * The SDK's XDR schema decodes the ledger into its plain wire form (numeric discriminants, bytes as
 * Uint8Array), about twice as fast as building a class instance for every node; only the entries and
 * events of watched contracts become `xdr.ScVal` instances, converted with `scValToNative`
 * (u128/i128 -> bigint, addresses -> StrKey strings, symbol-keyed maps -> plain objects).
 */

/** One ledger reduced to what touched the watched contracts. */
export interface DecodedLedger {
  sequence: number
  /** Ledger hash, lowercase hex. */
  hash: string
  /** The previous ledger's hash, lowercase hex, as this ledger's header states it: the hash chain. */
  previousHash: string
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
  /** Fee charged, in stroops (the transaction result's `feeCharged`). */
  feeCharged: bigint
  /**
   * The account that paid the fee (the transaction's source unless fee-bumped), read from the
   * ledger's fee processing; null when that lists no account entry.
   */
  feeAccount: string | null
  /**
   * Read from the transaction set when the transaction invokes a watched contract (and the watch
   * list knows the network passphrase): its source account and the function called; else null.
   */
  sourceAccount: string | null
  invoked: { contract: string; fn: string; args: unknown[] } | null
  events: DecodedEvent[]
  contractDataChanges: ContractDataChange[]
  /** Watched contracts whose instance entry (and so its instance storage) this transaction rewrote. */
  instanceChanges: InstanceChange[]
}

/** One key/value of a contract's instance storage, as native values (see `scValToNative`). */
export interface InstanceEntry {
  key: unknown
  value: unknown
}

/**
 * A contract's instance entry as it stands after a transaction. Soroban keeps a contract's
 * instance storage (FxDAO's `VaultsInfo`, Reflector's `assets` and `decimals`) inside this one
 * entry, so every write to any instance key rewrites it whole. Decoded only for the watched
 * contracts whose adapters read it (`instanceStorage` of the watch list).
 */
export interface InstanceChange {
  kind: 'created' | 'updated'
  contract: string
  storage: InstanceEntry[]
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
  /** Per contract (same index): whether its instance storage is decoded. */
  readonly instanceStorage: readonly boolean[]
  /**
   * Per contract (same index): null, or the only holders whose entries are read, as C... StrKeys
   * (`holderIds`: their 32-byte ids). Such a contract (an asset whose balances of a few watched
   * contracts an adapter reads) yields only its entries keyed `Vec[Symbol, Address(holder)]`, and
   * none of its events: its other traffic costs no ScVal conversion.
   */
  readonly holders: readonly (readonly string[] | null)[]
  readonly holderIds: readonly (readonly Uint8Array[] | null)[]
  /** The network's passphrase: with it, transaction envelopes are matched to results (source, function, failed ones). */
  readonly passphrase: string | null
  readonly networkId: Uint8Array | null
}

/**
 * @param instanceStorage the watched contracts whose instance storage adapters read.
 * @param holders contracts read only for the entries of these holders (contracts themselves).
 */
export function buildWatchedContracts(
  strkeys: readonly string[],
  instanceStorage: readonly string[] = [],
  holders: Readonly<Record<string, readonly string[]>> = {},
  passphrase: string | null = null,
): WatchedContracts {
  const only = strkeys.map((s) => (Object.hasOwn(holders, s) ? [...holders[s]!] : null))
  return {
    ids: strkeys.map((s) => StrKey.decodeContract(s)),
    strkeys: [...strkeys],
    instanceStorage: strkeys.map((s) => instanceStorage.includes(s)),
    holders: only,
    holderIds: only.map((list) => (list === null ? null : list.map((h) => StrKey.decodeContract(h)))),
    passphrase,
    networkId: passphrase === null ? null : networkIdOf(passphrase),
  }
}

/** Index of the watched contract with these 32 id bytes, or -1. */
function findWatched(watched: WatchedContracts, id: Uint8Array): number {
  const ids = watched.ids
  for (let i = 0; i < ids.length; i++) {
    const candidate = ids[i]!
    // Cheap first bytes before the full compare: almost every foreign contract differs there.
    if (candidate[0] !== id[0] || candidate[1] !== id[1] || candidate[2] !== id[2]) continue
    if (Buffer.compare(candidate, id) === 0) return i
  }
  return -1
}

// Wire discriminants, from the XDR definitions (Stellar-ledger-entries.x, Stellar-contract.x).
const SC_ADDRESS_CONTRACT = 1
const LEDGER_ENTRY_ACCOUNT = 0
const LEDGER_ENTRY_CONTRACT_DATA = 6
const DURABILITY_TEMPORARY = 0
const SCV_LEDGER_KEY_CONTRACT_INSTANCE = 20
const SCV_LEDGER_KEY_NONCE = 21
const SCV_CONTRACT_INSTANCE = 19
const SCV_VEC = 16
const SCV_ADDRESS = 18
const CONTRACT_EVENT_CONTRACT = 1
const TX_SUCCESS = 0
const TX_FEE_BUMP_INNER_SUCCESS = 1
const CHANGE_KINDS = ['created', 'updated', null, null, 'restored'] as const

function watchedIndex(watched: WatchedContracts, address: xdr.ScAddressWire): number {
  return address.type === SC_ADDRESS_CONTRACT ? findWatched(watched, address.contractId) : -1
}

/** StrKeys of the addresses seen lately, by their 32 key bytes (latin1): the same few recur. */
const strkeys = new Map<string, string>()
const STRKEY_CACHE_SIZE = 10_000

function cachedStrKey(bytes: Uint8Array, encode: (key: Buffer) => string, tag: string): string {
  const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const id = tag + key.toString('latin1')
  let found = strkeys.get(id)
  if (found === undefined) {
    found = encode(Buffer.from(key))
    if (strkeys.size >= STRKEY_CACHE_SIZE) strkeys.clear()
    strkeys.set(id, found)
  }
  return found
}

const encodeAccount = (key: Buffer) => StrKey.encodeEd25519PublicKey(key)
const encodeContract = (key: Buffer) => StrKey.encodeContract(key)

/** ASCII bytes as a string (what a strict UTF-8 decode gives for them); null when not all ASCII. */
function asciiString(bytes: Uint8Array): string | null {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 0x7f) return null
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
}

/**
 * `scValToNative` of the SDK, without building its class instances for the values contract state
 * is made of (numbers, symbols, vectors, maps, account and contract addresses), and with the StrKeys
 * of recurring addresses cached; any other value goes through the SDK itself. Same results: the
 * test compares the two on every value of the committed pubnet ledgers and devnet ledgers.
 */
export function toNative(value: xdr.ScValWire): unknown {
  switch (value.type) {
    case 0:
      return value.b
    case 1:
      return null
    case 3:
      return value.u32
    case 4:
      return value.i32
    case 5:
      return value.u64
    case 6:
      return value.i64
    case 9:
      return (BigInt.asUintN(64, value.u128.hi) << 64n) | BigInt.asUintN(64, value.u128.lo)
    case 10:
      return BigInt.asIntN(
        128,
        (BigInt.asUintN(64, value.i128.hi) << 64n) | BigInt.asUintN(64, value.i128.lo),
      )
    case 14:
    case 15: {
      const text = value.type === 15 ? value.sym : value.str
      return asciiString(text.bytes) ?? text.asStringOrBytes()
    }
    case 16:
      return (value.vec ?? []).map(toNative)
    case 17:
      return Object.fromEntries((value.map ?? []).map((entry) => [toNative(entry.key), toNative(entry.val)]))
    case 18: {
      const address = value.address
      if (address.type === 0 && address.accountId.type === 0)
        return cachedStrKey(address.accountId.ed25519, encodeAccount, 'G')
      if (address.type === SC_ADDRESS_CONTRACT) return cachedStrKey(address.contractId, encodeContract, 'C')
      break
    }
  }
  return sdkToNative(value)
}

/** How ScVals become native values. */
type Native = (value: xdr.ScValWire) => unknown

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

interface ChangeSinks {
  data: ContractDataChange[]
  instances: InstanceChange[]
  toNative: Native
}

/**
 * A restored entry (LEDGER_ENTRY_RESTORED, protocol 23) comes back from the archive with the value
 * it held when evicted: it is reported as `restored` so adapters can tell it is no change of state.
 * Evicted keys (`evictedKeys` of the ledger) are never read: an archived entry still holds its value.
 */
function readChange(change: xdr.LedgerEntryChangeWire, watched: WatchedContracts, out: ChangeSinks): void {
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

function readTransaction(
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

/**
 * Whether any watched contract's 32-byte id occurs in the raw ledger. Every contract-data entry and
 * event of a contract names its id, so a ledger without one cannot touch a watched contract. On
 * mainnet most ledgers are such (payments, other contracts): their ~100-900 KB need no decoding.
 */
function mentionsWatched(bytes: Uint8Array, watched: WatchedContracts): boolean {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let i = 0; i < watched.ids.length; i++) {
    // A contract read only for some holders' entries matters only where a holder is named too.
    const wanted = watched.holderIds[i] ?? [watched.ids[i]!]
    for (const id of wanted) if (haystack.indexOf(id) >= 0) return true
  }
  return false
}

/**
 * The watched contract a transaction may invoke, by its 32-byte id: null for an unwatched contract
 * and for one read only for some holders' entries (an asset: its transfers are not the protocol's).
 */
function invokedWatched(watched: WatchedContracts, id: Uint8Array): string | null {
  const index = findWatched(watched, id)
  return index < 0 || watched.holderIds[index] ? null : watched.strkeys[index]!
}

/**
 * Where the watched ids occur in a raw ledger, as ascending byte offsets: `all` for every id a ledger
 * or transaction must name to matter (see `mentionsWatched`), `invocable` for the contracts a
 * transaction could invoke (see `invokedWatched`). A transaction or envelope names one when an
 * occurrence lies wholly inside its bytes.
 *
 * One pass over the ledger's 4-byte words: XDR aligns every value to 4 bytes from the start of the
 * LedgerCloseMeta, so a contract id in an address, a contract-data key or an event starts at a
 * multiple of 4. (An id that only occurs unaligned, inside opaque bytes, names nothing the decoder
 * reads: a transaction found only by such an occurrence would be decoded and yield nothing.) A
 * table on each id's first two bytes rejects almost every word with one lookup.
 */
interface Mentions {
  all: number[]
  invocable: number[]
}

interface MentionTable {
  /** Non-zero at the first two bytes (big-endian) of some id. */
  firstBytes: Uint8Array
  ids: Uint8Array[]
  /** Per id: whether it is a contract that can be invoked (not only a holder of entries). */
  inInvocable: boolean[]
}

const mentionTables = new WeakMap<WatchedContracts, MentionTable>()

function mentionTable(watched: WatchedContracts): MentionTable {
  const known = mentionTables.get(watched)
  if (known) return known
  const byHex = new Map<string, { id: Uint8Array; invocable: boolean }>()
  const add = (id: Uint8Array, invocable: boolean) => {
    const hex = Buffer.from(id).toString('hex')
    const entry = byHex.get(hex) ?? { id, invocable: false }
    entry.invocable ||= invocable
    byHex.set(hex, entry)
  }
  for (let i = 0; i < watched.ids.length; i++) {
    const holders = watched.holderIds[i]
    // A contract read only for some holders' entries matters only where a holder is named.
    if (holders) for (const id of holders) add(id, false)
    else add(watched.ids[i]!, true)
  }
  const entries = [...byHex.values()]
  const table: MentionTable = {
    firstBytes: new Uint8Array(65536),
    ids: entries.map((e) => e.id),
    inInvocable: entries.map((e) => e.invocable),
  }
  for (const { id } of entries) table.firstBytes[(id[0]! << 8) | id[1]!] = 1
  mentionTables.set(watched, table)
  return table
}

function findMentions(bytes: Uint8Array, watched: WatchedContracts): Mentions {
  const table = mentionTable(watched)
  const { firstBytes, ids } = table
  const all: number[] = []
  const invocable: number[] = []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const last = bytes.byteLength - 32
  for (let at = 0; at <= last; at += 4) {
    if (firstBytes[view.getUint16(at)] === 0) continue
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!
      let same = true
      for (let j = 0; j < 32; j++) {
        if (bytes[at + j] !== id[j]) {
          same = false
          break
        }
      }
      if (!same) continue
      all.push(at)
      if (table.inInvocable[k]) invocable.push(at)
      break
    }
  }
  return { all, invocable }
}

/** Whether an occurrence (a 32-byte id at one of the sorted `offsets`) lies wholly in [start, end). */
function mentionedIn(offsets: readonly number[], start: number, end: number): boolean {
  let low = 0
  let high = offsets.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (offsets[mid]! < start) low = mid + 1
    else high = mid
  }
  return low < offsets.length && offsets[low]! + 32 <= end
}

/** The header facts alone, read with the SDK's own schemas from the start of the LedgerCloseMeta. */
function decodeHeaderOnly(bytes: Uint8Array): DecodedLedger {
  const reader = new Reader(bytes)
  const version = reader.readUint32('LedgerCloseMeta.v')
  if (version !== 1 && version !== 2)
    throw new Error('LedgerCloseMeta v0 predates Soroban and is not supported')
  xdr.LedgerCloseMetaExt.schema._read(reader, 'LedgerCloseMeta.ext')
  return headerFacts(xdr.LedgerHeaderHistoryEntry.schema._read(reader, 'LedgerCloseMeta.ledgerHeader'), [])
}

function headerFacts(
  headerEntry: xdr.LedgerHeaderHistoryEntryWire,
  transactions: DecodedTransaction[],
): DecodedLedger {
  return {
    sequence: headerEntry.header.ledgerSeq,
    hash: Buffer.from(headerEntry.hash).toString('hex'),
    previousHash: Buffer.from(headerEntry.header.previousLedgerHash).toString('hex'),
    closeTime: Number(headerEntry.header.scpValue.closeTime),
    transactions,
  }
}

/**
 * Decodes one LedgerCloseMeta (v1 with TransactionMeta v3, or v2 with v4) from raw XDR bytes.
 *
 * A ledger naming no watched contract is read from its header alone. Otherwise only the header, the
 * envelopes that name a contract a transaction could invoke and the transactions whose own bytes
 * name a watched one are decoded: the other envelopes and each other transaction's result and meta
 * are stepped over by `skipXdr`, which finds where a value ends without building it. On mainnet a ledger that touches a watched contract (a Blend pool, USDC)
 * still carries hundreds of transactions that do not.
 */
export function decodeLedgerCloseMeta(bytes: Uint8Array, watched: WatchedContracts): DecodedLedger {
  const mentions = findMentions(bytes, watched)
  if (mentions.all.length === 0) return decodeHeaderOnly(bytes)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = view.getUint32(0)
  if (version !== 1 && version !== 2)
    throw new Error('LedgerCloseMeta v0 predates Soroban and is not supported')
  const body = (version === 2 ? xdr.LedgerCloseMetaV2 : xdr.LedgerCloseMetaV1).schema as unknown as {
    entries: ReadonlyArray<readonly [string, { kind: string }]>
  }
  const resultMeta = version === 2 ? xdr.TransactionResultMetaV1.schema : xdr.TransactionResultMeta.schema
  // Where the transaction hash sits in a TransactionResultMeta(V1): V1 opens with a 4-byte `ext`.
  const hashAt = version === 2 ? 4 : 0
  let offset = 4
  let header: xdr.LedgerHeaderHistoryEntryWire | null = null
  let invocations: ReadonlyMap<string, Invocation> = new Map()
  const transactions: DecodedTransaction[] = []
  for (const [field, schema] of body.entries) {
    if (field === 'ledgerHeader') {
      const reader = new Reader(bytes.subarray(offset))
      header = xdr.LedgerHeaderHistoryEntry.schema._read(reader, 'LedgerCloseMeta.ledgerHeader')
      offset += reader.offset
      continue
    }
    if (field === 'txSet') {
      // The envelopes are read only when they name a contract a transaction could invoke: they give
      // each invocation's source, function and arguments, and name a failed one (its meta is empty).
      // Only the envelopes whose own bytes name such a contract are decoded; the others are stepped over.
      if (watched.networkId === null || !mentions.invocable.length) {
        offset = skipXdr(schema, view, offset)
        continue
      }
      const envelopes: xdr.TransactionEnvelopeWire[] = []
      offset = visitXdr(schema, xdr.TransactionEnvelope.schema, view, offset, (start, end) => {
        if (mentionedIn(mentions.invocable, start, end)) {
          envelopes.push(xdr.TransactionEnvelope.schema.decode(bytes.subarray(start, end)))
        }
      })
      if (envelopes.length > 0) {
        invocations = readEnvelopeInvocations(
          envelopes,
          watched.networkId,
          (id) => invokedWatched(watched, id),
          toNative,
        )
      }
      continue
    }
    if (field !== 'txProcessing') {
      offset = skipXdr(schema, view, offset)
      continue
    }
    const count = view.getUint32(offset)
    offset += 4
    for (let i = 0; i < count; i++) {
      const start = offset
      offset = skipXdr(resultMeta, view, offset)
      if (offset > bytes.byteLength) throw new XdrSpanError('LedgerCloseMeta.txProcessing runs past its end')
      const span = bytes.subarray(start, offset)
      const invoked =
        invocations.size > 0 &&
        invocations.has(Buffer.from(span.subarray(hashAt, hashAt + 32)).toString('hex'))
      if (!invoked && !mentionedIn(mentions.all, start, offset)) continue
      const tx = resultMeta.decode(span)
      const decoded = readTransaction(
        tx.result,
        tx.feeProcessing,
        tx.txApplyProcessing,
        watched,
        invocations,
        toNative,
      )
      if (decoded !== null) transactions.push(decoded)
    }
    // Nothing after the transactions is read.
    break
  }
  if (header === null) throw new Error('LedgerCloseMeta without a ledger header')
  return headerFacts(header, transactions)
}

/**
 * The same facts from a decode of the whole ledger (a ledger naming no watched contract is still
 * read from its header alone), as the indexer decoded before it stepped over transactions: the
 * reference the skipping decoder is tested against, and the baseline of bench:ingest.
 */
export function decodeLedgerCloseMetaFully(bytes: Uint8Array, watched: WatchedContracts): DecodedLedger {
  if (!mentionsWatched(bytes, watched)) return decodeHeaderOnly(bytes)
  const meta = xdr.LedgerCloseMeta.schema.decode(bytes)
  if (meta.v !== 1 && meta.v !== 2)
    throw new Error('LedgerCloseMeta v0 predates Soroban and is not supported')
  const body = meta.v === 2 ? meta.v2 : meta.v1
  const transactions: DecodedTransaction[] = []
  const invocations =
    watched.networkId === null
      ? new Map<string, Invocation>()
      : readInvocations(body.txSet, watched.networkId, (id) => invokedWatched(watched, id))
  for (const tx of body.txProcessing) {
    const decoded = readTransaction(
      tx.result,
      tx.feeProcessing,
      tx.txApplyProcessing,
      watched,
      invocations,
      sdkToNative,
    )
    if (decoded !== null) transactions.push(decoded)
  }
  return headerFacts(body.ledgerHeader, transactions)
}

/** Base64 form, as Stellar RPC's `getLedgers` returns `metadataXdr`. */
export function decodeLedgerCloseMetaBase64(base64: string, watched: WatchedContracts): DecodedLedger {
  return decodeLedgerCloseMeta(Buffer.from(base64, 'base64'), watched)
}
