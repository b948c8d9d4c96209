import { xdr } from '@stellar/stellar-sdk'
import type { DevnetChain, StoredLedger } from '../world/chain.ts'
import { buildRetention } from './retention.ts'
import {
  invalidParams,
  METHOD_NOT_FOUND,
  type Params,
  RpcError,
  readObject,
  readString,
  readUint,
  requireBase64Format,
} from './rpc-errors.ts'
import { getEvents } from './rpc-events.ts'

/** Stellar RPC methods over a DevnetChain: same names, parameters, result fields and limits. */

const LEDGERS_DEFAULT_LIMIT = 50
const LEDGERS_MAX_LIMIT = 200
const LEDGER_ENTRIES_MAX_KEYS = 200
/** Entries live long on the devnet: nothing is ever archived. */
const ENTRY_TTL_LEDGERS = 2_073_600

type Handler = (chain: DevnetChain, params: Params) => unknown

export const RPC_METHODS: Record<string, Handler> = {
  getHealth: (chain) => ({
    status: 'healthy',
    latestLedger: chain.latestLedger(),
    oldestLedger: chain.servedFrom(),
    ledgerRetentionWindow: chain.ledgerCount(),
  }),
  getNetwork: (chain) => ({ passphrase: chain.passphrase, protocolVersion: latest(chain).protocolVersion }),
  getLatestLedger: (chain) => {
    const ledger = latest(chain)
    const entry = xdr.LedgerHeaderHistoryEntry.schema.decode(ledger.header)
    return {
      id: ledger.hash.toString('hex'),
      sequence: ledger.sequence,
      protocolVersion: ledger.protocolVersion,
      closeTime: String(ledger.closeTime),
      headerXdr: Buffer.from(xdr.LedgerHeader.schema.encode(entry.header)).toString('base64'),
      metadataXdr: ledger.meta.toString('base64'),
    }
  },
  getLedgers,
  getEvents,
  getLedgerEntries,
  getTransaction,
}

export function callRpcMethod(chain: DevnetChain, method: string, params: unknown): unknown {
  const handler = Object.hasOwn(RPC_METHODS, method) ? RPC_METHODS[method] : undefined
  if (!handler) throw new RpcError(METHOD_NOT_FOUND, 'method not found')
  if (params !== undefined && params !== null && (typeof params !== 'object' || Array.isArray(params))) {
    throw invalidParams('params must be an object')
  }
  return handler(chain, (params ?? {}) as Params)
}

function latest(chain: DevnetChain): StoredLedger {
  return chain.getLedger(chain.latestLedger())!
}

function getLedgers(chain: DevnetChain, params: Params) {
  requireBase64Format(params)
  const pagination = readObject(params, 'pagination') ?? {}
  const startLedger = readUint(params, 'startLedger')
  const cursor = readString(pagination, 'cursor')
  const limit = readUint(pagination, 'limit') ?? LEDGERS_DEFAULT_LIMIT
  if (limit < 1 || limit > LEDGERS_MAX_LIMIT) {
    throw invalidParams(`limit must be between 1 and ${LEDGERS_MAX_LIMIT}`)
  }
  const oldest = chain.servedFrom()
  const newest = chain.latestLedger()
  let start: number
  if (cursor !== undefined && cursor !== '') {
    if (startLedger !== undefined && startLedger !== 0) {
      throw invalidParams('startLedger and cursor cannot both be set')
    }
    if (!/^\d+$/.test(cursor)) throw invalidParams(`invalid cursor "${cursor}"`)
    start = Math.max(Number(cursor) + 1, oldest)
  } else {
    if (startLedger === undefined || startLedger === 0)
      throw invalidParams('startLedger or cursor is required')
    if (startLedger < oldest || startLedger > newest) {
      throw invalidParams(
        `start ledger must be between the oldest ledger: ${oldest} and the latest ledger: ${newest} for this rpc instance`,
      )
    }
    start = startLedger
  }
  const end = Math.min(start + limit - 1, newest)
  const ledgers = []
  for (let seq = start; seq <= end; seq++) {
    const ledger = chain.getLedger(seq)!
    ledgers.push({
      hash: ledger.hash.toString('hex'),
      sequence: ledger.sequence,
      ledgerCloseTime: String(ledger.closeTime),
      headerXdr: ledger.header.toString('base64'),
      metadataXdr: ledger.meta.toString('base64'),
    })
  }
  // An empty page keeps the caller's cursor, so polling past the tip simply waits for new ledgers.
  const nextCursor = ledgers.length > 0 ? String(end) : (cursor ?? String(start - 1))
  return { ledgers, ...buildRetention(chain), cursor: nextCursor }
}

