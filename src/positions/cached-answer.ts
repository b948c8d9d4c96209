import { type Awaitable, allOf, andThen } from '../awaitable.ts'
import type { NetworkConfig } from '../chain/network.ts'
import type { PositionsDeps, ProtocolModule, Rendered } from '../protocols/kit/protocol-module.ts'
import type { IndexerHead } from '../store/positions-read.ts'
import {
  applyRendered,
  baseMeta,
  coverageComplete,
  effectiveLedger,
  emptyEnrichment,
  type HistoryQuery,
  type HistoryResponse,
  historyMeta,
  historyPageRows,
  noteHistoryItem,
  type PositionsMeta,
} from './answer.ts'
import {
  type AnswerCache,
  type CachedSurface,
  type SurfaceSerializers,
  serializeSurface,
} from './answer-cache.ts'

/**
 * The snapshot surface, the all-protocols sections and history pages served through the answer
 * cache (answer-cache.ts): the same rules as answer.ts, with each snapshot's rendering kept
 * serialized and the body concatenated from it, byte for byte what the response schemas write.
 */

/** A snapshot surface served from the answer cache: its serialized parts and the request's `meta`. */
export interface SurfaceAnswer {
  surface: CachedSurface
  meta: PositionsMeta
}

/**
 * `answerPositions` on the snapshot surface (`atPin` false) with the rendering kept in `cache`
 * (see answer-cache.ts): a request whose snapshot was rendered before costs the head and one
 * index seek for the snapshot's ledger, and no rendering. `meta` is the same as
 * `answerPositions` writes; `positionsBody` writes the answer.
 */
export function answerSurface(
  module: ProtocolModule,
  deps: PositionsDeps,
  query: { address: string; pin: number | null },
  cache: AnswerCache,
  serializers: SurfaceSerializers,
): Awaitable<SurfaceAnswer> {
  return andThen(answerSurfaces([module], deps, query, cache, serializers), (answers) => answers[0]!)
}

/**
 * `answerSurface` for several modules at once: one head, and the snapshot ledgers of every module
 * found by one statement. Answered in the same turn when the reads are (SQLite) and every
 * rendering is kept; a promise otherwise.
 */
export function answerSurfaces(
  modules: readonly ProtocolModule[],
  deps: PositionsDeps,
  query: { address: string; pin: number | null },
  cache: AnswerCache,
  serializers: SurfaceSerializers,
): Awaitable<SurfaceAnswer[]> {
  return andThen(deps.reader.head(), (head) => {
    const epoch = cache.observe(head, deps.network, deps.maxPriceAgeS)
    return andThen(servingSnapshots(modules, deps, head, query), (serving) =>
      surfacesAt(modules, deps, head, query, serving, cache, epoch, serializers),
    )
  })
}

/** The ledger a request is answered at and, per module, its serving snapshot's ledger there. */
export interface ServingSnapshots {
  /** The pin capped at the checkpoint; null when nothing is indexed or the network is unknown. */
  effective: number | null
  /** Per module, in order: the ledger of the latest snapshot at or before `effective`, or null. */
  ledgers: ReadonlyArray<number | null>
  /**
   * Per module, in order: whether the store lacks contract history the answer at `effective`
   * needs (it began after a contract's deployment), which makes that answer partial.
   */
  historyLacking: readonly boolean[]
}

export function servingSnapshots(
  modules: readonly ProtocolModule[],
  deps: PositionsDeps,
  head: IndexerHead,
  query: { address: string; pin: number | null },
): Awaitable<ServingSnapshots> {
  const last = head.lastIndexedLedger
  const { network } = deps
  if (last === null || network === null) {
    return { effective: null, ledgers: modules.map(() => null), historyLacking: modules.map(() => false) }
  }
  const effective = effectiveLedger(query.pin, last)
  const historyLacking = modules.map(
    (m) => !coverageComplete(m.coverage(network), head.firstIndexedLedger, effective),
  )
  return andThen(
    deps.reader.snapshotLedgersAt(
      modules.map((m) => m.name),
      query.address,
      effective,
    ),
    (ledgers) => ({ effective, ledgers, historyLacking }),
  )
}

