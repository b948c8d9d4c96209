import { StrKey, xdr } from '@stellar/stellar-sdk'
import type { DevnetChain, StoredEvent } from '../world/chain.ts'
import { buildRetention } from './retention.ts'
import {
  invalidParams,
  type Params,
  readObject,
  readString,
  readUint,
  requireBase64Format,
} from './rpc-errors.ts'

/** getEvents as Stellar RPC serves it: filters, topic wildcards, TOID cursors, bounded scans. */

const DEFAULT_LIMIT = 100
const MAX_LIMIT = 10_000
/** Stellar RPC never scans more than this many ledgers for one request. */
const MAX_LEDGER_SCAN = 10_000
const MAX_FILTERS = 5
const MAX_CONTRACT_IDS = 5
const MAX_TOPIC_FILTERS = 5
const MAX_TOPIC_SEGMENTS = 4
const EVENT_TYPES = ['contract', 'system', 'diagnostic']
const TX_MASK = 0xf_ffff
const OP_MASK = 0xfff
const MAX_EVENT_INDEX = 0xffff_ffff

interface EventFilter {
  type: string | null
  contractIds: Set<string>
  /** Each segment: a canonical base64 ScVal, '*' (one topic) or '**' (any remaining topics). */
  topics: string[][]
}

interface Position {
  ledger: number
  tx: number
  op: number
  event: number
}

export function formatEventId(p: Position): string {
  const toid = (BigInt(p.ledger) << 32n) | (BigInt(p.tx) << 12n) | BigInt(p.op)
  return `${toid.toString().padStart(19, '0')}-${p.event.toString().padStart(10, '0')}`
}

function parseEventId(id: string): Position {
  const match = /^(\d{1,19})-(\d{1,10})$/.exec(id)
  if (!match) throw invalidParams(`invalid cursor "${id}"`)
  const toid = BigInt(match[1]!)
  return {
    ledger: Number(toid >> 32n),
    tx: Number((toid >> 12n) & BigInt(TX_MASK)),
    op: Number(toid & BigInt(OP_MASK)),
    event: Number(match[2]!),
  }
}

function isAfter(e: StoredEvent, p: Position): boolean {
  if (e.ledger !== p.ledger) return e.ledger > p.ledger
  if (e.txIndex !== p.tx) return e.txIndex > p.tx
  if (e.opIndex !== p.op) return e.opIndex > p.op
  return e.eventIndex > p.event
}

export function getEvents(chain: DevnetChain, params: Params) {
  requireBase64Format(params)
  const pagination = readObject(params, 'pagination') ?? {}
  const cursor = readString(pagination, 'cursor')
  const limit = readUint(pagination, 'limit') ?? DEFAULT_LIMIT
  if (limit < 1 || limit > MAX_LIMIT) throw invalidParams(`limit must be between 1 and ${MAX_LIMIT}`)
  const startLedger = readUint(params, 'startLedger') ?? 0
  const endLedger = readUint(params, 'endLedger') ?? 0
  const filters = parseFilters(params.filters)
  const oldest = chain.servedFrom()
  const latest = chain.latestLedger()

  let after: Position | null = null
  let start: number
  if (cursor !== undefined && cursor !== '') {
    if (startLedger !== 0 || endLedger !== 0)
      throw invalidParams('ledger ranges and cursor cannot both be set')
    after = parseEventId(cursor)
    start = Math.max(after.ledger, oldest)
  } else {
    if (startLedger === 0) throw invalidParams('startLedger must be positive')
    if (startLedger < oldest || startLedger > latest) {
      throw invalidParams(
        `startLedger must be between the oldest ledger: ${oldest} and the latest ledger: ${latest} for this rpc instance`,
      )
    }
    if (endLedger !== 0 && endLedger <= startLedger) throw invalidParams('startLedger must be < endLedger')
    start = startLedger
  }
  // The end of the scanned window is exclusive.
  let end = Math.min(start + MAX_LEDGER_SCAN, latest + 1)
  if (endLedger !== 0) end = Math.min(end, endLedger)

  const events = []
  let last: StoredEvent | null = null
  scan: for (let seq = start; seq < end; seq++) {
    const ledger = chain.getLedger(seq)!
    for (const event of ledger.events) {
      if (after && !isAfter(event, after)) continue
      if (filters.length > 0 && !filters.some((f) => matchesFilter(f, event))) continue
      events.push(renderEvent(event, ledger.closeTime))
      last = event
      if (events.length >= limit) break scan
    }
  }
  let nextCursor: string
  if (last && events.length >= limit) {
    nextCursor = formatEventId({
      ledger: last.ledger,
      tx: last.txIndex,
      op: last.opIndex,
      event: last.eventIndex,
    })
  } else if (end > start) {
    // A page that does not fill continues after the whole scanned window.
    nextCursor = formatEventId({ ledger: end - 1, tx: TX_MASK, op: OP_MASK, event: MAX_EVENT_INDEX })
  } else {
    nextCursor = cursor ?? ''
  }
  return { events, cursor: nextCursor, ...buildRetention(chain) }
}

