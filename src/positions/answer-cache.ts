import { createHash } from 'node:crypto'
import { type BoundedCache, createBoundedCache } from '../bounded-cache.ts'
import type { NetworkConfig } from '../chain/network.ts'
import type {
  AssetObject,
  ContractObject,
  ProtocolModule,
  Rendered,
} from '../protocols/kit/protocol-module.ts'
import { formatTotals, rowUsdParts, sumUsdParts, type UsdTotals } from '../protocols/kit/totals.ts'
import type { IndexerHead } from '../store/positions-read.ts'

/**
 * Rendered snapshot surfaces kept in memory, already serialized.
 *
 * The snapshot surface of a module (`GET /v1/users/{address}/positions/{module}`, and each section
 * of the all-protocols answer) renders the latest snapshot at or before the pin, valued at the
 * snapshot's own ledger. That rendering reads only the snapshot row, contract state and prices at
 * or before that ledger (each position with the state at its own `ledger`, which is at most the
 * snapshot's), and the close time of that ledger: all of it is written in the batch that indexes
 * the ledger, with the checkpoint, and never changes afterwards. Besides the store it depends on
 * the network description (assets, feeds, contracts) and `MAX_PRICE_AGE_S`; nothing in it depends
 * on the head, the clock or the pin. So a rendering, once made, is the answer for every later
 * request that the same snapshot serves: only `meta` (the pin, the head, staleness, coverage) is
 * built per request.
 *
 * What would make a kept rendering wrong is the store itself changing under it, and each case
 * clears the cache: another network description or price age (compared by content), another first
 * indexed ledger (a store re-indexed from another ledger, or backfilled below its first one), or a
 * checkpoint below the newest ledger a kept rendering was made for (a store wiped and re-indexing).
 */

/** One module's snapshot surface for an address at a snapshot, serialized as the response schema writes it. */
export interface CachedSurface {
  /** Ledger of the snapshot served; null when the address had none at or before the pin. */
  ledger: number | null
  /** `data`, as the module's data schema serializes it. */
  data: string
  /** `enrichment`, as the response schema serializes it. */
  enrichment: string
  /** Its assets and contracts, each `"id":{…}` in the answer's order, for merging several sections. */
  assets: ReadonlyArray<readonly [string, string]>
  contracts: ReadonlyArray<readonly [string, string]>
  /** Close time of the valuation ledger minus the oldest price timestamp used (0: none used). */
  oracleStalenessS: number
  /** The ledger whose prices valued the rendering and its close time; null for the empty answer. */
  valuedAt: number | null
  valuedCloseTime: number | null
  /**
   * `valuation_ledger` as answers state it: `valuedAt` when the answer holds a USD value (priced or
   * not), null when nothing was valued.
   */
  valuationLedger: number | null
  /** The oldest timestamp of the prices used, epoch seconds (null: none), for a request's staleness. */
  oldestPriceS: number | null
  /** `oracle:C…` sources of the prices used. */
  sources: readonly string[]
  /** Protocol state the rendering needs was never seen by the store. */
  partial: boolean
  /** USD totals of the section (all-protocols answer), and their JSON. */
  totals: UsdTotals
  totalsJson: string
}

/** What a section's oracle staleness is measured from, per request (see `stalenessAt`). */
export interface SectionValuation {
  valuedAt: number | null
  valuedCloseTime: number | null
  oldestPriceS: number | null
}

/**
 * The all-protocols answer for an address at one combination of serving snapshots, serialized up
 * to its `meta`: the sections (each section's `partial_result` is part of the entry's key), the
 * merged enrichment and the USD totals. Each section's `oracle_staleness_seconds` depends on the
 * ledger a request asks about, so the body is kept in pieces around them and they are written per
 * request, as the rest of `meta` (the pin, the head, staleness) is.
 */
export interface CachedAllPositions {
  /**
   * `{"data":…,"enrichment":…,"meta":` : the body before `meta`'s object, cut where each section's
   * oracle staleness goes (one piece more than there are sections).
   */
  pieces: readonly string[]
  /** Per section, in order: what its staleness is measured from. */
  sections: readonly SectionValuation[]
  /** The newest section's served ledger (null: no section had a snapshot). */
  asOfLedger: number | null
  /** The valuation ledger every valued section shares; null when none was valued or they differ. */
  valuationLedger: number | null
  /** Whether any section is partial. */
  partial: boolean
  /** Every section's sources, each once, in the merged answer's order. */
  sources: readonly string[]
}

