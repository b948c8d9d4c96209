import { Reader } from '@stellar/js-xdr'
import { xdr } from '@stellar/stellar-sdk/base'
import type { DecodedLedger, DecodedTransaction } from './decode/decoded-ledger.ts'
import { type Invocation, readEnvelopeInvocations, readInvocations, sdkToNative } from './decode/envelopes.ts'
import { findMentions, mentionedIn, mentionsWatched } from './decode/mentions.ts'
import { toNative } from './decode/to-native.ts'
import { readTransaction } from './decode/transaction.ts'
import { invokedWatched, type WatchedContracts } from './decode/watched-contracts.ts'
import { skipXdr, visitXdr, XdrSpanError } from './xdr-span.ts'

export type {
  ContractDataChange,
  DecodedEvent,
  DecodedLedger,
  DecodedTransaction,
  InstanceChange,
  InstanceEntry,
} from './decode/decoded-ledger.ts'
export { toNative } from './decode/to-native.ts'
export { buildWatchedContracts, type WatchedContracts } from './decode/watched-contracts.ts'

/**
 * LedgerCloseMeta XDR -> the few facts the protocol adapters read, for watched contracts only.
 *
 * The SDK's XDR schema decodes the ledger into its plain wire form (numeric discriminants, bytes as
 * Uint8Array), about twice as fast as building a class instance for every node; only the entries and
 * events of watched contracts become `xdr.ScVal` instances, converted with `scValToNative`
 * (u128/i128 -> bigint, addresses -> StrKey strings, symbol-keyed maps -> plain objects).
 */

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