function renderEvent(e: StoredEvent, closeTime: number) {
  return {
    type: 'contract',
    ledger: e.ledger,
    ledgerClosedAt: new Date(closeTime * 1000).toISOString().replace('.000Z', 'Z'),
    contractId: e.contractId,
    id: formatEventId({ ledger: e.ledger, tx: e.txIndex, op: e.opIndex, event: e.eventIndex }),
    operationIndex: e.opIndex,
    transactionIndex: e.txIndex,
    txHash: e.txHash,
    inSuccessfulContractCall: true,
    topic: e.topics,
    value: e.value,
  }
}

function matchesFilter(f: EventFilter, e: StoredEvent): boolean {
  if (f.type !== null && f.type !== 'contract') return false
  if (f.contractIds.size > 0 && !f.contractIds.has(e.contractId)) return false
  return f.topics.length === 0 || f.topics.some((t) => matchesTopics(t, e.topics))
}

function matchesTopics(segments: string[], topics: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!
    if (segment === '**') return true
    if (i >= topics.length) return false
    if (segment !== '*' && segment !== topics[i]) return false
  }
  return segments.length === topics.length
}

function parseFilters(raw: unknown): EventFilter[] {
  if (raw === undefined || raw === null) return []
  if (!Array.isArray(raw)) throw invalidParams('filters must be an array')
  if (raw.length > MAX_FILTERS) throw invalidParams(`maximum ${MAX_FILTERS} filters per request`)
  return raw.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw invalidParams(`filter ${i + 1} must be an object`)
    }
    const filter = item as Params
    const type = readString(filter, 'type') ?? null
    if (type !== null && !EVENT_TYPES.includes(type)) {
      throw invalidParams(`filter ${i + 1} invalid: if set, type must be one of ${EVENT_TYPES.join(', ')}`)
    }
    const contractIds = filter.contractIds ?? []
    if (!Array.isArray(contractIds))
      throw invalidParams(`filter ${i + 1} invalid: contractIds must be an array`)
    if (contractIds.length > MAX_CONTRACT_IDS) {
      throw invalidParams(`filter ${i + 1} invalid: maximum ${MAX_CONTRACT_IDS} contract IDs per filter`)
    }
    for (const id of contractIds) {
      if (typeof id !== 'string' || !StrKey.isValidContract(id)) {
        throw invalidParams(`filter ${i + 1} invalid: contract ID must be a valid 'C' string`)
      }
    }
    const topics = filter.topics ?? []
    if (!Array.isArray(topics)) throw invalidParams(`filter ${i + 1} invalid: topics must be an array`)
    if (topics.length > MAX_TOPIC_FILTERS) {
      throw invalidParams(`filter ${i + 1} invalid: maximum ${MAX_TOPIC_FILTERS} topics per filter`)
    }
    return {
      type,
      contractIds: new Set(contractIds as string[]),
      topics: topics.map((t, j) => parseTopicFilter(t, `filter ${i + 1} invalid: topic ${j + 1}`)),
    }
  })
}

function parseTopicFilter(raw: unknown, label: string): string[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalidParams(`${label} must have at least one segment`)
  const limit = raw[raw.length - 1] === '**' ? MAX_TOPIC_SEGMENTS + 1 : MAX_TOPIC_SEGMENTS
  if (raw.length > limit) throw invalidParams(`${label} cannot have more than ${MAX_TOPIC_SEGMENTS} segments`)
  return raw.map((segment, k) => {
    if (segment === '*') return segment
    if (segment === '**') {
      if (k !== raw.length - 1) throw invalidParams(`${label}: '**' must be the last segment`)
      return segment
    }
    if (typeof segment !== 'string') throw invalidParams(`${label} segment ${k + 1} must be a string`)
    try {
      // Re-encoding gives the canonical form that stored topics are compared in.
      const value = xdr.ScVal.schema.decode(Buffer.from(segment, 'base64'))
      return Buffer.from(xdr.ScVal.schema.encode(value)).toString('base64')
    } catch {
      throw invalidParams(`${label} segment ${k + 1} is not a base64 ScVal`)
    }
  })
}
