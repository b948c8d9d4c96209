import type { LookupAddress, LookupAllOptions, LookupOptions } from 'node:dns'
import { lookup as dnsLookup } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { performance } from 'node:perf_hooks'
import { StringDecoder } from 'node:string_decoder'
import { Webhook } from 'standardwebhooks'
import { checkWebhookUrl, isPublicAddress } from './webhook-url.ts'

/**
 * One POST of one webhook message to one receiver, signed as Standard Webhooks says. The sender
 * never follows a redirect, bounds the whole exchange by one timeout, and connects only to the
 * addresses it checked: the host is resolved once, through the request's own `lookup`, and every
 * address it resolves to must be public (webhook-url.ts) before a socket is opened, so a name
 * cannot be re-pointed at an internal address between the check and the connection.
 */

/** One message for one receiver. */
export interface WebhookDelivery {
  url: string
  /** The `webhook-id` header (`msg_...`): the same on every retry, so a receiver can deduplicate. */
  messageId: string
  /** The `webhook-timestamp` header, in seconds. */
  timestampS: number
  /** The exact JSON body: what is signed is what is sent. */
  payload: string
  /** `whsec_...` secrets: the current one first, then the previous one while a rotation lasts. */
  secrets: readonly string[]
}

export interface SendOptions {
  /** Bound of the whole exchange: lookup, connect, TLS, request, response head and capped body. */
  timeoutMs: number
  /** `http:` URLs and loopback, private or reserved addresses are allowed (tests, development). */
  allowLoopback: boolean
  userAgent: string
}

export type SendOutcome =
  | { ok: true; status: number; durationMs: number }
  | { ok: false; status: number | null; error: string; durationMs: number }

/** Keep-alive connection pools for deliveries; `close` ends their sockets. */
export interface WebhookAgents {
  http: http.Agent
  https: https.Agent
  close(): void
}

/** The most of a response body read; the rest is not waited for. */
const MAX_RESPONSE_BODY_BYTES = 64 * 1024
/** The most of a response body kept as a failed delivery's error. */
const MAX_ERROR_CHARS = 500
/** The spread of a retry's delay around its scheduled value. */
const RETRY_JITTER = 0.1

/**
 * The `webhook-signature` header: one `v1,<base64>` signature per secret, space-separated, so a
 * receiver still holding the previous secret verifies during a rotation.
 */
export function signWebhook(
  secrets: readonly string[],
  messageId: string,
  timestampS: number,
  payload: string,
): string {
  if (secrets.length === 0) throw new RangeError('a webhook is signed with at least one secret')
  const at = new Date(timestampS * 1000)
  return secrets.map((secret) => new Webhook(secret).sign(messageId, at, payload)).join(' ')
}

/**
 * Keep-alive pools for `sendWebhook`. A pooled socket was connected to an address checked by the
 * `allowLoopback` it was opened with: share one pair among deliveries of one setting only.
 */
export function createWebhookAgents(): WebhookAgents {
  const agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  }
  return {
    ...agents,
    close() {
      agents.http.destroy()
      agents.https.destroy()
    },
  }
}

/** A resolved address the delivery may not connect to. */
class AddressNotAllowedError extends Error {
  constructor(address: string) {
    super(`address not allowed: ${address}`)
    this.name = 'AddressNotAllowedError'
  }
}

/**
 * A `lookup` for `net.connect` that resolves every address of the host and refuses the connection
 * when one of them is not public (unless `allowLoopback`). The connection is then made to the
 * addresses checked here, never to a second resolution.
 */
export function createCheckedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options: LookupOptions, callback) => {
    const all: LookupAllOptions = { ...options, all: true }
    dnsLookup(hostname, all, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0)
      const refused = allowLoopback ? undefined : addresses.find((a) => !isPublicAddress(a.address))
      if (refused) return callback(new AddressNotAllowedError(refused.address), '', 0)
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses)
      const first = addresses[0]
      if (!first) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0)
      callback(null, first.address, first.family)
    })
  }
}

/**
 * POSTs one delivery. Never throws: every failure (refused URL or address, network, TLS, timeout,
 * redirect, non-2xx status) is an outcome with its error text. A response counts once its body
 * (up to 64 KiB) has arrived: a 2xx whose body outlasts the timeout is a failure with its status,
 * and the retry carries the same `webhook-id` for the receiver to recognise.
 */