/** The response schema's serializers for the parts of a surface (the route's own compiled ones). */
export interface SurfaceSerializers {
  data(module: ProtocolModule, data: unknown): string
  asset(asset: AssetObject): string
  contract(contract: ContractObject): string
  totals(totals: ReturnType<typeof formatTotals>): string
}

export interface AnswerCacheStats {
  hits: number
  misses: number
  entries: number
  bytes: number
  budget: number
  /** Times the cache was emptied because the store or the configuration changed under it. */
  resets: number
}

export interface AnswerCache {
  /** False with a budget of 0: the cache passes every rendering through (see `PASS_THROUGH`). */
  readonly enabled: boolean
  /**
   * Called with every request's head and network before `get`: empties the cache when what its
   * renderings depend on is no longer what the store holds. Returns the cache's epoch, which
   * `set` takes back.
   */
  observe(head: IndexerHead, network: NetworkConfig | null, maxPriceAgeS: number): number
  get(module: string, address: string, ledger: number | null): CachedSurface | undefined
  /**
   * Keeps a rendering made by a request that observed `epoch`; one made before the cache was last
   * emptied (against another network description, say) is not kept.
   */
  set(module: string, address: string, surface: CachedSurface, epoch: number): void
  /**
   * The all-protocols answer kept for `key` (see `allPositionsKey`): one lookup instead of one per
   * protocol and the body's assembly. Counted as one hit or miss.
   */
  getAll(key: string): CachedAllPositions | undefined
  /** Keeps an all-protocols answer made by a request that observed `epoch`, as `set` does. */
  setAll(key: string, answer: CachedAllPositions, epoch: number): void
  stats(): AnswerCacheStats
}

/**
 * The key of an all-protocols answer: the address, each section's serving snapshot ledger and
 * whether the request makes the section partial by itself (a pin above the checkpoint, history
 * the store lacks), one `0` or `1` per section.
 */
export function allPositionsKey(
  address: string,
  ledgers: ReadonlyArray<number | null>,
  partial: string,
): string {
  let key = `\u0000${address}\u0000${partial}`
  for (const ledger of ledgers) key += `\u0000${ledger ?? '-'}`
  return key
}

/** A fixed allowance per entry for the key, the object and the map slot (bytes). */
const ENTRY_OVERHEAD = 320

function allEntrySize(key: string, a: CachedAllPositions): number {
  let size = ENTRY_OVERHEAD + key.length + 48 * a.sections.length
  for (const piece of a.pieces) size += 16 + piece.length
  for (const source of a.sources) size += 32 + source.length
  return size
}

function entrySize(key: string, s: CachedSurface): number {
  let size = ENTRY_OVERHEAD + key.length + s.data.length + s.enrichment.length + s.totalsJson.length
  for (const [id, json] of s.assets) size += 48 + id.length + json.length
  for (const [id, json] of s.contracts) size += 48 + id.length + json.length
  for (const source of s.sources) size += 32 + source.length
  return size
}

/** A digest of a network description's content: providers re-read it into a new object now and then. */
const digests = new WeakMap<NetworkConfig, string>()
function digestOf(network: NetworkConfig | null): string {
  if (network === null) return ''
  let digest = digests.get(network)
  if (digest === undefined) {
    digest = createHash('sha256').update(JSON.stringify(network)).digest('base64')
    digests.set(network, digest)
  }
  return digest
}

/**
 * The layer that keeps nothing: every lookup finds nothing and counts nothing, every rendering
 * goes through. The cache of a budget of 0, and the layer of the answers no cache keeps.
 */
export const PASS_THROUGH: AnswerCache = Object.freeze({
  enabled: false,
  observe: () => 0,
  get: () => undefined,
  set: () => {},
  getAll: () => undefined,
  setAll: () => {},
  stats: () => ({ hits: 0, misses: 0, entries: 0, bytes: 0, budget: 0, resets: 0 }),
})

