import { type Awaitable, andThen } from '../awaitable.ts'
import type { PositionsDeps, ProtocolModule } from '../protocols/kit/protocol-module.ts'
import { addValuedTotals, formatTotals, VALUATION_LEDGERS_DIFFER } from '../protocols/kit/totals.ts'
import { baseMeta, type PositionsMeta, stalenessAt } from './answer.ts'
import {
  type AnswerCache,
  allPositionsKey,
  type CachedAllPositions,
  enrichmentJson,
  flat,
  type SurfaceSerializers,
} from './answer-cache.ts'
import { metaJson, sourcesJson, stableMetaTag } from './answer-json.ts'
import { keptAnswerTag, offerBodyTag } from './answer-tag.ts'
import {
  requestCloseTime,
  type SurfaceAnswer,
  type SurfaceQuery,
  servingSnapshots,
  surfaceLayer,
  surfacesAt,
} from './surface-answer.ts'

/**
 * "What did this account hold across Stellar DeFi at ledger P": every registered protocol's
 * snapshot surface, each answered exactly as its own endpoint answers it (its own `as_of_ledger`,
 * `valuation_ledger` and `partial_result`), plus USD totals over all of them when they were valued
 * at one ledger. With `atPin`, "what is it worth at ledger P": every protocol's `/at` surface,
 * all valued at the one ledger, so the totals always add up.
 */

const jsonString = (value: string | null) => (value === null ? 'null' : JSON.stringify(value))

/**
 * An all-protocols answer: the body before `meta` in pieces, each section's oracle staleness for
 * this request (written between the pieces), and `meta`.
 */
export interface KeptAllPositions {
  pieces: readonly string[]
  staleness: readonly number[]
  meta: PositionsMeta
}

/**
 * Every protocol's snapshot surface (or, with `atPin`, `/at` surface) at the pin. On the snapshot
 * surface it goes through the answer cache (a layer: see surface-answer.ts): the whole answer but
 * what depends on the request (`meta`, the sections' staleness) depends only on the address, each
 * section's serving snapshot and whether the request makes a section partial (see
 * `allPositionsKey`), so it is kept as one entry, and a request that finds it costs one lookup
 * and the writing of `meta`. Otherwise the sections come from their own entries (rendered on a
 * miss) and the answer they make is kept. The `/at` surface is rendered for each request (it is
 * valued at the pin). `allPositionsBody` writes the body.
 */
export function answerAllPositions(
  modules: readonly ProtocolModule[],
  deps: PositionsDeps,
  query: SurfaceQuery,
  cache: AnswerCache,
  serializers: SurfaceSerializers,
): Awaitable<KeptAllPositions> {
  const layer = surfaceLayer(query, cache)
  return andThen(deps.reader.head(), (head) => {
    const epoch = layer.observe(head, deps.network, deps.maxPriceAgeS)
    return andThen(servingSnapshots(modules, deps, head, query), (serving) => {
      const { network } = deps
      const meta = baseMeta(deps, head, query.pin)
      const sections = () => surfacesAt(modules, deps, head, query, serving, layer, epoch, serializers)
      const effective = serving.effective
      if (effective === null || network === null) {
        return andThen(sections(), (answers) =>
          finish(composeAllPositions(modules, query.address, answers), meta, []),
        )
      }
      // Each section's partiality that comes from the request, as surfaceAt sets it.
      let partial = ''
      for (const lacking of serving.historyLacking) partial += meta.partial_result || lacking ? '1' : '0'
      const key = allPositionsKey(query.address, serving.ledgers, partial)
      const measured = (answer: CachedAllPositions) =>
        andThen(requestCloseTime(deps, head, effective, answer.sections), (closeTime) =>
          finish(
            answer,
            meta,
            answer.sections.map((s) => stalenessAt(closeTime, s.oldestPriceS)),
          ),
        )
      const kept = layer.getAll(key)
      if (kept !== undefined) return measured(kept)
      return andThen(sections(), (answers) => {
        const answer = composeAllPositions(modules, query.address, answers)
        // As a section whose snapshot vanished between the two reads (a store being wiped) is
        // not remembered, neither is an answer made with one.
        if (answers.every((a, i) => a.surface.ledger === serving.ledgers[i])) layer.setAll(key, answer, epoch)
        return measured(answer)
      })
    })
  })
}

