/**
 * Progress of one ingestion run, as people read it: how much of the range this run set out to
 * ingest is done (from its first ledger to the head as last known, which moves on while it runs),
 * the rate over a recent window (a lifetime average hides a slowdown, and lags a speed-up, for
 * minutes), and the time left at that rate. Pure: the commands feed it samples and print the view.
 */

/** The committed checkpoint at a moment. */
export interface ProgressSample {
  atMs: number
  ledger: number
}

export interface ProgressInput {
  /** The first ledger this run ingests. */
  fromLedger: number
  /** The last committed ledger. */
  lastLedger: number
  /** The chain head as last reported by the source. */
  headLedger: number
  /** Checkpoints, oldest first, the current one last; the run's start as `fromLedger - 1`. */
  samples: readonly ProgressSample[]
  nowMs: number
  windowMs: number
}

export interface ProgressView {
  fromLedger: number
  lastLedger: number
  headLedger: number
  /** Share of [fromLedger, headLedger] ingested, 0..1. */
  fraction: number
  /** Ledgers still to ingest to reach the head. */
  remaining: number
  /** Ledgers per second over the recent window; null until two checkpoints are apart in time. */
  ledgersPerSecond: number | null
  /** Seconds to the head at the current rate; 0 at the head, null when the rate is unknown or 0. */
  etaSeconds: number | null
  atHead: boolean
}

export const PROGRESS_WINDOW_MS = 10_000

export function computeProgress(input: ProgressInput): ProgressView {
  const { fromLedger, lastLedger, samples, nowMs, windowMs } = input
  const headLedger = Math.max(input.headLedger, lastLedger)
  const total = headLedger - fromLedger + 1
  const done = Math.max(0, lastLedger - fromLedger + 1)
  const fraction = total > 0 ? Math.min(1, done / total) : 1
  const remaining = Math.max(0, headLedger - lastLedger)
  // The rate from the newest checkpoint at least a window old (or the oldest one kept) to now:
  // a stall shows as a falling rate, not as the last batch's speed frozen on screen.
  const windowStart = nowMs - windowMs
  let base: ProgressSample | undefined
  for (const sample of samples) {
    if (sample.atMs <= windowStart) base = sample
    else break
  }
  base ??= samples[0]
  const ledgersPerSecond =
    base !== undefined && nowMs > base.atMs ? ((lastLedger - base.ledger) * 1000) / (nowMs - base.atMs) : null
  let etaSeconds: number | null = null
  if (remaining === 0) etaSeconds = 0
  else if (ledgersPerSecond !== null && ledgersPerSecond > 0) etaSeconds = remaining / ledgersPerSecond
  return {
    fromLedger,
    lastLedger,
    headLedger,
    fraction,
    remaining,
    ledgersPerSecond,
    etaSeconds,
    atHead: remaining === 0,
  }
}

/**
 * Keeps the checkpoints of one run, enough for the window, and computes the view. The run's start
 * counts as a checkpoint (nothing of the range done), so the first batch already has a rate.
 */
export function createProgressTracker(
  fromLedger: number,
  startedAtMs: number,
  windowMs = PROGRESS_WINDOW_MS,
) {
  const samples: ProgressSample[] = [{ atMs: startedAtMs, ledger: fromLedger - 1 }]
  return {
    record(lastLedger: number, headLedger: number, nowMs: number): ProgressView {
      samples.push({ atMs: nowMs, ledger: lastLedger })
      // One sample older than the window is all the rate needs.
      while (samples.length > 2 && samples[1]!.atMs <= nowMs - windowMs) samples.shift()
      return computeProgress({ fromLedger, lastLedger, headLedger, samples, nowMs, windowMs })
    },
  }
}

/** `45s`, `3m 20s`, `2h 05m`. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

function rateText(view: ProgressView): string {
  return view.ledgersPerSecond === null ? '… ledgers/s' : `${Math.round(view.ledgersPerSecond)} ledgers/s`
}

function etaText(view: ProgressView): string {
  if (view.atHead) return 'at the head'
  return view.etaSeconds === null ? 'ETA unknown' : `ETA ${formatDuration(view.etaSeconds)}`
}

/** One terminal line with a bar: `ledgers 1000..5000 [#####-----] 50% ledger 3000, 120 ledgers/s, ETA 16s`. */
export function formatProgressBar(view: ProgressView, width = 30): string {
  const filled = Math.round(view.fraction * width)
  const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`
  const percent = Math.floor(view.fraction * 100)
  return `ledgers ${view.fromLedger}..${view.headLedger} [${bar}] ${percent}% ledger ${view.lastLedger}, ${rateText(view)}, ${etaText(view)}`
}

/** The same as a sentence, for a log or a line among others. */
export function formatProgressLine(view: ProgressView): string {
  const percent = Math.floor(view.fraction * 100)
  if (view.atHead) return `indexer: at the head, ledger ${view.lastLedger}; following new ledgers`
  return `indexer: ledger ${view.lastLedger} of ${view.fromLedger}..${view.headLedger} (${percent}%), ${rateText(view)}, ${etaText(view)}`
}