function getLedgerEntries(chain: DevnetChain, params: Params) {
  requireBase64Format(params)
  const keys = params.keys
  if (!Array.isArray(keys) || keys.length === 0) throw invalidParams('keys must be a non-empty array')
  if (keys.length > LEDGER_ENTRIES_MAX_KEYS) {
    throw invalidParams(`key count (${keys.length}) exceeds maximum supported (${LEDGER_ENTRIES_MAX_KEYS})`)
  }
  const entries = []
  for (const [i, key] of keys.entries()) {
    if (typeof key !== 'string') throw invalidParams(`keys[${i}] must be a base64 string`)
    let decoded: xdr.LedgerKeyWire
    try {
      decoded = xdr.LedgerKey.schema.decode(Buffer.from(key, 'base64'))
    } catch {
      throw invalidParams(`cannot unmarshal key value ${key} at index ${i}`)
    }
    const entry = chain.getEntry(decoded)
    if (!entry) continue
    entries.push({
      key,
      xdr: entry.xdr,
      lastModifiedLedgerSeq: entry.lastModifiedLedgerSeq,
      liveUntilLedgerSeq: entry.lastModifiedLedgerSeq + ENTRY_TTL_LEDGERS,
    })
  }
  return { entries, latestLedger: chain.latestLedger() }
}

function getTransaction(chain: DevnetChain, params: Params) {
  requireBase64Format(params)
  const hash = readString(params, 'hash')
  if (hash === undefined || !/^[0-9a-fA-F]{64}$/.test(hash)) {
    throw invalidParams('hash must be a 64-character hex string')
  }
  const retention = buildRetention(chain)
  const found = chain.findTransaction(hash)
  if (!found) return { status: 'NOT_FOUND', txHash: hash, ...retention }
  const { ledger, index } = found
  const lcm = xdr.LedgerCloseMeta.schema.decode(ledger.meta)
  if (lcm.v === 0) throw new RpcError(-32603, 'unexpected ledger version')
  const body = lcm.v === 1 ? lcm.v1 : lcm.v2
  const processing = body.txProcessing[index]!
  const txSet = body.txSet.v1TxSet
  const envelopes = txSet.phases.flatMap((p) =>
    p.v === 0 ? p.v0Components.flatMap((c) => c.txsMaybeDiscountedFee.txs) : [],
  )
  const meta = processing.txApplyProcessing
  const operations: xdr.ContractEventWire[][] =
    meta.v === 4
      ? meta.v4.operations.map((op) => op.events)
      : meta.v === 3
        ? [meta.v3.sorobanMeta?.events ?? []]
        : []
  const successful = processing.result.result.result.code === 0
  return {
    status: successful ? 'SUCCESS' : 'FAILED',
    txHash: hash.toLowerCase(),
    ...retention,
    applicationOrder: index + 1,
    feeBump: false,
    envelopeXdr: toBase64(xdr.TransactionEnvelope.schema.encode(envelopes[index]!)),
    resultXdr: toBase64(xdr.TransactionResult.schema.encode(processing.result.result)),
    resultMetaXdr: toBase64(xdr.TransactionMeta.schema.encode(meta)),
    ledger: ledger.sequence,
    createdAt: ledger.closeTime,
    events: {
      transactionEventsXdr: [],
      contractEventsXdr: operations.map((events) =>
        events.map((e) => toBase64(xdr.ContractEvent.schema.encode(e))),
      ),
    },
  }
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
}