/** The request's answer from a kept (or just made) one and the sections' staleness. */
function finish(answer: CachedAllPositions, meta: PositionsMeta, staleness: number[]): KeptAllPositions {
  meta.as_of_ledger = answer.asOfLedger
  meta.valuation_ledger = answer.valuationLedger
  meta.oracle_staleness_seconds = Math.max(0, ...staleness)
  if (answer.partial) meta.partial_result = true
  for (const source of answer.sources) if (!meta.sources.includes(source)) meta.sources.push(source)
  const zeros = staleness.length === 0 ? answer.sections.map(() => 0) : staleness
  return { pieces: answer.pieces, staleness: zeros, meta }
}

/**
 * The answer from the sections' serialized parts, byte for byte as its response schema writes it:
 * enrichment members keep the order (and the last value) that merging the sections' objects gives.
 * The served ledger is the newest section's, partial if any section is, the price sources of all
 * of them, each once.
 */
function composeAllPositions(
  modules: readonly ProtocolModule[],
  address: string,
  sections: readonly SurfaceAnswer[],
): CachedAllPositions {
  const pieces: string[] = []
  let piece = `{"data":{"address":${JSON.stringify(address)},"protocols":{`
  const assets: Record<string, string> = {}
  const contracts: Record<string, string> = {}
  for (let i = 0; i < sections.length; i++) {
    const { surface, meta } = sections[i]!
    const module = modules[i]!
    piece += `${i === 0 ? '' : ','}${JSON.stringify(module.name)}:{"kind":${JSON.stringify(module.kind)},"as_of_ledger":${
      meta.as_of_ledger ?? 'null'
    },"valuation_ledger":${surface.valuationLedger ?? 'null'},"partial_result":${meta.partial_result},"oracle_staleness_seconds":`
    pieces.push(flat(piece))
    piece = `,"data":${surface.data},"totals":${surface.totalsJson}}`
    // Merged as the sections' enrichment objects merge: first place, last value.
    for (const [id, json] of surface.assets) assets[id] = json
    for (const [id, json] of surface.contracts) contracts[id] = json
  }
  const added = addValuedTotals(
    sections.map((s) => ({ totals: s.surface.totals, valuationLedger: s.surface.valuationLedger })),
  )
  const totals = formatTotals(added.totals)
  const hint =
    totals.usd_unavailable_reason === VALUATION_LEDGERS_DIFFER
      ? `the sections were valued at different ledgers (each at its snapshot's own); GET /v1/users/${address}/positions/at/{ledger} values every protocol at one ledger ({ledger}: a ledger number, or latest)`
      : null
  const enrichment = enrichmentJson(Object.entries(assets), Object.entries(contracts))
  piece += `},"totals":{"assets_usd":${jsonString(totals.assets_usd)},"debt_usd":${jsonString(
    totals.debt_usd,
  )},"net_usd":${jsonString(totals.net_usd)},"usd_unavailable_reason":${jsonString(
    totals.usd_unavailable_reason,
  )},"usd_unavailable_hint":${jsonString(hint)}}},"enrichment":${enrichment},"meta":`
  pieces.push(flat(piece))
  const served = sections.flatMap((s) => (s.meta.as_of_ledger === null ? [] : [s.meta.as_of_ledger]))
  return {
    pieces,
    sections: sections.map(({ surface }) => ({
      valuedAt: surface.valuedAt,
      valuedCloseTime: surface.valuedCloseTime,
      oldestPriceS: surface.oldestPriceS,
    })),
    asOfLedger: served.length === 0 ? null : Math.max(...served),
    valuationLedger: added.valuationLedger,
    partial: sections.some((s) => s.meta.partial_result),
    sources: [...new Set(sections.flatMap((s) => s.meta.sources))],
  }
}

/**
 * The body of an all-protocols answer with the server's time so far, its tag (the kept pieces'
 * hash, the sections' staleness and the stable `meta` members) offered to the reply that sends it,
 * with whether it is partial: `meta.partial_result` is true when any section's is (`finish`).
 */
export function allPositionsBody(answer: KeptAllPositions, responseTimeMs: number): string {
  const { pieces, staleness, meta } = answer
  meta.response_time_ms = responseTimeMs
  let body = pieces[0]!
  for (let i = 1; i < pieces.length; i++) body += `${staleness[i - 1]}${pieces[i]}`
  const sources = sourcesJson(meta.sources)
  body = `${body}${metaJson(meta, sources)}}`
  const members = `${staleness.join(',')}|${stableMetaTag(meta, sources)}`
  const tag = keptAnswerTag(pieces, () => pieces.join('\u0000'), 'a', members)
  return offerBodyTag(body, tag, meta.partial_result)
}
