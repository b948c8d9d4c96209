import type { NetworkConfig } from '../chain/network.ts'
import type { IndexerProgress, IndexerStart } from '../indexer/index.ts'
import {
  createProgressTracker,
  formatProgressBar,
  formatProgressLine,
  type ProgressView,
} from '../indexer/progress.ts'
import type { Logger } from '../logger.ts'
import { indexedContracts } from '../protocols/registry.ts'

/** What the indexer watches, in words: the network, then its contracts counted by kind. */
export function describeNetwork(network: NetworkConfig): string[] {
  const contracts = indexedContracts(network)
  const byKind = new Map<string, { count: number; protocol: string }>()
  for (const c of contracts) {
    const seen = byKind.get(c.kind)
    byKind.set(c.kind, { count: (seen?.count ?? 0) + 1, protocol: c.protocol })
  }
  const kinds = [...byKind].map(([kind, { count, protocol }]) => `${count} ${kind} (${protocol})`)
  return [
    `network: ${network.name} ("${network.passphrase}")`,
    `watching ${contracts.length} contract${contracts.length === 1 ? '' : 's'}: ${kinds.join(', ')}`,
  ]
}

/** Where the run starts and why, and the range it sets out to ingest. */
export function describeStart(start: IndexerStart, rpcUrl: string): string {
  const why =
    start.resumedFrom !== null
      ? `resuming after checkpoint ${start.resumedFrom}`
      : start.fromLedger === start.rpcOldestLedger
        ? "from the RPC's oldest ledger"
        : 'from the requested first ledger'
  const lake = start.backfill ? `; ledgers before ${start.rpcOldestLedger} from the data lake` : ''
  const range =
    start.fromLedger > start.headLedger
      ? `at the head (ledger ${start.headLedger}), following new ledgers`
      : `ingesting ledgers ${start.fromLedger}..${start.headLedger} (${start.headLedger - start.fromLedger + 1} ledgers to the head)`
  return `${range} from ${rpcUrl}, ${why}${lake}`
}

/**
 * - `bar`: one terminal line redrawn after each batch (`strata index` on a terminal);
 * - `lines`: a line every few seconds while catching up and one on reaching the head, for a
 *   terminal shared with request logs (`strata serve`);
 * - `log`: log records with the same figures, for machines.
 */
export type ProgressMode = 'bar' | 'lines' | 'log'

/** How often a `lines` or `log` report is written while catching up, and at the head. */
export const PROGRESS_EVERY_MS = 5000
export const PROGRESS_AT_HEAD_EVERY_MS = 60_000

export interface ProgressReporter {
  onStart(start: IndexerStart): void
  onProgress(progress: IndexerProgress): void
  /** Ends a redrawn bar's line. */
  finish(): void
}

export function createProgressReporter(options: {
  mode: ProgressMode
  logger: Logger
  rpcUrl: string
  network: NetworkConfig
  /** Where `bar` and `lines` go (stderr). */
  write: (text: string) => void
  now?: () => number
}): ProgressReporter {
  const { mode, logger, write } = options
  const now = options.now ?? Date.now
  let tracker: ReturnType<typeof createProgressTracker> | null = null
  let lastShown = 0
  let wasAtHead = false
  let barShown = false

  const shouldShow = (view: ProgressView, at: number): boolean => {
    const reachedHead = view.atHead && !wasAtHead
    wasAtHead = view.atHead
    if (reachedHead) return true
    if (view.atHead && mode === 'lines') return false
    return at - lastShown >= (view.atHead ? PROGRESS_AT_HEAD_EVERY_MS : PROGRESS_EVERY_MS)
  }

  return {
    onStart(start) {
      tracker = createProgressTracker(start.fromLedger, now())
      const text = describeStart(start, options.rpcUrl)
      if (mode === 'log') {
        logger.info(
          {
            network: options.network.name,
            contracts: indexedContracts(options.network).length,
            fromLedger: start.fromLedger,
            headLedger: start.headLedger,
            resumedFrom: start.resumedFrom,
          },
          `indexer: ${text}`,
        )
      } else write(`indexer: ${text}\n`)
    },
    onProgress(p) {
      const at = now()
      tracker ??= createProgressTracker(p.fromLedger, at - p.elapsedMs)
      const view = tracker.record(p.lastLedger, p.latestLedger, at)
      if (mode === 'bar') {
        write(`\r${formatProgressBar(view)}\x1b[K`)
        barShown = true
        return
      }
      if (!shouldShow(view, at)) return
      lastShown = at
      if (mode === 'lines') {
        write(`${formatProgressLine(view)}\n`)
        return
      }
      logger.info(
        {
          fromLedger: view.fromLedger,
          lastLedger: view.lastLedger,
          latestLedger: view.headLedger,
          percent: Math.floor(view.fraction * 100),
          lag: view.remaining,
          ledgersPerSecond: view.ledgersPerSecond === null ? null : Math.round(view.ledgersPerSecond),
          etaSeconds: view.etaSeconds === null ? null : Math.round(view.etaSeconds),
          ingestedLedgers: p.ingestedLedgers,
        },
        'indexer progress',
      )
    },
    finish() {
      if (barShown) write('\n')
      barShown = false
    },
  }
}
