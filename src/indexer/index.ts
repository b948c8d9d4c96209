import { type Datalake, DatalakeError, type DatalakeOptions, openDatalake } from '../chain/datalake.ts'
import type { DecodedLedger } from '../chain/decode-ledger.ts'
import { createLedgerDecoder, type LedgerDecoder, type RawMeta } from '../chain/ledger-decoder.ts'
import { streamLedgerPages } from '../chain/ledger-source.ts'
import type { NetworkConfig } from '../chain/network.ts'
import { computeBackoffMs, createRpcClient, type RpcClientOptions, sleep } from '../chain/rpc-client.ts'
import type { Logger } from '../logger.ts'
import type { Database } from '../store/db.ts'
import { LedgerChainError, writeLedgerBatch } from '../store/ledger-data.ts'
import { bindNetwork, NetworkMismatchError } from '../store/network.ts'
import { acquireIndexerLock } from './indexer-lock.ts'
import { buildNetworkWatchList, createLedgerPipeline, loadResumePoint } from './ledger-pipeline.ts'

/**
 * Pages with their decoding already under way: as soon as the source delivers page N+1 its decoding
 * starts (on the decoder's thread) while the consumer still adapts and writes page N, and the source
 * fetches page N+2. At the head a page is handed over at once, not held for a next one.
 */
/** Ledgers as a source delivers them: raw meta, and the hash when the source states it apart (RPC). */
interface SourcePage {
  ledgers: { sequence: number; hash: string | null; meta: RawMeta }[]
  /** The chain head as last reported, for progress. */
  latestLedger: number
}

async function* decodeAhead(
  pages: AsyncIterable<SourcePage>,
  decoder: LedgerDecoder,
): AsyncGenerator<{ page: SourcePage; decoding: Promise<DecodedLedger[]> }> {
  const iterator = pages[Symbol.asyncIterator]()
  const pull = () =>
    iterator.next().then((result) => {
      if (result.done) return null
      const decoding = decoder.decode(result.value.ledgers.map((l) => l.meta))
      decoding.catch(() => {})
      return { page: result.value, decoding }
    })
  let next = pull()
  try {
    while (true) {
      const current = await next
      if (current === null) return
      next = pull()
      next.catch(() => {})
      yield current
    }
  } finally {
    // Not awaited: a fetch under way ends with the caller's abort, not here.
    iterator.return?.().catch(() => {})
  }
}

/** Ledgers (and bytes of XDR) gathered from data-lake objects into one page for the decoder. */
const LAKE_PAGE_LEDGERS = 200
const LAKE_PAGE_BYTES = 12 * 1024 * 1024

/** Ledgers per write transaction while catching up; at the head every page is written at once. */
export const DEFAULT_BATCH_SIZE = 1000
/** A batch is written at least this often, so a slow source still shows progress. */
export const MAX_BATCH_AGE_MS = 2000
const RESTART_BASE_DELAY_MS = 500
const RESTART_MAX_DELAY_MS = 30_000

export interface IndexerProgress {
  /** The first ledger this run ingested (a restart within the run keeps it). */
  fromLedger: number
  /** The checkpoint just committed. */
  lastLedger: number
  /** The chain head as last reported by the source. */
  latestLedger: number
  /** Ledgers and contract changes (data changes + events) committed since this run started. */
  ingestedLedgers: number
  ingestedChanges: number
  elapsedMs: number
}

/** Where a run starts, told once before its first ledger is read. */
export interface IndexerStart {
  /** The first ledger this run ingests. */
  fromLedger: number
  /** The checkpoint it continues from; null for an empty store. */
  resumedFrom: number | null
  /** The RPC's head and oldest ledger at the start. */
  headLedger: number
  rpcOldestLedger: number
  /** Whether ledgers below the RPC's oldest come from the data lake first. */
  backfill: boolean
}

interface RunTotals {
  /** Set by the run's first pass. */
  fromLedger: number | null
  ingestedLedgers: number
  ingestedChanges: number
  startedAt: number
}

