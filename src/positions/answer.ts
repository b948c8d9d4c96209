import type { ContractInfo, NetworkConfig } from '../chain/network.ts'
import { historyComplete } from '../protocols/kit/coverage.ts'
import type {
  Enrichment,
  PositionsDeps,
  ProtocolModule,
  StateSurface,
} from '../protocols/kit/protocol-module.ts'
import type { IndexerHead, SnapshotRow } from '../store/positions-read.ts'

/**
 * The point-in-time rules every protocol shares (DESIGN §5), written once: which snapshot serves a
 * pin, what `meta` says about it, and what is partial. Modules only value what is found.
 */

export interface PositionsMeta {
  requested_ledger: number | bigint | null
  as_of_ledger: number | null
  /**
   * The ledger whose prices valued the answer's USD (the snapshot's own on the snapshot surface,
   * the pin on `/at`); null when nothing was valued. One per answer: every row shares it.
   */
  valuation_ledger: number | null
  attribution_confidence: number
  data_staleness_seconds: number | null
  last_indexed_ledger: number | null
  indexed_from_ledger: number | null
  oracle_staleness_seconds: number
  partial_result: boolean
  response_time_ms: number
  sources: string[]
}

export function baseMeta(deps: PositionsDeps, head: IndexerHead, pin: number | bigint | null): PositionsMeta {
  const last = head.lastIndexedLedger
  return {
    requested_ledger: pin,
    as_of_ledger: null,
    valuation_ledger: null,
    attribution_confidence: 1,
    data_staleness_seconds: head.lastCloseTime === null ? null : Math.max(0, deps.nowS - head.lastCloseTime),
    last_indexed_ledger: last,
    indexed_from_ledger: head.firstIndexedLedger,
    oracle_staleness_seconds: 0,
    // Ledgers above the checkpoint are unknown, not empty: say so.
    partial_result: last === null || (pin !== null && above(pin, last)),
    response_time_ms: 0,
    sources: deps.network ? [`ledgers:${deps.network.name}`] : [],
  }
}

/** The ledger answered for: the pin, or the checkpoint when the pin is above it or omitted. */
export function effectiveLedger(pin: number | bigint | null, last: number): number {
  return pin === null || above(pin, last) ? last : Number(pin)
}

/** Whether a pin (a number, or a BigInt beyond 2^53) is above a ledger. */
function above(pin: number | bigint, ledger: number): boolean {
  return typeof pin === 'number' ? pin > ledger : pin > BigInt(ledger)
}

/** Whether the store holds every contract's history up to `ledger` (else the answer is partial). */
export function coverageComplete(
  contracts: readonly ContractInfo[],
  firstIndexed: number | null,
  ledger: number,
) {
  return contracts.every((c) => historyComplete(c, firstIndexed, ledger))
}

/**
 * `oracle_staleness_seconds` of an answer about a ledger closed at `closeTime`: that close time
 * minus the oldest price timestamp used (epoch seconds), so a valuation at an older ledger reads as
 * old as it is from the ledger asked about; 0 when no price was used or the close time is unknown.
 */
export function stalenessAt(closeTime: number | null, oldestPriceS: number | null): number {
  return oldestPriceS === null || closeTime === null ? 0 : Math.max(0, closeTime - oldestPriceS)
}

/** A served snapshot's oracle staleness, price sources and partiality, into the answer's `meta`. */
export function applyRendered(
  meta: PositionsMeta,
  rendered: { oracleStalenessS: number; sources: readonly string[]; partial: boolean },
): void {
  meta.oracle_staleness_seconds = rendered.oracleStalenessS
  meta.sources.push(...rendered.sources)
  if (rendered.partial) meta.partial_result = true
}

/** An epoch-seconds close time as the answers write times: RFC 3339 in UTC; null stays null. */
export function closedAt(closeTimeS: number | null): string | null {
  return closeTimeS === null ? null : new Date(closeTimeS * 1000).toISOString()
}

export const emptyEnrichment = (): Enrichment => ({ assets: {}, contracts: {} })

export interface HistoryQuery {
  address: string
  /** Inclusive bounds as requested (a bound beyond 2^53 stays a BigInt so it echoes exactly). */
  from: number | bigint | null
  to: number | bigint | null
  limit: number
  /** Only snapshots strictly below this ledger (decoded from the cursor). */
  before: number | null
}

export interface HistoryItem {
  ledger: number
  closed_at: string | null
  valuation_ledger: number | null
  data: unknown
  enrichment: Enrichment
  oracle_staleness_seconds: number
  partial_result: boolean
}

export interface HistoryResponse {
  data: { address: string; snapshots: HistoryItem[] }
  enrichment: { contracts: Enrichment['contracts'] }
  meta: PositionsMeta & {
    from_ledger: number | bigint | null
    to_ledger: number | bigint | null
    limit: number
    next_cursor: string | null
  }
}