/** The answer cache of `budgetBytes` (0: `PASS_THROUGH`). */
export function createAnswerCache(budgetBytes: number): AnswerCache {
  if (budgetBytes <= 0) return PASS_THROUGH
  // Snapshot surfaces and whole all-protocols answers share one budget; their keys never collide
  // (a surface's key begins with a module name, an all-protocols key with a NUL).
  const entries: BoundedCache<string, CachedSurface | CachedAllPositions> = createBoundedCache(budgetBytes)
  let hits = 0
  let misses = 0
  let resets = 0
  /** Raised each time the cache is emptied. */
  let epoch = 0
  let scopeNetwork: NetworkConfig | null = null
  let scopeDigest = ''
  let scopeMaxAge = -1
  let scopeFirst: number | null = null
  /** The newest snapshot ledger of a kept rendering: the store must still hold it. */
  let newest = -1
  const reset = () => {
    if (entries.size > 0) resets++
    entries.clear()
    newest = -1
    epoch++
  }
  const keyOf = (module: string, address: string, ledger: number | null) =>
    `${module}\u0000${address}\u0000${ledger ?? '-'}`
  return {
    enabled: budgetBytes > 0,
    observe(head, network, maxPriceAgeS) {
      if (network !== scopeNetwork) {
        const digest = digestOf(network)
        if (digest !== scopeDigest) reset()
        scopeNetwork = network
        scopeDigest = digest
      }
      if (maxPriceAgeS !== scopeMaxAge || head.firstIndexedLedger !== scopeFirst) {
        reset()
        scopeMaxAge = maxPriceAgeS
        scopeFirst = head.firstIndexedLedger
      }
      if (head.lastIndexedLedger === null || head.lastIndexedLedger < newest) reset()
      return epoch
    },
    get(module, address, ledger) {
      const found = entries.get(keyOf(module, address, ledger)) as CachedSurface | undefined
      if (found === undefined) misses++
      else hits++
      return found
    },
    getAll(key) {
      const found = entries.get(key) as CachedAllPositions | undefined
      if (found === undefined) misses++
      else hits++
      return found
    },
    setAll(key, answer, observed) {
      if (observed !== epoch) return
      entries.set(key, answer, allEntrySize(key, answer))
      // Its newest section's snapshot, like a surface's: the store must still hold it.
      if (answer.asOfLedger !== null && answer.asOfLedger > newest) newest = answer.asOfLedger
    },
    set(module, address, surface, observed) {
      if (observed !== epoch) return
      const key = keyOf(module, address, surface.ledger)
      entries.set(key, surface, entrySize(key, surface))
      if (surface.ledger !== null && surface.ledger > newest) newest = surface.ledger
    },
    stats: () => ({ hits, misses, entries: entries.size, bytes: entries.used, budget: budgetBytes, resets }),
  }
}

/** Where a rendering was valued: the ledger, its close time and the oldest price it used. */
export interface Valued {
  ledger: number
  closeTime: number | null
  oldestPriceS: number | null
}

/** A module's rendering (or its empty answer: `valued` null) serialized for the cache. */
export function serializeSurface(
  module: ProtocolModule,
  ledger: number | null,
  rendered: Rendered,
  serializers: SurfaceSerializers,
  valued: Valued | null,
): CachedSurface {
  const assets = Object.keys(rendered.enrichment.assets).map(
    (id) =>
      [id, flat(`${JSON.stringify(id)}:${serializers.asset(rendered.enrichment.assets[id]!)}`)] as const,
  )
  const contracts = Object.keys(rendered.enrichment.contracts).map(
    (id) =>
      [
        id,
        flat(`${JSON.stringify(id)}:${serializers.contract(rendered.enrichment.contracts[id]!)}`),
      ] as const,
  )
  const totals = sumUsdParts(module.positions.usdParts?.(rendered.data) ?? rowUsdParts(rendered.data))
  return {
    ledger,
    data: flat(serializers.data(module, rendered.data)),
    enrichment: flat(enrichmentJson(assets, contracts)),
    assets,
    contracts,
    oracleStalenessS: rendered.oracleStalenessS,
    valuedAt: valued?.ledger ?? null,
    valuedCloseTime: valued?.closeTime ?? null,
    valuationLedger: valued !== null && totals.held ? valued.ledger : null,
    oldestPriceS: valued?.oldestPriceS ?? null,
    sources: rendered.sources,
    partial: rendered.partial,
    totals,
    totalsJson: flat(serializers.totals(formatTotals(totals))),
  }
}

/** `{"assets":{…},"contracts":{…}}` from serialized members. */
export function enrichmentJson(
  assets: ReadonlyArray<readonly [string, string]>,
  contracts: ReadonlyArray<readonly [string, string]>,
): string {
  let out = '{"assets":{'
  for (let i = 0; i < assets.length; i++) out += (i === 0 ? '' : ',') + assets[i]![1]
  out += '},"contracts":{'
  for (let i = 0; i < contracts.length; i++) out += (i === 0 ? '' : ',') + contracts[i]![1]
  return `${out}}}`
}

/**
 * The same text as one contiguous string. The serializers build their output by appending, which
 * leaves a rope of many pieces; a body concatenated from a kept rope is walked piece by piece on
 * every answer (Fastify's byte count and the socket write each walk it). Copied flat once when
 * kept, each answer copies contiguous memory instead.
 */
export function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8')
}