export interface IndexerOptions {
  database: Database
  logger: Logger
  rpcUrl: string
  network: NetworkConfig
  /** Where an empty store starts; the source's oldest ledger when absent. Ignored once a checkpoint exists. */
  fromLedger?: number
  batchSize?: number
  /** Ledgers per getLedgers call (at most 200). */
  pageSize?: number
  pollIntervalMs?: number
  rpc?: Omit<RpcClientOptions, 'url'>
  /**
   * A SEP-54 data lake (directory or http(s) URL) to backfill from: ledgers older than the RPC's
   * oldest come from it, then ingestion hands over to the RPC.
   */
  datalake?: string
  datalakeOptions?: Omit<DatalakeOptions, 'onRetry'>
  /** Decode on a worker thread, beside fetching and writing (default true). */
  decodeInWorker?: boolean
  /** Accounts whose protocol state stays cached between batches (the store holds the rest). */
  stateCacheAccounts?: number
  /** Called once a run knows where it starts, before it reads a ledger. */
  onStart?: (start: IndexerStart) => void
  /** Called after every committed batch. */
  onProgress?: (progress: IndexerProgress) => void
}

export interface Indexer {
  /** Ingests and follows the head until the signal aborts; transient failures resume from the checkpoint. */
  run(signal?: AbortSignal): Promise<void>
  /** Ingests up to `ledger` (inclusive), then resolves. */
  syncTo(ledger: number, signal?: AbortSignal): Promise<void>
  /** The committed checkpoint, or null before the first one is known. */
  lastIndexedLedger(): number | null
}