/** An opaque, stable cursor: the ledger of the last snapshot served (snapshots are unique per ledger). */
export function encodeHistoryCursor(ledger: number): string {
  return Buffer.from(`h1:${ledger}`).toString('base64url')
}

/** The ledger a cursor names; null when it is not one this API wrote. */
export function decodeHistoryCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8')
  const match = /^h1:([0-9]{1,15})$/.exec(text)
  if (!match || encodeHistoryCursor(Number(match[1])) !== cursor) return null
  return Number(match[1])
}

/** A history page's `meta` before its rows are read. */
export function historyMeta(
  deps: PositionsDeps,
  head: IndexerHead,
  query: HistoryQuery,
): HistoryResponse['meta'] {
  return {
    ...baseMeta(deps, head, query.to),
    from_ledger: query.from,
    to_ledger: query.to,
    limit: query.limit,
    next_cursor: null,
  }
}

/**
 * The ledgers a history page scans, inclusive, below the cursor and at most the checkpoint; null
 * when nothing can be found. A contract history the store never read makes `meta` partial.
 */
function historyRange(
  module: ProtocolModule,
  deps: PositionsDeps,
  head: IndexerHead,
  query: HistoryQuery,
  meta: PositionsMeta,
): { lower: number; upper: number } | null {
  const last = head.lastIndexedLedger
  if (last === null || deps.network === null) return null
  let upper = effectiveLedger(query.to, last)
  if (!coverageComplete(module.coverage(deps.network), head.firstIndexedLedger, upper))
    meta.partial_result = true
  if (query.before !== null) upper = Math.min(upper, query.before - 1)
  const lower = query.from === null ? 0 : BigInt(query.from) > BigInt(last) ? last + 1 : Number(query.from)
  return upper < lower ? null : { lower, upper }
}

/**
 * The snapshot rows of a history page, newest first, and whether older ones follow (one row more
 * than the page is read to tell): one range scan on the snapshots' primary key. Sets `meta`'s
 * served ledger and next cursor; a contract history the store never read makes it partial.
 */
export async function historyPageRows(
  module: ProtocolModule,
  deps: PositionsDeps,
  head: IndexerHead,
  query: HistoryQuery,
  meta: HistoryResponse['meta'],
): Promise<SnapshotRow[]> {
  const range = historyRange(module, deps, head, query, meta)
  if (range === null) return []
  const rows = await deps.reader.snapshotsBetween(
    module.name,
    query.address,
    range.lower,
    range.upper,
    query.limit + 1,
  )
  const page = rows.slice(0, query.limit)
  meta.as_of_ledger = page[0]?.ledger ?? null
  if (rows.length > query.limit) meta.next_cursor = encodeHistoryCursor(page.at(-1)!.ledger)
  return page
}

/** Adds one history item's oracle staleness, price sources and partiality to its page's `meta`. */
export function noteHistoryItem(
  meta: PositionsMeta,
  item: { oracleStalenessS: number; sources: readonly string[]; partial: boolean },
): void {
  meta.oracle_staleness_seconds = Math.max(meta.oracle_staleness_seconds, item.oracleStalenessS)
  for (const source of item.sources) if (!meta.sources.includes(source)) meta.sources.push(source)
  if (item.partial) meta.partial_result = true
}

export interface StateResponse {
  data: unknown
  enrichment: Enrichment
  meta: PositionsMeta
}

/**
 * Protocol state at a ledger (a pool, every reserve, every emission): the latest value of each
 * entry at or before the pin. `contracts` are the ones whose history the answer needs.
 */
export async function answerState(
  deps: PositionsDeps,
  pin: number | bigint | null,
  empty: () => unknown,
  contracts: (network: NetworkConfig) => readonly ContractInfo[],
  render: StateSurface['render'],
): Promise<StateResponse> {
  const { reader, network } = deps
  const head = await reader.head()
  const meta = baseMeta(deps, head, pin)
  const response: StateResponse = { data: empty(), enrichment: emptyEnrichment(), meta }
  const last = head.lastIndexedLedger
  if (last === null || network === null) return response
  const ledger = effectiveLedger(pin, last)
  if (!coverageComplete(contracts(network), head.firstIndexedLedger, ledger)) meta.partial_result = true
  const rendered = await render(deps, network, { ledger, closeTime: await reader.closeTime(ledger) })
  response.data = rendered.data
  response.enrichment = rendered.enrichment
  meta.as_of_ledger = rendered.asOfLedger
  // Protocol state is valued at the ledger answered for: the ledger asked about, capped at the head.
  meta.valuation_ledger = ledger
  applyRendered(meta, rendered)
  return response
}
