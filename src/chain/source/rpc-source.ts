import { checkNextLedger } from '../ledger-continuity.ts'
import { type PageLedger, type RpcClient, sleep } from '../rpc-client.ts'
import type { LedgerSource } from './ledger-source.ts'

/** `getLedgers` returns at most this many ledgers per call. */
export const GET_LEDGERS_MAX_LIMIT = 200
/** How often the head is asked for once the stream has caught up with it. */
export const HEAD_POLL_INTERVAL_MS = 1000
/**
 * What one page may weigh (base64 metadata). A mainnet ledger is ~100-900 KB of XDR, so 200 of
 * them would make a response of tens to hundreds of MB, too near V8's string limit and memory.
 */
export const DEFAULT_MAX_PAGE_BYTES = 16 * 1024 * 1024

/** One `getLedgers` page of the stream. */
export interface LedgerPage {
  /** Each ledger's metadata is base64, as a string or where it stands in the response body. */
  ledgers: PageLedger[]
  /** The chain head as the server reported it with this page. */
  latestLedger: number
}

/** Where the RPC stream starts and ends, and how it pages. */
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
 * ledger's sequence is checked against the one expected, so a skipped ledger throws
 * LedgerContinuityError.
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
      checkNextLedger({ sequence: next - 1 }, ledger, 'ledger source out of sequence')
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

/** How an RPC source pages (see LedgerSourceOptions). */
export interface RpcSourceOptions {
  /** The RPC's URL, as messages name it. */
  url: string
  pageSize?: number
  pollIntervalMs?: number
  maxPageBytes?: number
}

/** Stellar RPC as a ledger source: its retention window (about the last 7 days), then the head. */
export function createRpcSource(client: RpcClient, options: RpcSourceOptions): LedgerSource {
  return {
    backfills: false,
    async *networks(signal) {
      const { passphrase } = await client.getNetwork(signal)
      yield { passphrase, servedBy: `${options.url} serves` }
    },
    async window(signal) {
      const health = await client.getHealth(signal)
      return { oldestLedger: health.oldestLedger, latestLedger: health.latestLedger }
    },
    pages: (from, to, signal) =>
      streamLedgerPages({
        client,
        startLedger: from,
        ...(to !== undefined ? { endLedger: to } : {}),
        ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
        ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
        ...(options.maxPageBytes !== undefined ? { maxPageBytes: options.maxPageBytes } : {}),
        signal,
      }),
  }
}
