import type { PositionsMeta } from './answer.ts'
import type { CachedSurface } from './answer-cache.ts'
import { keptAnswerTag, keptTag, offerBodyTag, textTag } from './answer-tag.ts'
import type { HistoryItem, HistorySurfaces, SurfaceAnswer } from './surface-answer.ts'

/**
 * The bodies of the positions answers, written from their serialized parts: byte for byte what
 * the routes' response schemas write (test/positions/answer-json.test.ts compares them with
 * Fastify's serializers of those schemas over real answers of every protocol). Written by hand
 * because the parts come from the answer cache already serialized, and because an int64 pin
 * beyond 2^53, which those serializers cannot write, is written here exactly.
 */

const jsonInteger = (value: number | bigint | null): string => (value === null ? 'null' : String(value))

/** The members of `sources`, comma-separated. */
export function sourcesJson(sources: readonly string[]): string {
  let out = ''
  for (let i = 0; i < sources.length; i++) out += (i === 0 ? '' : ',') + JSON.stringify(sources[i])
  return out
}

/** The members every positions-like `meta` ends with, from `attribution_confidence` on. */
function commonMetaJson(meta: PositionsMeta): string {
  return `"attribution_confidence":${meta.attribution_confidence},"data_staleness_seconds":${jsonInteger(
    meta.data_staleness_seconds,
  )},"last_indexed_ledger":${jsonInteger(meta.last_indexed_ledger)},"indexed_from_ledger":${jsonInteger(
    meta.indexed_from_ledger,
  )},"oracle_staleness_seconds":${meta.oracle_staleness_seconds},"partial_result":${
    meta.partial_result
  },"response_time_ms":${meta.response_time_ms},"sources":[${sourcesJson(meta.sources)}]`
}

/**
 * `meta` as the response schemas write it (every positions-like answer has these members in this
 * order). Written in one template: it is on the path of every kept answer. `sources` is
 * `sourcesJson(meta.sources)`, when the caller has it already.
 */
export function metaJson(meta: PositionsMeta, sources: string = sourcesJson(meta.sources)): string {
  return `{"requested_ledger":${jsonInteger(meta.requested_ledger)},"as_of_ledger":${jsonInteger(
    meta.as_of_ledger,
  )},"valuation_ledger":${jsonInteger(meta.valuation_ledger)},"attribution_confidence":${meta.attribution_confidence},"data_staleness_seconds":${jsonInteger(
    meta.data_staleness_seconds,
  )},"last_indexed_ledger":${jsonInteger(meta.last_indexed_ledger)},"indexed_from_ledger":${jsonInteger(
    meta.indexed_from_ledger,
  )},"oracle_staleness_seconds":${meta.oracle_staleness_seconds},"partial_result":${
    meta.partial_result
  },"response_time_ms":${meta.response_time_ms},"sources":[${sources}]}`
}

/**
 * The members of a positions-like `meta` that say what the answer is, for its tag: all but
 * `response_time_ms`, `data_staleness_seconds` and `last_indexed_ledger`, which say when it was
 * served (docs/api.md, "ETag and If-None-Match").
 */
export function stableMetaTag(meta: PositionsMeta, sources: string = sourcesJson(meta.sources)): string {
  return `${jsonInteger(meta.requested_ledger)}|${jsonInteger(meta.as_of_ledger)}|${jsonInteger(
    meta.valuation_ledger,
  )}|${meta.attribution_confidence}|${jsonInteger(meta.indexed_from_ledger)}|${
    meta.oracle_staleness_seconds
  }|${meta.partial_result}|${sources}`
}

/** What a kept surface's tag hashes: its rendered data and enrichment. */
const surfaceText = (surface: CachedSurface) => () => `${surface.data}\u0000${surface.enrichment}`

/** The hash of a kept surface's rendered data and enrichment, kept beside it. */
export function surfaceTag(surface: CachedSurface): string {
  return keptTag(surface, surfaceText(surface))
}

/**
 * The body of a snapshot-surface (or `/at`) answer, its tag offered to the reply that sends it
 * with whether it is partial (only its `meta` says `partial_result`).
 */
export function positionsBody(answer: SurfaceAnswer): string {
  const { surface, meta } = answer
  const sources = sourcesJson(meta.sources)
  const body = `{"data":${surface.data},"enrichment":${surface.enrichment},"meta":${metaJson(meta, sources)}}`
  const tag = keptAnswerTag(surface, surfaceText(surface), 'p', stableMetaTag(meta, sources))
  return offerBodyTag(body, tag, meta.partial_result)
}

/**
 * One item of a history page as the page writes it; the stream of position changes (src/push/)
 * writes its events' `item` with it too, so both say the same bytes of one snapshot.
 */
export function historyItemJson({ ledger, closedAt, surface }: HistoryItem): string {
  return `{"ledger":${ledger},"closed_at":${
    closedAt === null ? 'null' : `"${closedAt}"`
  },"valuation_ledger":${jsonInteger(surface.valuationLedger)},"data":${surface.data},"enrichment":${surface.enrichment},"oracle_staleness_seconds":${surface.oracleStalenessS},"partial_result":${
    surface.partial
  }}`
}

/**
 * The body of a history page. A page whose bound is beyond 2^53 has always been written with the
 * page's members after the common ones (the order of its `meta` object, not of the schema); it
 * keeps that order, so no answer changes.
 */
export function historyBody(page: HistorySurfaces): string {
  let items = ''
  const contracts: Record<string, string> = {}
  for (let i = 0; i < page.items.length; i++) {
    const { surface } = page.items[i]!
    items += `${i === 0 ? '' : ','}${historyItemJson(page.items[i]!)}`
    // Merged as the items' enrichment objects merge: first place, last value.
    for (const [id, json] of surface.contracts) contracts[id] = json
  }
  let merged = ''
  for (const id in contracts) merged += (merged === '' ? '' : ',') + contracts[id]
  const m = page.meta
  const served = `"requested_ledger":${jsonInteger(m.requested_ledger)},"as_of_ledger":${jsonInteger(m.as_of_ledger)}`
  const range = `"from_ledger":${jsonInteger(m.from_ledger)},"to_ledger":${jsonInteger(m.to_ledger)},"limit":${
    m.limit
  },"next_cursor":${m.next_cursor === null ? 'null' : JSON.stringify(m.next_cursor)}`
  const exact = typeof m.from_ledger === 'bigint' || typeof m.to_ledger === 'bigint'
  const meta = exact
    ? `{${served},${commonMetaJson(m)},${range}}`
    : `{${served},${range},${commonMetaJson(m)}}`
  const body = `{"data":{"address":${JSON.stringify(page.address)},"snapshots":[${items}]},"enrichment":{"contracts":{${merged}}},"meta":${meta}}`
  return offerBodyTag(body, historyTag(page, range))
}

/** A history page's tag: its items' own members and their surfaces' kept tags, and its `meta`. */
function historyTag(page: HistorySurfaces, range: string): string {
  let parts = `h|${page.address}|${range}|${stableMetaTag(page.meta)}`
  for (const { ledger, closedAt, surface } of page.items) {
    parts += `|${ledger},${closedAt},${jsonInteger(surface.valuationLedger)},${surface.oracleStalenessS},${
      surface.partial
    },${surfaceTag(surface)}`
  }
  return textTag(parts)
}