export function sendWebhook(
  delivery: WebhookDelivery,
  options: SendOptions,
  signal?: AbortSignal,
  agents?: WebhookAgents,
): Promise<SendOutcome> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const failed = (status: number | null, error: string): SendOutcome => ({
    ok: false,
    status,
    error,
    durationMs: elapsed(),
  })

  // An IP literal is connected to without any lookup, so checkWebhookUrl's own check of an
  // IP-literal host (isPublicAddress) is the one that applies to it.
  const checked = checkWebhookUrl(delivery.url, options.allowLoopback)
  if (!checked.ok) return Promise.resolve(failed(null, `url not allowed: ${checked.reason}`))
  const url = checked.url
  const secure = url.protocol === 'https:'

  let signature: string
  try {
    signature = signWebhook(delivery.secrets, delivery.messageId, delivery.timestampS, delivery.payload)
  } catch (error) {
    return Promise.resolve(failed(null, `cannot sign: ${(error as Error).message}`))
  }

  const timeout = AbortSignal.timeout(options.timeoutMs)
  const bound = signal ? AbortSignal.any([timeout, signal]) : timeout
  const abortText = () =>
    timeout.aborted ? `timed out after ${options.timeoutMs} ms` : 'aborted before the receiver answered'
  if (bound.aborted) return Promise.resolve(failed(null, abortText()))
  const body = Buffer.from(delivery.payload, 'utf8')

  return new Promise<SendOutcome>((resolve) => {
    let settled = false
    const settle = (outcome: SendOutcome) => {
      if (settled) return
      settled = true
      bound.removeEventListener('abort', onAbort)
      resolve(outcome)
    }
    let status: number | null = null

    const request = (secure ? https : http).request({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      agent: agents ? (secure ? agents.https : agents.http) : false,
      lookup: createCheckedLookup(options.allowLoopback),
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.byteLength),
        'user-agent': options.userAgent,
        'webhook-id': delivery.messageId,
        'webhook-timestamp': String(delivery.timestampS),
        'webhook-signature': signature,
      },
    })

    function onAbort() {
      settle(failed(status, abortText()))
      request.destroy()
    }
    request.on('error', (error) => settle(failed(status, describeError(error))))
    bound.addEventListener('abort', onAbort, { once: true })

    request.on('response', (response) => {
      status = response.statusCode ?? null
      const decoder = new StringDecoder('utf8')
      let text = ''
      let read = 0
      const finish = () => settle(outcomeOf(status, decoder.end(), text, elapsed()))
      response.on('data', (chunk: Buffer) => {
        if (settled) return
        const room = MAX_RESPONSE_BODY_BYTES - read
        const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk
        read += part.byteLength
        if (text.length < MAX_ERROR_CHARS * 2) text += decoder.write(part)
        if (read >= MAX_RESPONSE_BODY_BYTES) {
          finish()
          response.destroy()
        }
      })
      response.on('end', finish)
      response.on('error', (error) => settle(failed(status, describeError(error))))
    })
    request.end(body)
  })
}

/** What a response with `status` and a (capped) body means for the delivery. */
function outcomeOf(status: number | null, tail: string, head: string, durationMs: number): SendOutcome {
  if (status === null) return { ok: false, status, error: 'no status in the response', durationMs }
  if (status >= 200 && status < 300) return { ok: true, status, durationMs }
  if (status >= 300 && status < 400)
    return { ok: false, status, error: `redirect not followed (${status})`, durationMs }
  const text = Array.from(head + tail)
    .slice(0, MAX_ERROR_CHARS)
    .join('')
  return { ok: false, status, error: text === '' ? `status ${status}` : text, durationMs }
}

/** Network error codes, in words a subscription's owner reads. */
const NETWORK_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
}

/** A short text for an error of the request: its cause, never a stack. */
function describeError(error: Error): string {
  if (error instanceof AddressNotAllowedError) return error.message
  const code = (error as NodeJS.ErrnoException).code
  if (code !== undefined) {
    const words = NETWORK_ERRORS[code]
    if (words !== undefined) return `${words} (${code})`
    if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `tls error (${code})`
    return code
  }
  return error.message.slice(0, 200)
}

/**
 * The wait before retry number `attempt` (1-based: after the first failure, `schedule[0]`), with a
 * jitter of +/- 10% so receivers that failed together are not retried together; null when the
 * schedule is exhausted. `random` is `Math.random` but for tests.
 */
export function retryDelayMs(
  schedule: readonly number[],
  attempt: number,
  random: () => number = Math.random,
): number | null {
  if (!Number.isInteger(attempt) || attempt < 1)
    throw new RangeError(`a retry attempt is an integer from 1, not ${attempt}`)
  const base = schedule[attempt - 1]
  if (base === undefined) return null
  return Math.round(base * (1 + (random() * 2 - 1) * RETRY_JITTER))
}
