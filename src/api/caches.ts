import { Counter, Gauge, type Registry } from 'prom-client'
import type { Config } from '../config.ts'
import { type ActivityPages, createActivityPages } from '../positions/activities.ts'
import { type AnswerCache, createAnswerCache } from '../positions/answer-cache.ts'
import { createActivitiesReader } from '../store/activities.ts'
import type { Database } from '../store/db.ts'
import { createNetworkProvider, type NetworkProvider } from '../store/network.ts'
import type { PositionsReader } from '../store/positions-read.ts'
import { createRequestViews, type RequestViews } from '../store/request-state.ts'
import { createKeyRecordCache, type KeyRecordCache } from './auth/key-cache.ts'

/**
 * Every cache of the API that outlives a request, created once per application context. Each is
 * listed with what it holds and exactly what makes it stop answering from memory; none is ever
 * trusted beyond that rule, so a cache changes how fast an answer comes, never what it says.
 *
 * (Pure memos of a function of their key, such as the parsed scope lists of `api/auth/guard.ts`
 * or the network digests of `positions/answer-cache.ts`, need no invalidation and stay with their
 * function.)
 */
export interface ReadCaches {
  /**
   * Key records of recently presented API keys (with their organization's plan), keyed by the
   * presented key; at most 10 000, the oldest dropped first. A record is used only while the
   * store's authentication generation, read by the request's own statement, is the one it was
   * read at: every committed write to a key or an organization, by any process, raises the
   * generation, and the key is then checked in full and read again. Well-formed keys the store
   * does not know are kept apart (at most 10 000), with the generation their lookup read: one is
   * refused without a lookup while that is the generation, for at most `UNKNOWN_KEY_TTL_MS`
   * (10 s; creating a key does not raise the generation, but a created key's secret cannot have
   * been presented before it existed).
   */
  keyRecords: KeyRecordCache
  /**
   * The request views (`store/request-state.ts`): the one statement an API-key request begins
   * with (generation, checkpoint, the route's serving snapshots). What a statement read is kept
   * while the store says nothing it read has changed: on SQLite the commit probe (no connection
   * of any process has committed since), on PostgreSQL the commit watch (no change to the
   * generation or the checkpoint was notified, and its lease holds): the generation and the
   * checkpoint until then; a seek's serving snapshots while the first indexed ledger is unchanged and the
   * checkpoint has not gone back, a pin at or below the checkpoint it was found under surviving
   * later batches (its snapshots are final), any other seek until the checkpoint moves. At most
   * 10 000 seeks are kept; one more empties them all.
   */
  requestViews: RequestViews
  /**
   * Rendered snapshot surfaces and whole all-protocols answers, serialized
   * (`positions/answer-cache.ts`), in `STRATA_ANSWER_CACHE_MB` (least recently used first out; 0
   * keeps nothing and every answer is rendered). Emptied, on the first request that sees it, when
   * the network description's content or `MAX_PRICE_AGE_S` differs from what the renderings were
   * made with, when the first indexed ledger differs, or when the checkpoint is below the newest
   * ledger a kept rendering was made for (a store wiped or re-indexed).
   */
  answers: AnswerCache
  /**
   * The stored network description (`store/network.ts`), one for every route: re-read at most
   * every 5 s (every second while the store has none), so a description an indexer updates is
   * seen within that delay.
   */
  network: NetworkProvider
  /**
   * Activity items, pages and series (`positions/activities.ts`) in `STRATA_ACTIVITY_CACHE_MB`
   * (half for items, a third for pages, the rest for series). Emptied when the network
   * description's content or the price age limit differs; a page or series read at checkpoint H
   * is served at a later checkpoint only when one seek finds no action of the account in the
   * ledgers indexed since.
   */
  activityPages: ActivityPages
}

/** What the caches are made over. */
export interface ReadCacheSources {
  config: Pick<Config, 'answerCacheBytes' | 'activityCacheBytes'>
  database: Database
  /** The process's point-in-time reader, which request views read through. */
  reader: PositionsReader
  /** Where the answer cache's counts are exposed. */
  registry: Registry
}

/** The caches of one application context (see `ReadCaches`). */
export function createReadCaches(sources: ReadCacheSources): ReadCaches {
  const { config, database } = sources
  const answers = createAnswerCache(config.answerCacheBytes)
  exposeAnswerCache(answers, sources.registry)
  // Half of the memory for items (shared by every page), a third for pages, the rest for series.
  const budget = config.activityCacheBytes
  return {
    keyRecords: createKeyRecordCache(),
    requestViews: createRequestViews(database, sources.reader),
    answers,
    network: createNetworkProvider(database),
    activityPages: createActivityPages(createActivitiesReader(database), {
      items: Math.floor(budget / 2),
      pages: Math.floor(budget / 3),
      series: budget - Math.floor(budget / 2) - Math.floor(budget / 3),
    }),
  }
}

/** The answer cache's hit, miss, size and reset counts among the Prometheus metrics. */
function exposeAnswerCache(cache: AnswerCache, registry: Registry): void {
  const registers = [registry]
  const counter = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset()
        this.inc(read())
      },
    })
  counter(
    'strata_answer_cache_hits_total',
    'Lookups answered from the answer cache (a snapshot surface, or a whole all-protocols answer)',
    () => cache.stats().hits,
  )
  counter(
    'strata_answer_cache_misses_total',
    'Lookups the answer cache could not answer (a snapshot surface then rendered, or an all-protocols answer then assembled)',
    () => cache.stats().misses,
  )
  counter(
    'strata_answer_cache_resets_total',
    'Times the answer cache was emptied, while holding entries, because the store or the configuration changed',
    () => cache.stats().resets,
  )
  new Gauge({
    name: 'strata_answer_cache_bytes',
    help: 'Estimated memory held by the answer cache (its budget is STRATA_ANSWER_CACHE_MB)',
    registers,
    collect() {
      this.set(cache.stats().bytes)
    },
  })
  new Gauge({
    name: 'strata_answer_cache_entries',
    help: 'Snapshot surfaces and all-protocols answers held by the answer cache',
    registers,
    collect() {
      this.set(cache.stats().entries)
    },
  })
}
