import { type Awaitable, allOf, andThen } from '../awaitable.ts'
import type { NetworkConfig } from '../chain/network.ts'
import type {
  PositionsDeps,
  PositionsReader,
  ProtocolModule,
  Rendered,
  SnapshotRow,
  Valuation,
} from '../protocols/kit/protocol-module.ts'
import type { IndexerHead } from '../store/positions-read.ts'
import {
  applyRendered,
  baseMeta,
  closedAt,
  coverageComplete,
  effectiveLedger,
  emptyEnrichment,
  type HistoryQuery,
  type HistoryResponse,
  historyMeta,
  historyPageRows,
  noteHistoryItem,
  type PositionsMeta,
  stalenessAt,
} from './answer.ts'
import {
  type AnswerCache,
  type CachedSurface,
  PASS_THROUGH,
  type SectionValuation,
  type SurfaceSerializers,
  serializeSurface,
} from './answer-cache.ts'

/**
 * The snapshot surface (`GET /v1/users/{address}/positions/{module}`), the `/at/{ledger}` surface
 * and the history pages, each answered by one renderer: the point-in-time rules of answer.ts, each
 * module's rendering serialized by the response schema's own serializers (`serializeSurface`),
 * the body written from those parts (answer-json.ts). The answer cache is a layer around the
 * rendering: a rendering it keeps is served instead of made again; with a budget of 0, and for
 * the answers it does not keep, it passes every rendering through.
 */

/** A snapshot surface as a request asks for it. */
export interface SurfaceQuery {
  address: string
  /** The pin as requested (a BigInt beyond 2^53, echoed exactly); null: the checkpoint. */
  pin: number | bigint | null
  /** The `/at/{ledger}` surface: the serving snapshot valued at the pin, not at its own ledger. */
  atPin: boolean
}

/** A module's surface for a request: its serialized parts and the request's `meta`. */
export interface SurfaceAnswer {
  surface: CachedSurface
  meta: PositionsMeta
}

/**
 * The layer a query's renderings go through: the answer cache for the snapshot surface at an
 * ordinary pin; none for the `/at` surface (valued at the pin: a rendering per pin) nor for an
 * int64 pin beyond 2^53 (rare; its answer is the one at the checkpoint).
 */
export function surfaceLayer(query: { pin: number | bigint | null; atPin?: boolean }, cache: AnswerCache) {
  return query.atPin === true || typeof query.pin === 'bigint' ? PASS_THROUGH : cache
}

/**
 * "What did this address hold at ledger P" for one module: the latest snapshot at or before P,
 * never interpolated, never carried forward, absent as empty; with `atPin`, that snapshot valued
 * at the pin. A request whose rendering the cache keeps costs the head and the serving snapshot's
 * ledger (both read by the request's view when the route declared its seek) and no rendering.
 */
export function answerSurface(
  module: ProtocolModule,
  deps: PositionsDeps,
  query: SurfaceQuery,
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
  query: SurfaceQuery,
  cache: AnswerCache,
  serializers: SurfaceSerializers,
): Awaitable<SurfaceAnswer[]> {
  const layer = surfaceLayer(query, cache)
  return andThen(deps.reader.head(), (head) => {
    const epoch = layer.observe(head, deps.network, deps.maxPriceAgeS)
    return andThen(servingSnapshots(modules, deps, head, query), (serving) =>
      andThen(surfacesAt(modules, deps, head, query, serving, layer, epoch, serializers), (answers) =>
        measureStaleness(answers, deps, head, serving.effective),
      ),
    )
  })
}

/**
 * The close time of the ledger a request is about (the pin capped at the checkpoint), read only
 * when a price was used and it is neither the checkpoint's nor a valuation ledger's.
 */
export function requestCloseTime(
  deps: PositionsDeps,
  head: IndexerHead,
  effective: number,
  valued: readonly SectionValuation[],
): Awaitable<number | null> {
  if (effective === head.lastIndexedLedger) return head.lastCloseTime
  if (valued.every((v) => v.oldestPriceS === null)) return null
  for (const v of valued) if (v.valuedAt === effective) return v.valuedCloseTime
  return deps.reader.closeTime(effective)
}