/** Each module's surface at its serving snapshot, from the cache or rendered, with its `meta`. */
export function surfacesAt(
  modules: readonly ProtocolModule[],
  deps: PositionsDeps,
  head: IndexerHead,
  query: { address: string; pin: number | null },
  serving: ServingSnapshots,
  cache: AnswerCache,
  epoch: number,
  serializers: SurfaceSerializers,
): Awaitable<SurfaceAnswer[]> {
  return allOf(
    modules.map((module, i) => surfaceAt(module, deps, head, query, serving, i, cache, epoch, serializers)),
  )
}

/**
 * The i-th module's surface at its serving snapshot (none: the empty answer) from the cache,
 * rendered on a miss, and its meta.
 */
function surfaceAt(
  module: ProtocolModule,
  deps: PositionsDeps,
  head: IndexerHead,
  query: { address: string; pin: number | null },
  serving: ServingSnapshots,
  i: number,
  cache: AnswerCache,
  epoch: number,
  serializers: SurfaceSerializers,
): Awaitable<SurfaceAnswer> {
  const { network } = deps
  const meta = baseMeta(deps, head, query.pin)
  if (serving.effective === null || network === null) {
    return { surface: emptySurface(module, query.address, serializers), meta }
  }
  if (serving.historyLacking[i]) meta.partial_result = true
  const ledger = serving.ledgers[i]!
  const kept = cache.get(module.name, query.address, ledger)
  return andThen(
    kept ?? renderSurface(module, deps, network, query.address, ledger, cache, epoch, serializers),
    (surface) => {
      meta.as_of_ledger = surface.ledger
      if (surface.ledger !== null) applyRendered(meta, surface)
      return { surface, meta }
    },
  )
}

/** A snapshot's surface rendered and serialized, and kept in the cache. */
async function renderSurface(
  module: ProtocolModule,
  deps: PositionsDeps,
  network: NetworkConfig,
  address: string,
  ledger: number | null,
  cache: AnswerCache,
  epoch: number,
  serializers: SurfaceSerializers,
): Promise<CachedSurface> {
  const snapshot = ledger === null ? null : await deps.reader.snapshotAt(module.name, address, ledger)
  const surface =
    snapshot === null
      ? emptySurface(module, address, serializers)
      : serializeSurface(
          module,
          snapshot.ledger,
          await module.positions.render(deps, network, address, snapshot, {
            atPin: false,
            ledger: snapshot.ledger,
            closeTime: snapshot.close_time,
          }),
          serializers,
        )
  // A snapshot that vanished between the two reads (a store being wiped) is not remembered.
  if (surface.ledger === ledger) cache.set(module.name, address, surface, epoch)
  return surface
}

function emptySurface(
  module: ProtocolModule,
  address: string,
  serializers: SurfaceSerializers,
): CachedSurface {
  const rendered: Rendered = {
    data: module.positions.empty(address),
    enrichment: emptyEnrichment(),
    oracleStalenessS: 0,
    sources: [],
    partial: false,
  }
  return serializeSurface(module, null, rendered, serializers)
}

const jsonInteger = (value: number | bigint | null): string => (value === null ? 'null' : String(value))

/** `meta` as the response schemas write it (every positions-like answer has these members in this order). */
export function metaJson(meta: PositionsMeta): string {
  let sources = ''
  for (let i = 0; i < meta.sources.length; i++)
    sources += (i === 0 ? '' : ',') + JSON.stringify(meta.sources[i])
  return `{"requested_ledger":${jsonInteger(meta.requested_ledger)},"as_of_ledger":${jsonInteger(
    meta.as_of_ledger,
  )},"attribution_confidence":${meta.attribution_confidence},"data_staleness_seconds":${jsonInteger(
    meta.data_staleness_seconds,
  )},"last_indexed_ledger":${jsonInteger(meta.last_indexed_ledger)},"indexed_from_ledger":${jsonInteger(
    meta.indexed_from_ledger,
  )},"oracle_staleness_seconds":${meta.oracle_staleness_seconds},"partial_result":${
    meta.partial_result
  },"response_time_ms":${meta.response_time_ms},"sources":[${sources}]}`
}

