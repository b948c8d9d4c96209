import { isAscii } from 'node:buffer'
import { type HttpResult, httpTransport } from './http-transport.ts'
/**
 * A Stellar RPC JSON-RPC client for what ingestion needs, over node:http(s) (or a given fetch).
 * Every call has a timeout and is retried with exponential backoff and full jitter when the failure
 * may be transient: transport errors, timeouts, HTTP 5xx, HTTP 429 (waiting at least Retry-After),
 * a truncated or invalid body, and JSON-RPC internal errors. Other JSON-RPC errors (bad parameters,
 * ledger out of range) are not.
 */

export const RPC_TIMEOUT_MS = 10_000
export const RPC_MAX_ATTEMPTS = 10
export const RPC_BASE_DELAY_MS = 100
export const RPC_MAX_DELAY_MS = 10_000

/** One ledger as `getLedgers` returns it. */
export interface RpcLedger {
  hash: string
  sequence: number
  ledgerCloseTime: string
  headerXdr?: string
  /** Base64 LedgerCloseMeta. */
  metadataXdr: string
}

/**
 * Base64 text that stands in a response body, bytes [start, end) of `body`: a ledger's metadata as
 * `getLedgerPage` leaves it, never copied into a string of its own on the thread that fetched it.
 */
export interface Base64Span {
  body: Uint8Array
  start: number
  end: number
}

/** One ledger of `getLedgerPage`: its metadata as a string, or where it stands in the body. */
export interface PageLedger {
  hash: string
  sequence: number
  ledgerCloseTime: string
  meta: string | Base64Span
}

export interface LedgerPageResult {
  ledgers: PageLedger[]
  latestLedger: number
  oldestLedger: number
  cursor: string
}

export interface GetLedgersResult {
  ledgers: RpcLedger[]
  latestLedger: number
  latestLedgerCloseTime?: number | string
  oldestLedger: number
  oldestLedgerCloseTime?: number | string
  cursor: string
}

export interface GetLatestLedgerResult {
  id: string
  protocolVersion: number
  sequence: number
}

export interface GetNetworkResult {
  passphrase: string
  protocolVersion: number
  friendbotUrl?: string
}

export interface GetHealthResult {
  status: string
  latestLedger: number
  oldestLedger: number
  ledgerRetentionWindow: number
}

type RpcLedgerOrSpan = Omit<RpcLedger, 'metadataXdr'> & { metadataXdr: string | Base64Span }

/** The server answered with a JSON-RPC error that retrying will not fix. */
export class RpcError extends Error {
  readonly code: number
  constructor(method: string, code: number, message: string) {
    super(`${method}: RPC error ${code}: ${message}`)
    this.name = 'RpcError'
    this.code = code
  }
}

/** A failure worth another attempt; `retryAfterMs` is the server's own minimum wait (429). */
class TransientRpcError extends Error {
  readonly retryAfterMs: number
  constructor(message: string, retryAfterMs = 0, cause?: unknown) {
    super(message, { cause })
    this.name = 'TransientRpcError'
    this.retryAfterMs = retryAfterMs
  }
}

export interface RpcClientOptions {
  url: string
  timeoutMs?: number
  maxAttempts?: number
  baseDelayMs?: number
  maxDelayMs?: number
  /** Told about every retried failure (for logs). */
  onRetry?: (info: { method: string; attempt: number; delayMs: number; error: string }) => void
  /** Calls go through this instead of node:http(s) (tests; a URL other than http: or https:). */
  fetch?: typeof fetch
}

