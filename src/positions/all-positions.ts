import { type Awaitable, andThen } from '../awaitable.ts'
import type { PositionsDeps, ProtocolModule } from '../protocols/kit/protocol-module.ts'
import { addTotals, formatTotals } from '../protocols/kit/totals.ts'
import { baseMeta, type PositionsMeta } from './answer.ts'
import {
  type AnswerCache,
  allPositionsKey,
  enrichmentJson,
  flat,
  type SurfaceSerializers,
} from './answer-cache.ts'
import { metaJson } from './answer-json.ts'
import {
  type SurfaceAnswer,
  type SurfaceQuery,
  servingSnapshots,
  surfaceLayer,
  surfacesAt,
} from './surface-answer.ts'

/**
 * "What did this account hold across Stellar DeFi at ledger P": every registered protocol's
 * snapshot surface, each answered exactly as its own endpoint answers it (its own `as_of_ledger`
 * and `partial_result`), plus USD totals over all of them.
 */

/**
 * The all-protocols `meta` from its sections': the head and pin are the same for every section;
 * the served ledger is the newest section's, the oracle staleness the largest, partial if any
 * section is, and the price sources of all of them, each once.
 */
function mergeSectionMetas(metas: readonly PositionsMeta[]): PositionsMeta {
  const served = metas.flatMap((m) => (m.as_of_ledger === null ? [] : [m.as_of_ledger]))
  return {
    ...metas[0]!,
    as_of_ledger: served.length === 0 ? null : Math.max(...served),
    oracle_staleness_seconds: Math.max(...metas.map((m) => m.oracle_staleness_seconds)),
    partial_result: metas.some((m) => m.partial_result),
    sources: [...new Set(metas.flatMap((m) => m.sources))],
  }
}

const jsonString = (value: string | null) => (value === null ? 'null' : JSON.stringify(value))

/** An all-protocols answer served through the answer cache: the body before `meta`, and `meta`. */
export interface KeptAllPositions {
  head: string
  meta: PositionsMeta
}

/**
 * Every protocol's snapshot surface at the pin, through the answer cache (a layer: see
 * surface-answer.ts). The whole answer but `meta` depends only on the address, each section's
 * serving snapshot and whether the request makes a section partial (see `allPositionsKey`), so
 * it is kept as one entry: a request that finds it costs one lookup and the writing of `meta`.
 * Otherwise the sections come from their own entries (rendered on a miss) and the answer they
 * make is kept. `allPositionsBody` writes the body.
 */
export function answerAllPositions(
  modules: readonly ProtocolModule[],
  deps: PositionsDeps,
  query: SurfaceQuery & { atPin: false },
  cache: AnswerCache,
  serializers: SurfaceSerializers,
): Awaitable<KeptAllPositions> {
  const layer = surfaceLayer(query, cache)
  return andThen(deps.reader.head(), (head) => {
    const epoch = layer.observe(head, deps.network, deps.maxPriceAgeS)
    return andThen(servingSnapshots(modules, deps, head, query), (serving) => {
      const { network } = deps
      const sections = () => surfacesAt(modules, deps, head, query, serving, layer, epoch, serializers)
      if (serving.effective === null || network === null) {
        return andThen(sections(), (answers) => composeAllPositions(modules, query.address, answers))
      }
      // Each section's partiality that comes from the request, as surfaceAt sets it.
      const meta = baseMeta(deps, head, query.pin)
      let partial = ''
      for (const lacking of serving.historyLacking) partial += meta.partial_result || lacking ? '1' : '0'
      const key = allPositionsKey(query.address, serving.ledgers, partial)
      const kept = layer.getAll(key)
      if (kept !== undefined) {
        meta.as_of_ledger = kept.asOfLedger
        meta.oracle_staleness_seconds = kept.oracleStalenessS
        meta.partial_result = kept.partial
        meta.sources = kept.sources.slice()
        return { head: kept.head, meta }
      }
      return andThen(sections(), (answers) => {
        const answer = composeAllPositions(modules, query.address, answers)
        // As a section whose snapshot vanished between the two reads (a store being wiped) is
        // not remembered, neither is an answer made with one.
        if (answers.every((a, i) => a.surface.ledger === serving.ledgers[i])) {
          layer.setAll(
            key,
            {
              head: flat(answer.head),
              asOfLedger: answer.meta.as_of_ledger,
              oracleStalenessS: answer.meta.oracle_staleness_seconds,
              partial: answer.meta.partial_result,
              sources: answer.meta.sources.slice(),
            },
            epoch,
          )
        }
        return answer
      })
    })
  })
}

/**
 * The answer from the sections' serialized parts, byte for byte as its response schema writes it:
 * enrichment members keep the order (and the last value) that merging the sections' objects gives.
 */
function composeAllPositions(
  modules: readonly ProtocolModule[],
  address: string,
  sections: readonly SurfaceAnswer[],
): KeptAllPositions {
  let protocols = ''
  const assets: Record<string, string> = {}
  const contracts: Record<string, string> = {}
  for (let i = 0; i < sections.length; i++) {
    const { surface, meta } = sections[i]!
    const module = modules[i]!
    protocols += `${i === 0 ? '' : ','}${JSON.stringify(module.name)}:{"kind":${JSON.stringify(module.kind)},"as_of_ledger":${
      meta.as_of_ledger ?? 'null'
    },"partial_result":${meta.partial_result},"oracle_staleness_seconds":${meta.oracle_staleness_seconds},"data":${
      surface.data
    },"totals":${surface.totalsJson}}`
    // Merged as the sections' enrichment objects merge: first place, last value.
    for (const [id, json] of surface.assets) assets[id] = json
    for (const [id, json] of surface.contracts) contracts[id] = json
  }
  const totals = formatTotals(addTotals(sections.map((s) => s.surface.totals)))
  const enrichment = enrichmentJson(Object.entries(assets), Object.entries(contracts))
  return {
    head: `{"data":{"address":${JSON.stringify(address)},"protocols":{${protocols}},"totals":{"assets_usd":${jsonString(
      totals.assets_usd,
    )},"debt_usd":${jsonString(totals.debt_usd)},"net_usd":${jsonString(totals.net_usd)},"usd_unavailable_reason":${jsonString(
      totals.usd_unavailable_reason,
    )}}},"enrichment":${enrichment},"meta":`,
    meta: mergeSectionMetas(sections.map((s) => s.meta)),
  }
}

/** The body of an all-protocols answer with the server's time so far. */
export function allPositionsBody(answer: KeptAllPositions, responseTimeMs: number): string {
  answer.meta.response_time_ms = responseTimeMs
  return `${answer.head}${metaJson(answer.meta)}}`
}
