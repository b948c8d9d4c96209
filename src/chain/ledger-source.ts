import { type PageLedger, type RpcClient, sleep } from './rpc-client.ts'

/** `getLedgers` returns at most this many ledgers per call. */
export const GET_LEDGERS_MAX_LIMIT = 200
export const HEAD_POLL_INTERVAL_MS = 1000
/**
 * What one page may weigh (base64 metadata). A mainnet ledger is ~100-900 KB of XDR, so 200 of
 * them would make a response of tens to hundreds of MB, too near V8's string limit and memory.
 */
export const DEFAULT_MAX_PAGE_BYTES = 16 * 1024 * 1024

/** The source returned a ledger other than the next one: a hole is never silently skipped. */
export class LedgerSequenceError extends Error {
  constructor(expected: number, got: number) {
    super(`ledger source out of sequence: expected ledger ${expected}, got ${got}`)
    this.name = 'LedgerSequenceError'
  }
}

export interface LedgerPage {
  /** Each ledger's metadata is base64, as a string or where it stands in the response body. */
  ledgers: PageLedger[]
  /** The chain head as the server reported it with this page. */
  latestLedger: number
}

export interface LedgerSourceOptions {
  client: RpcClient
  /** First ledger to deliver. */
  startLedger: number
  pageSize?: number
  pollIntervalMs?: number
  /** Stop after delivering this ledger (inclusive); follow the head forever when absent. */
  endLedger?: number
  /** The page limit shrinks so that pages of ledgers the size of those seen stay under this. */
  maxPageBytes?: number
  signal?: AbortSignal
}

/**
 * Pages of contiguous ledgers from `startLedger` on, following the head once caught up. The next
 * page is requested while the caller works on the current one. Pages continue by cursor; every
 * ledger's sequence is checked against the one expected, so a skipped ledger throws.
 */
export async function* streamLedgerPages(options: LedgerSourceOptions): AsyncGenerator<LedgerPage> {
  const { client, signal } = options
  const pageSize = Math.min(options.pageSize ?? GET_LEDGERS_MAX_LIMIT, GET_LEDGERS_MAX_LIMIT)
  const pollIntervalMs = options.pollIntervalMs ?? HEAD_POLL_INTERVAL_MS
  const end = options.endLedger ?? Number.POSITIVE_INFINITY
  const maxPageBytes = options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES
  let next = options.startLedger
  let latest = -1
  let cursor: string | null = null
  // Largest ledger seen lately (decaying), so one heavy ledger shrinks the next pages at once.
  let ledgerBytes = 0

  async function fetchPage(): Promise<LedgerPage | null> {
    if (next > end) return null
    while (next > latest) {
      latest = (await client.getLatestLedger(signal)).sequence
      if (next <= latest) break
      await sleep(pollIntervalMs, signal)
    }
    const bySize = ledgerBytes > 0 ? Math.floor(maxPageBytes / ledgerBytes) : pageSize
    const limit = Math.max(1, Math.min(pageSize, bySize, end - next + 1, latest - next + 1))
    const result = await client.getLedgerPage(
      cursor === null ? { startLedger: next, limit } : { cursor, limit },
      signal,
    )
    latest = Math.max(latest, result.latestLedger)
    const ledgers: PageLedger[] = []
    for (const ledger of result.ledgers) {
      if (ledger.sequence > end) break
      if (ledger.sequence !== next) throw new LedgerSequenceError(next, ledger.sequence)
      const size = typeof ledger.meta === 'string' ? ledger.meta.length : ledger.meta.end - ledger.meta.start
      ledgerBytes = Math.max(size, Math.floor(ledgerBytes * 0.9))
      ledgers.push(ledger)
      next++
    }
    // Continue by cursor only when it stands exactly after what was delivered.
    cursor = ledgers.length > 0 && result.cursor === String(next - 1) ? result.cursor : null
    if (ledgers.length === 0) await sleep(pollIntervalMs, signal)
    return { ledgers, latestLedger: latest }
  }

  let pending = fetchPage()
  try {
    while (true) {
      const page = await pending
      if (page === null) return
      pending = fetchPage()
      // A rejected prefetch must not surface as unhandled while the consumer is busy.
      pending.catch(() => {})
      if (page.ledgers.length > 0) yield page
    }
  } finally {
    pending.catch(() => {})
  }
}
