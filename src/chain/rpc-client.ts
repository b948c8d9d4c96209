/**
 * A Stellar RPC JSON-RPC client for what ingestion needs, over fetch. Every call has a timeout and
 * is retried with exponential backoff and full jitter when the failure may be transient: transport
 * errors, timeouts, HTTP 5xx, HTTP 429 (waiting at least Retry-After), a truncated or invalid body,
 * and JSON-RPC internal errors. Other JSON-RPC errors (bad parameters, ledger out of range) are not.
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
  fetch?: typeof fetch
}

export interface RpcClient {
  getLedgers(
    params: { startLedger: number; limit: number } | { cursor: string; limit: number },
    signal?: AbortSignal,
  ): Promise<GetLedgersResult>
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

export function createRpcClient(options: RpcClientOptions): RpcClient {
  const timeoutMs = options.timeoutMs ?? RPC_TIMEOUT_MS
  const maxAttempts = options.maxAttempts ?? RPC_MAX_ATTEMPTS
  const baseDelayMs = options.baseDelayMs ?? RPC_BASE_DELAY_MS
  const maxDelayMs = options.maxDelayMs ?? RPC_MAX_DELAY_MS
  const doFetch = options.fetch ?? fetch
  let nextId = 1

  async function attempt<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    const timeout = AbortSignal.timeout(timeoutMs)
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
    let response: Response
    let text: string
    try {
      response = await doFetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
        signal: combined,
      })
      text = await response.text()
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      throw new TransientRpcError(`${method}: ${(error as Error).message}`, 0, error)
    }
    if (response.status === 429) {
      throw new TransientRpcError(
        `${method}: HTTP 429`,
        parseRetryAfterMs(response.headers.get('retry-after')),
      )
    }
    if (response.status >= 500) throw new TransientRpcError(`${method}: HTTP ${response.status}`)
    let body: { result?: T; error?: { code: number; message: string } }
    try {
      body = JSON.parse(text)
    } catch {
      throw new TransientRpcError(`${method}: invalid JSON body (${text.length} bytes)`)
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

  async function call<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    for (let i = 0; ; i++) {
      try {
        return await attempt<T>(method, params, signal)
      } catch (error) {
        if (!(error instanceof TransientRpcError) || i + 1 >= maxAttempts) throw error
        const delayMs = computeBackoffMs(i, baseDelayMs, maxDelayMs, error.retryAfterMs)
        options.onRetry?.({ method, attempt: i + 1, delayMs, error: error.message })
        await sleep(delayMs, signal)
      }
    }
  }

  return {
    getLedgers: (params, signal) =>
      call<GetLedgersResult>(
        'getLedgers',
        'cursor' in params
          ? { pagination: { cursor: params.cursor, limit: params.limit } }
          : { startLedger: params.startLedger, pagination: { limit: params.limit } },
        signal,
      ),
    getLatestLedger: (signal) => call<GetLatestLedgerResult>('getLatestLedger', undefined, signal),
    getHealth: (signal) => call<GetHealthResult>('getHealth', undefined, signal),
    getNetwork: (signal) => call<GetNetworkResult>('getNetwork', undefined, signal),
  }
}