/**
 * Each answer's `oracle_staleness_seconds` measured from the ledger the request is about, not from
 * its valuation ledger: a snapshot valued at its own, older ledger reads as old as its prices are
 * at the pin. A kept rendering keeps the oldest price it used, never a staleness.
 */
export function measureStaleness(
  answers: SurfaceAnswer[],
  deps: PositionsDeps,
  head: IndexerHead,
  effective: number | null,
): Awaitable<SurfaceAnswer[]> {
  if (effective === null) return answers
  return andThen(
    requestCloseTime(
      deps,
      head,
      effective,
      answers.map((a) => a.surface),
    ),
    (closeTime) => {
      for (const { surface, meta } of answers)
        if (surface.ledger !== null)
          meta.oracle_staleness_seconds = stalenessAt(closeTime, surface.oldestPriceS)
      return answers
    },
  )
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

/** Where each module's answer is found: the effective ledger and the serving snapshots there. */
export function servingSnapshots(
  modules: readonly ProtocolModule[],
  deps: PositionsDeps,
  head: IndexerHead,
  query: { address: string; pin: number | bigint | null },
): Awaitable<ServingSnapshots> {
  const last = head.lastIndexedLedger
  const { network } = deps
  if (last === null || network === null) {
    return { effective: null, ledgers: modules.map(() => null), historyLacking: modules.map(() => false) }
  }
  const effective = effectiveLedger(query.pin, last)
  // Ledgers of a contract's history before the store's first one were never read: say so.
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

/** Each module's surface at its serving snapshot, through `layer`, with its `meta`. */
export function surfacesAt(
  modules: readonly ProtocolModule[],
  deps: PositionsDeps,
  head: IndexerHead,
  query: SurfaceQuery,
  serving: ServingSnapshots,
  layer: AnswerCache,
  epoch: number,
  serializers: SurfaceSerializers,
): Awaitable<SurfaceAnswer[]> {
  return allOf(
    modules.map((module, i) => surfaceAt(module, deps, head, query, serving, i, layer, epoch, serializers)),
  )
}

/**
 * The i-th module's surface at its serving snapshot (none: the empty answer), kept by `layer` or
 * rendered, and its meta.
 */
function surfaceAt(
  module: ProtocolModule,
  deps: PositionsDeps,
  head: IndexerHead,
  query: SurfaceQuery,
  serving: ServingSnapshots,
  i: number,
  layer: AnswerCache,
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
  const kept = layer.get(module.name, query.address, ledger)
  return andThen(
    kept ?? renderSurface(module, deps, network, query, serving.effective, ledger, layer, epoch, serializers),
    (surface) => {
      meta.as_of_ledger = surface.ledger
      meta.valuation_ledger = surface.valuationLedger
      if (surface.ledger !== null) applyRendered(meta, surface)
      return { surface, meta }
    },
  )
}

/** A serving snapshot's surface rendered and serialized, and handed to `layer` to keep. */
async function renderSurface(
  module: ProtocolModule,
  deps: PositionsDeps,
  network: NetworkConfig,
  query: SurfaceQuery,
  effective: number,
  ledger: number | null,
  layer: AnswerCache,
  epoch: number,
  serializers: SurfaceSerializers,
): Promise<CachedSurface> {
  const { address } = query
  const snapshot = ledger === null ? null : await deps.reader.snapshotAt(module.name, address, ledger)
  let surface: CachedSurface
  if (snapshot === null) surface = emptySurface(module, address, serializers)
  else {
    // The snapshot surface values at the snapshot's own ledger; the /at surface at the pin.
    const valuation: Valuation = query.atPin
      ? { atPin: true, ledger: effective, closeTime: await deps.reader.closeTime(effective) }
      : { atPin: false, ledger: snapshot.ledger, closeTime: snapshot.close_time }
    surface = await renderValued(module, deps, network, address, snapshot, valuation, serializers)
  }
  // A snapshot that vanished between the two reads (a store being wiped) is not remembered.
  if (surface.ledger === ledger) layer.set(module.name, address, surface, epoch)
  return surface
}

/**
 * A reader that notes the oldest timestamp of the prices read through it. A rendering reads
 * exactly the prices it values with (each once, through the kit's price lookup), so this is the
 * oldest price it used, which a request's staleness is measured back to.
 */
function notingPrices(reader: PositionsReader): { reader: PositionsReader; oldest(): number | null } {
  let oldest: number | null = null
  const note = (row: Awaited<ReturnType<PositionsReader['priceAt']>>) => {
    if (row !== null) {
      const s = Math.floor(row.timestamp_ms / 1000)
      if (oldest === null || s < oldest) oldest = s
    }
    return row
  }
  return {
    reader: {
      ...reader,
      priceAt: (oracle, asset, ledger) => andThen(reader.priceAt(oracle, asset, ledger), note),
    },
    oldest: () => oldest,
  }
}

/** One snapshot rendered by its module with `valuation`, serialized with where it was valued. */
async function renderValued(
  module: ProtocolModule,
  deps: PositionsDeps,
  network: NetworkConfig,
  address: string,
  snapshot: SnapshotRow,
  valuation: Valuation,
  serializers: SurfaceSerializers,
): Promise<CachedSurface> {
  const prices = notingPrices(deps.reader)
  const rendered = await module.positions.render(
    { ...deps, reader: prices.reader },
    network,
    address,
    snapshot,
    valuation,
  )
  return serializeSurface(module, snapshot.ledger, rendered, serializers, {
    ledger: valuation.ledger,
    closeTime: valuation.closeTime,
    oldestPriceS: prices.oldest(),
  })
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
  return serializeSurface(module, null, rendered, serializers, null)
}

/** A history page: each item's serialized surface and the page's meta. */
export interface HistorySurfaces {
  address: string
  items: Array<{ ledger: number; closedAt: string | null; surface: CachedSurface }>
  meta: HistoryResponse['meta']
}

/**
 * Every snapshot of the account in one protocol between two ledgers, newest first, a page at a
 * time: one range scan on the snapshots' primary key, each item the snapshot surface at its own
 * ledger, the very entry `answerSurface` keeps (bounds beyond 2^53 pass the layer by, as pins do).
 * `historyBody` writes the page.
 */
export async function answerHistory(
  module: ProtocolModule,
  deps: PositionsDeps,
  query: HistoryQuery,
  cache: AnswerCache,
  serializers: SurfaceSerializers,
): Promise<HistorySurfaces> {
  const { reader, network } = deps
  const layer = typeof query.from === 'bigint' ? PASS_THROUGH : surfaceLayer({ pin: query.to }, cache)
  const head = await reader.head()
  const epoch = layer.observe(head, network, deps.maxPriceAgeS)
  const meta = historyMeta(deps, head, query)
  const page: HistorySurfaces = { address: query.address, items: [], meta }
  if (network === null) return page
  for (const row of await historyPageRows(module, deps, head, query, meta)) {
    const item = await historyItem(module, deps, network, query.address, row, layer, epoch, serializers)
    page.items.push(item)
    noteHistoryItem(meta, item.surface)
  }
  return page
}

/** One item of a history page, as `historyItemJson` (answer-json.ts) writes it. */
export type HistoryItem = HistorySurfaces['items'][number]

/**
 * One snapshot as a history item: the snapshot surface at its own ledger, kept by `layer` or
 * rendered and handed to it (`epoch` is `layer.observe`'s). History pages and the stream of
 * position changes (src/push/) both make their items here, so the two cannot differ.
 */
export async function historyItem(
  module: ProtocolModule,
  deps: PositionsDeps,
  network: NetworkConfig,
  address: string,
  row: SnapshotRow,
  layer: AnswerCache,
  epoch: number,
  serializers: SurfaceSerializers,
): Promise<HistoryItem> {
  let surface = layer.get(module.name, address, row.ledger)
  if (surface === undefined) {
    const valuation = { atPin: false, ledger: row.ledger, closeTime: row.close_time }
    surface = await renderValued(module, deps, network, address, row, valuation, serializers)
    layer.set(module.name, address, surface, epoch)
  }
  // An item is the snapshot surface asked at its own ledger: its staleness is measured from it.
  return { ledger: row.ledger, closedAt: closedAt(row.close_time), surface }
}
