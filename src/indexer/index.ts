import { DatalakeError, type DatalakeOptions } from '../chain/datalake.ts'
import { isRetriableContinuity, LedgerContinuityError } from '../chain/ledger-continuity.ts'
import { createLedgerDecoder, type LedgerDecoder } from '../chain/ledger-decoder.ts'
import type { NetworkConfig } from '../chain/network.ts'
import {
  computeBackoffMs,
  createRpcClient,
  type RpcClient,
  type RpcClientOptions,
  sleep,
} from '../chain/rpc-client.ts'
import { createBackfillSource } from '../chain/source/backfill-source.ts'
import { createDatalakeSource } from '../chain/source/datalake-source.ts'
import type { LedgerSource } from '../chain/source/ledger-source.ts'
import { createRpcSource } from '../chain/source/rpc-source.ts'
import type { HealthBoard } from '../health.ts'
import type { Logger } from '../logger.ts'
import type { Database } from '../store/db.ts'
import { writeLedgerBatch } from '../store/ledger-data.ts'
import { bindNetwork, NetworkMismatchError } from '../store/network.ts'
import { type DecodingPage, decodeAhead } from './decode-ahead.ts'
import { acquireIndexerLock, type IndexerLock } from './indexer-lock.ts'
import { buildNetworkWatchList, createLedgerPipeline, loadResumePoint } from './ledger-pipeline.ts'

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
  /** Where the indexer reports its state and failures, for `/v1/health` (src/health.ts). */
  health?: HealthBoard
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
  const { database, logger, network, health } = options
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
  const source = createSource(options, client)
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
    lock: IndexerLock,
  ) {
    const resume = await loadResumePoint(database)
    if (resume.checkpoint !== null) notifyCommitted(resume.checkpoint)
    if (until !== undefined && resume.checkpoint !== null && resume.checkpoint >= until) return
    const window = await source.window(signal)
    const startLedger =
      resume.checkpoint !== null ? resume.checkpoint + 1 : (options.fromLedger ?? window.oldestLedger)
    if (started.fromLedger === null) {
      started.fromLedger = startLedger
      options.onStart?.({
        fromLedger: startLedger,
        resumedFrom: resume.checkpoint,
        headLedger: window.latestLedger,
        rpcOldestLedger: window.oldestLedger,
        backfill: source.backfills && startLedger < window.oldestLedger,
      })
    }
    const pipeline = createLedgerPipeline(database, network, resume, {
      ...(options.stateCacheAccounts !== undefined ? { stateCacheAccounts: options.stateCacheAccounts } : {}),
    })
    let lastWrite = Date.now()
    let latest = window.latestLedger

    const flush = async () => {
      const changes = pipeline.pendingChanges()
      const batch = pipeline.takeBatch(Date.now())
      if (batch === null) return
      // On the lock's writer: this batch commits only while this process holds the lock.
      await writeLedgerBatch(database, batch, lock.writer)
      pipeline.committed()
      lastWrite = Date.now()
      started.ingestedLedgers += batch.ledgers.length
      started.ingestedChanges += changes
      notifyCommitted(batch.lastLedger)
      // A committed batch proves the store takes writes again.
      health?.clear('store_writes')
      if (health !== undefined && (health.indexerState() !== 'running' || hasIndexerProblem(health))) {
        health.setIndexerState('running')
        health.clear('indexer')
      }
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
    const pages = source.pages(startLedger, until, AbortSignal.any([signal, pass.signal]))
    const ingestPage = async ({ page, decoding }: DecodingPage) => {
      latest = page.latestLedger
      const decoded = await decoding
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
      for await (const decoding of decodeAhead(pages, decoder)) await ingestPage(decoding)
    } finally {
      pass.abort()
    }
    await flush()
  }

  /** Every store behind the source must hold the network described, before anything is written. */
  async function requireSourceNetwork(signal: AbortSignal): Promise<void> {
    for await (const served of source.networks(signal)) {
      if (served.passphrase !== network.passphrase) {
        throw new NetworkMismatchError(
          `${served.servedBy} the network "${served.passphrase}", but the network description is "${network.passphrase}"`,
        )
      }
    }
  }

  /** Tells the health board the indexer is unwell; the next committed batch clears it. */
  function reportUnwell(state: 'retrying' | 'stopped', code: string, message: string): void {
    health?.setIndexerState(state)
    health?.report('indexer', code, message)
  }

  /**
   * Ingests while holding `lock`: returns 'done' when `until` is reached or the run is stopped,
   * 'lost' when the lock's connection is lost (the caller takes the lock again before writing).
   */
  async function ingestHolding(
    decoder: LedgerDecoder,
    lock: IndexerLock,
    signal: AbortSignal,
    until: number | undefined,
    progress: RunTotals,
    state: { networkChecked: boolean },
  ): Promise<'done' | 'lost'> {
    const combined = AbortSignal.any([signal, lock.lost])
    for (let failures = 0; !signal.aborted; ) {
      const committedBefore = progress.ingestedLedgers
      try {
        if (!state.networkChecked) {
          await requireSourceNetwork(combined)
          // Refuses a store of another network; API replicas describe contracts and assets from it.
          await bindNetwork(database, network, Date.now())
          state.networkChecked = true
        }
        await ingestOnce(decoder, combined, until, progress, lock)
        if (until !== undefined) return 'done'
      } catch (error) {
        if (signal.aborted) return 'done'
        // Another network's ledgers are refused, never retried: the store is left as it was.
        if (isFatal(error)) {
          reportUnwell('stopped', 'indexer_stopped', `the indexer stopped: ${errorText(error)}`)
          throw error
        }
        if (lock.lost.aborted) return 'lost'
        // A pass that committed before failing starts the back-off over.
        if (progress.ingestedLedgers > committedBefore) failures = 0
        const delayMs = computeBackoffMs(failures++, RESTART_BASE_DELAY_MS, RESTART_MAX_DELAY_MS)
        logger.error({ err: error, delayMs }, 'ingestion failed; resuming from the checkpoint')
        reportUnwell(
          'retrying',
          'indexer_retrying',
          `ingestion failed (${errorText(error)}); resuming from the checkpoint in ${delayMs} ms`,
        )
        await sleep(delayMs, combined).catch(() => {})
        if (lock.lost.aborted && !signal.aborted) return 'lost'
        continue
      }
      failures = 0
    }
    return 'done'
  }

  /**
   * Takes the indexer lock, ingests while holding it, and when its connection is lost (a database
   * restart, a failover, a terminated backend) takes it again and resumes from the checkpoint: a
   * lost lock stops this process's writes (its batches commit only on the lock's connection) but
   * never the indexer. Failing to take the lock (the database unreachable) is retried the same way.
   */
  async function ingest(signal: AbortSignal, until?: number): Promise<void> {
    // The decoding thread loads while the lock is taken (its XDR schemas take most of a second).
    const decoder = createLedgerDecoder(watched, { worker: options.decodeInWorker ?? true })
    const progress: RunTotals = {
      fromLedger: null,
      ingestedLedgers: 0,
      ingestedChanges: 0,
      startedAt: performance.now(),
    }
    const state = { networkChecked: false }
    try {
      for (let failures = 0; !signal.aborted; ) {
        let lock: IndexerLock
        try {
          lock = await acquireIndexerLock(database, logger, signal, () => {
            // Another process holds the lock and writes: waiting is this process's normal state.
            health?.setIndexerState('standby')
            health?.clear('indexer', 'indexer_lock_lost')
          })
        } catch (error) {
          if (signal.aborted) return
          const delayMs = computeBackoffMs(failures++, RESTART_BASE_DELAY_MS, RESTART_MAX_DELAY_MS)
          logger.error({ err: error, delayMs }, 'could not take the indexer lock; trying again')
          reportUnwell(
            'retrying',
            'indexer_lock_unavailable',
            `the indexer lock cannot be taken (${errorText(error)}); trying again in ${delayMs} ms`,
          )
          await sleep(delayMs, signal).catch(() => {})
          continue
        }
        // After a loss the state stays `retrying` until a batch commits under the new lock.
        if (health?.indexerState() !== 'retrying') health?.setIndexerState('running')
        const committedBefore = progress.ingestedLedgers
        let outcome: 'done' | 'lost'
        try {
          outcome = await ingestHolding(decoder, lock, signal, until, progress, state)
        } finally {
          await lock.release()
        }
        if (outcome === 'done') return
        if (progress.ingestedLedgers > committedBefore) failures = 0
        const delayMs = computeBackoffMs(failures++, RESTART_BASE_DELAY_MS, RESTART_MAX_DELAY_MS)
        logger.warn(
          { err: lock.lost.reason, delayMs },
          'lost the indexer lock; taking it again before writing, then resuming from the checkpoint',
        )
        reportUnwell(
          'retrying',
          'indexer_lock_lost',
          `the indexer lock's connection was lost (${errorText(lock.lost.reason)}); taking the lock again`,
        )
        await sleep(delayMs, signal).catch(() => {})
      }
    } finally {
      await decoder.close()
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

/** The RPC, behind the data lake when one is given: ledgers older than the RPC's come from the lake. */
function createSource(options: IndexerOptions, client: RpcClient): LedgerSource {
  const rpc = createRpcSource(client, {
    url: options.rpcUrl,
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
  })
  if (options.datalake === undefined) return rpc
  const lake = createDatalakeSource(options.datalake, {
    maxAttempts: Number.POSITIVE_INFINITY,
    ...options.datalakeOptions,
    onRetry: (info) => options.logger.warn(info, 'data lake read failed; retrying'),
  })
  return createBackfillSource(lake, rpc)
}

/** Whether the indexer has a problem on the board (cleared by the next committed batch). */
function hasIndexerProblem(health: HealthBoard): boolean {
  return health.problems().some((problem) => problem.component === 'indexer')
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Failures that resuming from the checkpoint cannot fix: another chain or network, a broken lake. */
function isFatal(error: unknown): boolean {
  return (
    (error instanceof LedgerContinuityError && !isRetriableContinuity(error)) ||
    error instanceof NetworkMismatchError ||
    error instanceof DatalakeError
  )
}