/** The body of a snapshot-surface answer, byte for byte what the response schema writes for it. */
export function positionsBody(answer: SurfaceAnswer): string {
  return `{"data":${answer.surface.data},"enrichment":${answer.surface.enrichment},"meta":${metaJson(answer.meta)}}`
}

/** A history page served through the answer cache: each item's serialized surface and the page's meta. */
export interface HistorySurfaces {
  address: string
  items: Array<{ ledger: number; closeTime: number | null; surface: CachedSurface }>
  meta: HistoryResponse['meta']
}

/**
 * `answerHistory` with each item's rendering from the answer cache: an item is the snapshot
 * surface at its own ledger, the very entry `answerSurface` keeps. `historyBody` writes the page.
 */
export async function answerHistorySurfaces(
  module: ProtocolModule,
  deps: PositionsDeps,
  query: HistoryQuery & { from: number | null; to: number | null },
  cache: AnswerCache,
  serializers: SurfaceSerializers,
): Promise<HistorySurfaces> {
  const { reader, network } = deps
  const head = await reader.head()
  const epoch = cache.observe(head, network, deps.maxPriceAgeS)
  const meta = historyMeta(deps, head, query)
  const page: HistorySurfaces = { address: query.address, items: [], meta }
  if (network === null) return page
  for (const row of await historyPageRows(module, deps, head, query, meta)) {
    let surface = cache.get(module.name, query.address, row.ledger)
    if (surface === undefined) {
      const rendered = await module.positions.render(deps, network, query.address, row, {
        atPin: false,
        ledger: row.ledger,
        closeTime: row.close_time,
      })
      surface = serializeSurface(module, row.ledger, rendered, serializers)
      cache.set(module.name, query.address, surface, epoch)
    }
    page.items.push({ ledger: row.ledger, closeTime: row.close_time, surface })
    noteHistoryItem(meta, surface)
  }
  return page
}

/** The body of a history page, byte for byte what its response schema writes. */
export function historyBody(page: HistorySurfaces): string {
  let items = ''
  const contracts: Record<string, string> = {}
  for (let i = 0; i < page.items.length; i++) {
    const { ledger, closeTime, surface } = page.items[i]!
    items += `${i === 0 ? '' : ','}{"ledger":${ledger},"close_time":${jsonInteger(closeTime)},"data":${
      surface.data
    },"enrichment":${surface.enrichment},"oracle_staleness_seconds":${surface.oracleStalenessS},"partial_result":${
      surface.partial
    }}`
    for (const [id, json] of surface.contracts) contracts[id] = json
  }
  let merged = ''
  for (const id in contracts) merged += (merged === '' ? '' : ',') + contracts[id]
  const m = page.meta
  let sources = ''
  for (let i = 0; i < m.sources.length; i++) sources += (i === 0 ? '' : ',') + JSON.stringify(m.sources[i])
  return `{"data":{"address":${JSON.stringify(page.address)},"snapshots":[${items}]},"enrichment":{"contracts":{${merged}}},"meta":{"requested_ledger":${jsonInteger(
    m.requested_ledger,
  )},"as_of_ledger":${jsonInteger(m.as_of_ledger)},"from_ledger":${jsonInteger(m.from_ledger)},"to_ledger":${jsonInteger(
    m.to_ledger,
  )},"limit":${m.limit},"next_cursor":${m.next_cursor === null ? 'null' : JSON.stringify(m.next_cursor)},"attribution_confidence":${
    m.attribution_confidence
  },"data_staleness_seconds":${jsonInteger(m.data_staleness_seconds)},"last_indexed_ledger":${jsonInteger(
    m.last_indexed_ledger,
  )},"indexed_from_ledger":${jsonInteger(m.indexed_from_ledger)},"oracle_staleness_seconds":${
    m.oracle_staleness_seconds
  },"partial_result":${m.partial_result},"response_time_ms":${m.response_time_ms},"sources":[${sources}]}}`
}