export interface RpcClient {
  getLedgers(
    params: { startLedger: number; limit: number } | { cursor: string; limit: number },
    signal?: AbortSignal,
  ): Promise<GetLedgersResult>
  /**
   * `getLedgers`, with every ledger's metadata left where it stands in the response body: a page is
   * tens of MB of base64, and as strings it would be copied into the heap twice (the body, then
   * each value) only to be copied again to the decoding thread and decoded there.
   */
  getLedgerPage(
    params: { startLedger: number; limit: number } | { cursor: string; limit: number },
    signal?: AbortSignal,
  ): Promise<LedgerPageResult>
  getLatestLedger(signal?: AbortSignal): Promise<GetLatestLedgerResult>
  getHealth(signal?: AbortSignal): Promise<GetHealthResult>
  getNetwork(signal?: AbortSignal): Promise<GetNetworkResult>
}

/** Seconds or an HTTP date, as RFC 9110 allows; 0 when absent or unreadable. */
export function parseRetryAfterMs(value: string | null, now = Date.now()): number {
  if (value === null || value.trim() === '') return 0
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? 0 : Math.max(0, date - now)
}

/** Full jitter: uniform in [0, min(max, base × 2^attempt)], never below the server's Retry-After. */
export function computeBackoffMs(attempt: number, base: number, max: number, floorMs = 0): number {
  const ceiling = Math.min(max, base * 2 ** attempt)
  return Math.max(floorMs, Math.floor(Math.random() * ceiling))
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * A response body as text. A getLedgers page is tens of MB of base64 and JSON, all ASCII: read as
 * Latin-1 when it is ASCII, a plain copy into a one-byte string, instead of decoding it as UTF-8.
 */
function bodyText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8')
}

const parseJson = (bytes: Buffer): unknown => JSON.parse(bodyText(bytes))

const META_KEY = Buffer.from('"metadataXdr":"')
/** Stands for the i-th span in the shortened body; `#` is no base64 character. */
const SPAN_REF = '#'

/**
 * A getLedgers body parsed with each `metadataXdr` value cut out and replaced by a reference to its
 * span (base64 has no character JSON escapes, so the value ends at the next quote; one holding a
 * backslash is left to the parser). Anything other than exactly one reference per ledger falls back
 * to parsing the whole body.
 */
function parseLedgersBody(bytes: Buffer): unknown {
  const spans: Base64Span[] = []
  const parts: string[] = []
  let last = 0
  for (let at = bytes.indexOf(META_KEY); at >= 0; at = bytes.indexOf(META_KEY, at + 1)) {
    const start = at + META_KEY.length
    const end = bytes.indexOf(0x22, start)
    if (end < 0) break
    // Only within the value: searched to the body's end, a page's last backslash-free values would
    // make this quadratic (tens of MB scanned per ledger).
    if (bytes.subarray(start, end).includes(0x5c)) continue
    parts.push(bodyText(bytes.subarray(last, start)), `${SPAN_REF}${spans.length}`)
    spans.push({ body: bytes, start, end })
    last = end
    at = end
  }
  if (spans.length === 0) return parseJson(bytes)
  parts.push(bodyText(bytes.subarray(last)))
  const body = JSON.parse(parts.join('')) as { result?: { ledgers?: unknown } } | null
  const ledgers = body?.result?.ledgers
  let used = 0
  if (Array.isArray(ledgers)) {
    for (const ledger of ledgers as { metadataXdr?: unknown }[]) {
      const ref = ledger?.metadataXdr
      if (typeof ref !== 'string' || !ref.startsWith(SPAN_REF)) continue
      // Each placeholder names the next span, in order; anything else is read the plain way.
      if (ref !== `${SPAN_REF}${used}` || used >= spans.length) return parseJson(bytes)
      ;(ledger as { metadataXdr: unknown }).metadataXdr = spans[used++]
    }
  }
  return used === spans.length ? body : parseJson(bytes)
}