export function createIndexer(options: IndexerOptions): Indexer {
  const { database, logger, network } = options
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
  const watched = buildNetworkWatchList(network)
  // A transient failure is retried where it happened, for as long as it lasts: the pipeline and its
  // pending rows are kept. Only a failure retrying cannot fix restarts the pass from the checkpoint.
  const client = createRpcClient({
    url: options.rpcUrl,
    maxAttempts: Number.POSITIVE_INFINITY,
    onRetry: (info) => logger.warn(info, 'RPC call failed; retrying'),
    ...options.rpc,
  })
  let lake: Datalake | null = null
  let checkpoint: number | null = null
  let active: Promise<void> | null = null
  const waiters = new Set<() => void>()

  function notifyCommitted(ledger: number): void {
    checkpoint = ledger
    for (const wake of waiters) wake()
  }

  /** One pass from the store's checkpoint; returns when `until` is reached or throws on any failure. */
  async function ingestOnce(
    decoder: LedgerDecoder,
    signal: AbortSignal,
    until: number | undefined,
    started: RunTotals,
  ) {
    const resume = await loadResumePoint(database)
    if (resume.checkpoint !== null) notifyCommitted(resume.checkpoint)
    if (until !== undefined && resume.checkpoint !== null && resume.checkpoint >= until) return
    const health = await client.getHealth(signal)
    const startLedger =
      resume.checkpoint !== null ? resume.checkpoint + 1 : (options.fromLedger ?? health.oldestLedger)
    if (started.fromLedger === null) {
      started.fromLedger = startLedger
      options.onStart?.({
        fromLedger: startLedger,
        resumedFrom: resume.checkpoint,
        headLedger: health.latestLedger,
        rpcOldestLedger: health.oldestLedger,
        backfill: lake !== null && startLedger < health.oldestLedger,
      })
    }
    const pipeline = createLedgerPipeline(database, network, resume, {
      ...(options.stateCacheAccounts !== undefined ? { stateCacheAccounts: options.stateCacheAccounts } : {}),
    })
    let lastWrite = Date.now()
    let latest = health.latestLedger

    const flush = async () => {
      const changes = pipeline.pendingChanges()
      const batch = pipeline.takeBatch(Date.now())
      if (batch === null) return
      await writeLedgerBatch(database, batch)
      pipeline.committed()
      lastWrite = Date.now()
      started.ingestedLedgers += batch.ledgers.length
      started.ingestedChanges += changes
      notifyCommitted(batch.lastLedger)
      logger.debug({ lastLedger: batch.lastLedger, ledgers: batch.ledgers.length }, 'batch committed')
      options.onProgress?.({
        fromLedger: started.fromLedger ?? startLedger,
        lastLedger: batch.lastLedger,
        latestLedger: latest,
        ingestedLedgers: started.ingestedLedgers,
        ingestedChanges: started.ingestedChanges,
        elapsedMs: performance.now() - started.startedAt,
      })
    }

    // Ends the source's own prefetch and head polling when this pass ends, however it ends.
    const pass = new AbortController()
    const pages = sourcePages(startLedger, until, AbortSignal.any([signal, pass.signal]))
    const ingestPage = async (page: SourcePage, decoding: Promise<DecodedLedger[]>) => {
      latest = page.latestLedger
      const decoded = await decoding
      decoded.forEach((ledger, i) => {
        const served = page.ledgers[i]!
        if (
          ledger.sequence !== served.sequence ||
          (served.hash !== null && ledger.hash !== served.hash.toLowerCase())
        ) {
          throw new Error(`ledger ${served.sequence}: metadata does not match the ledger it was served as`)
        }
      })
      // A batch is committed as soon as it is full, so a page may straddle two batches.
      for (let i = 0; i < decoded.length; ) {
        const room = Math.max(1, batchSize - pipeline.pendingLedgers())
        await pipeline.addLedgers(decoded.slice(i, i + room))
        i += room
        if (pipeline.pendingLedgers() >= batchSize) await flush()
      }
      const atHead = (pipeline.nextLedger() ?? 0) > latest
      if (pipeline.pendingLedgers() >= batchSize || atHead || Date.now() - lastWrite >= MAX_BATCH_AGE_MS) {
        await flush()
      }
    }

    try {
      for await (const { page, decoding } of decodeAhead(pages, decoder)) await ingestPage(page, decoding)
    } finally {
      pass.abort()
    }
    await flush()
  }

  /**
   * Ledgers from `start` on: from the data lake while they are older than the RPC's oldest ledger
   * (asked again after each stretch, since the RPC's window moves on while a backfill runs), then
   * from the RPC. One sequence throughout: no gap, no ledger twice.
   */
  async function* sourcePages(start: number, until: number | undefined, signal: AbortSignal) {
    let next = start
    if (lake) {
      for (;;) {
        const health = await client.getHealth(signal)
        const lakeEnd = Math.min(health.oldestLedger - 1, until ?? Number.POSITIVE_INFINITY)
        if (next > lakeEnd) break
        // A lake object holds one ledger on mainnet: objects are gathered into pages as large as
        // the RPC's, since every page costs a hand-off to the decoding thread and a pass of the adapters.
        let gathered: SourcePage['ledgers'] = []
        let bytes = 0
        const take = () => {
          const page = { ledgers: gathered, latestLedger: health.latestLedger } satisfies SourcePage
          next = gathered[gathered.length - 1]!.sequence + 1
          gathered = []
          bytes = 0
          return page
        }
        for await (const object of lake.ledgers(next, lakeEnd, signal)) {
          for (const l of object) {
            gathered.push({ sequence: l.sequence, hash: null, meta: l.meta })
            bytes += l.meta.byteLength
          }
          if (gathered.length >= LAKE_PAGE_LEDGERS || bytes >= LAKE_PAGE_BYTES) yield take()
        }
        if (gathered.length > 0) yield take()
      }
    }
    if (until !== undefined && next > until) return
    const pages = streamLedgerPages({
      client,
      startLedger: next,
      ...(until !== undefined ? { endLedger: until } : {}),
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
      signal,
    })
    for await (const page of pages) {
      yield { ledgers: page.ledgers, latestLedger: page.latestLedger } satisfies SourcePage
    }
  }

  /** Every source must serve the network described, before anything is written. */
  async function requireSourceNetwork(signal: AbortSignal): Promise<void> {
    const { passphrase } = await client.getNetwork(signal)
    if (passphrase !== network.passphrase) {
      throw new NetworkMismatchError(
        `${options.rpcUrl} serves the network "${passphrase}", but the network description is "${network.passphrase}"`,
      )
    }
    if (options.datalake !== undefined && lake === null) {
      lake = await openDatalake(options.datalake, {
        maxAttempts: Number.POSITIVE_INFINITY,
        ...options.datalakeOptions,
        onRetry: (info) => logger.warn(info, 'data lake read failed; retrying'),
      })
    }
    if (lake && lake.manifest.networkPassphrase !== network.passphrase) {
      throw new NetworkMismatchError(
        `the data lake ${options.datalake} holds the network "${lake.manifest.networkPassphrase}", but the network description is "${network.passphrase}"`,
      )
    }
  }

  async function ingest(signal: AbortSignal, until?: number): Promise<void> {
    // The decoding thread loads while the lock is taken (its XDR schemas take most of a second).
    const decoder = createLedgerDecoder(watched, { worker: options.decodeInWorker ?? true })
    const lock = await acquireIndexerLock(database, logger, signal).catch(async (error: unknown) => {
      await decoder.close()
      throw error
    })
    const combined = AbortSignal.any([signal, lock.lost])
    const progress: RunTotals = {
      fromLedger: null,
      ingestedLedgers: 0,
      ingestedChanges: 0,
      startedAt: performance.now(),
    }
    let networkChecked = false
    try {
      for (let failures = 0; !signal.aborted; ) {
        try {
          if (!networkChecked) {
            await requireSourceNetwork(combined)
            // Refuses a store of another network; API replicas describe contracts and assets from it.
            await bindNetwork(database, network, Date.now())
            networkChecked = true
          }
          await ingestOnce(decoder, combined, until, progress)
          if (until !== undefined) return
        } catch (error) {
          if (signal.aborted) return
          // Another network's ledgers are refused, never retried: the store is left as it was.
          if (
            error instanceof LedgerChainError ||
            error instanceof NetworkMismatchError ||
            error instanceof DatalakeError
          )
            throw error
          if (lock.lost.aborted) throw new Error('lost the indexer lock', { cause: lock.lost.reason })
          const delayMs = computeBackoffMs(failures++, RESTART_BASE_DELAY_MS, RESTART_MAX_DELAY_MS)
          logger.error({ err: error, delayMs }, 'ingestion failed; resuming from the checkpoint')
          await sleep(delayMs, signal).catch(() => {})
          continue
        }
        failures = 0
      }
    } finally {
      await decoder.close()
      await lock.release()
    }
  }

  async function run(signal: AbortSignal = new AbortController().signal): Promise<void> {
    while (active !== null) await active.catch(() => {})
    active = ingest(signal)
    try {
      await active
    } finally {
      active = null
    }
  }

  async function syncTo(ledger: number, signal: AbortSignal = new AbortController().signal): Promise<void> {
    if (checkpoint !== null && checkpoint >= ledger) return
    if (active === null) {
      active = ingest(signal, ledger)
      try {
        await active
      } finally {
        active = null
      }
      if (checkpoint === null || checkpoint < ledger) signal.throwIfAborted()
      return
    }
    const running = active
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        if (checkpoint !== null && checkpoint >= ledger) done(resolve)
      }
      const done = (settle: () => void) => {
        waiters.delete(wake)
        settle()
      }
      waiters.add(wake)
      running.then(
        () =>
          done(() =>
            checkpoint !== null && checkpoint >= ledger ? resolve() : reject(new Error('indexer stopped')),
          ),
        (error: unknown) => done(() => reject(error)),
      )
      signal.addEventListener('abort', () => done(() => reject(signal.reason)), { once: true })
      wake()
    })
  }

  return { run, syncTo, lastIndexedLedger: () => checkpoint }
}