export function createRpcClient(options: RpcClientOptions): RpcClient {
  const timeoutMs = options.timeoutMs ?? RPC_TIMEOUT_MS
  const maxAttempts = options.maxAttempts ?? RPC_MAX_ATTEMPTS
  const baseDelayMs = options.baseDelayMs ?? RPC_BASE_DELAY_MS
  const maxDelayMs = options.maxDelayMs ?? RPC_MAX_DELAY_MS
  const request = httpTransport(options.url, options.fetch)
  let nextId = 1

  async function attempt<T>(
    method: string,
    params: unknown,
    signal: AbortSignal | undefined,
    parse: (bytes: Buffer) => unknown,
  ): Promise<T> {
    const timeout = AbortSignal.timeout(timeoutMs)
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
    let response: HttpResult
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params })
      response = await request(
        options.url,
        { method: 'POST', body, contentType: 'application/json' },
        combined,
      )
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      throw new TransientRpcError(`${method}: ${(error as Error).message}`, 0, error)
    }
    if (response.status === 429) {
      throw new TransientRpcError(`${method}: HTTP 429`, parseRetryAfterMs(response.retryAfter))
    }
    if (response.status >= 500) throw new TransientRpcError(`${method}: HTTP ${response.status}`)
    const { bytes } = response
    let body: { result?: T; error?: { code: number; message: string } }
    try {
      body = parse(bytes) as typeof body
    } catch {
      throw new TransientRpcError(`${method}: invalid JSON body (${bytes.length} bytes)`)
    }
    if (response.status >= 400 && body?.error === undefined) {
      throw new RpcError(method, response.status, `HTTP ${response.status}`)
    }
    if (body === null || typeof body !== 'object')
      throw new TransientRpcError(`${method}: body is not an object`)
    if (body.error !== undefined) {
      // -32603 is the server's own failure, the one JSON-RPC error another attempt may fix.
      if (body.error.code === -32603) throw new TransientRpcError(`${method}: ${body.error.message}`)
      throw new RpcError(method, body.error.code, body.error.message)
    }
    if (body.result === undefined) throw new TransientRpcError(`${method}: response without result`)
    return body.result
  }

  async function call<T>(
    method: string,
    params: unknown,
    signal?: AbortSignal,
    parse: (bytes: Buffer) => unknown = parseJson,
  ): Promise<T> {
    for (let i = 0; ; i++) {
      try {
        return await attempt<T>(method, params, signal, parse)
      } catch (error) {
        if (!(error instanceof TransientRpcError) || i + 1 >= maxAttempts) throw error
        const delayMs = computeBackoffMs(i, baseDelayMs, maxDelayMs, error.retryAfterMs)
        options.onRetry?.({ method, attempt: i + 1, delayMs, error: error.message })
        await sleep(delayMs, signal)
      }
    }
  }

  const ledgersParams = (
    params: { startLedger: number; limit: number } | { cursor: string; limit: number },
  ) =>
    'cursor' in params
      ? { pagination: { cursor: params.cursor, limit: params.limit } }
      : { startLedger: params.startLedger, pagination: { limit: params.limit } }

  return {
    getLedgers: (params, signal) => call<GetLedgersResult>('getLedgers', ledgersParams(params), signal),
    async getLedgerPage(params, signal) {
      const result = await call<Omit<GetLedgersResult, 'ledgers'> & { ledgers: RpcLedgerOrSpan[] }>(
        'getLedgers',
        ledgersParams(params),
        signal,
        parseLedgersBody,
      )
      return {
        latestLedger: result.latestLedger,
        oldestLedger: result.oldestLedger,
        cursor: result.cursor,
        ledgers: (result.ledgers ?? []).map((l) => ({
          hash: l.hash,
          sequence: l.sequence,
          ledgerCloseTime: l.ledgerCloseTime,
          meta: l.metadataXdr,
        })),
      }
    },
    getLatestLedger: (signal) => call<GetLatestLedgerResult>('getLatestLedger', undefined, signal),
    getHealth: (signal) => call<GetHealthResult>('getHealth', undefined, signal),
    getNetwork: (signal) => call<GetNetworkResult>('getNetwork', undefined, signal),
  }
}
