import { pipeline, Readable } from 'node:stream'
import { createDeflate, createGzip, deflateSync, gzipSync } from 'node:zlib'
import cors from '@fastify/cors'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CorsOrigins } from '../config.ts'
import { takeBodyOffer, takeBodyTag, textTag } from '../positions/answer-tag.ts'
import type { App } from './app-type.ts'
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from './idempotency.ts'
import { numericPinOf } from './route-helpers.ts'
import { RATE_LIMIT_SCOPE_HEADER } from './throttle.ts'

/**
 * The HTTP conventions every answer follows (docs/api.md, "Caching, compression and CORS"):
 * compression when the client asks for it, CORS for the configured origins, and on data answers a
 * weak `ETag` (with `If-None-Match` → 304) and a `Cache-Control` that says whether the answer can
 * ever change.
 */

/**
 * Below this many bytes an answer is sent as it is: it fits in one TCP segment either way, and
 * compressing it would cost CPU for no packet saved.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024

/**
 * What compression applies to: JSON (the data and management answers, the OpenAPI document), CSV,
 * HTML and JavaScript (the reference page and its script). Images and already compressed bodies
 * are not worth it.
 */
export const COMPRESSIBLE_TYPES =
  /^(?:application\/(?:[a-z0-9.+-]+\+)?json|application\/javascript|text\/(?:html|csv|javascript|css|plain))\s*(?:;|$)/i

/**
 * gzip and deflate only, gzip preferred: every client speaks them. Brotli and zstd are left out:
 * on a positions answer (a few KB) brotli costs more CPU than gzip for about the same bytes at
 * quality 4, and far more at its default quality; zstd costs what gzip does for no fewer bytes
 * (docs/performance.md).
 */
export const COMPRESSION_ENCODINGS = ['gzip', 'deflate'] as const
type Encoding = (typeof COMPRESSION_ENCODINGS)[number]

/**
 * The encoding to answer with for an `Accept-Encoding` (RFC 9110 §12.5.3): the offered one of
 * highest weight, gzip on a tie (`x-gzip` is gzip; `*` weighs what is not named); null when
 * neither is acceptable.
 */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | null {
  if (header === undefined) return null
  let gzip = -1
  let deflate = -1
  let any = -1
  for (const item of [header].flat().join(',').toLowerCase().split(',')) {
    const [name = '', ...params] = item.split(';')
    let weight = 1
    for (const param of params) {
      const [key, value] = param.split('=')
      if (key?.trim() === 'q') weight = Number(value?.trim() ?? '')
    }
    if (!(weight >= 0 && weight <= 1)) weight = 0
    const token = name.trim()
    if (token === 'gzip' || token === 'x-gzip') gzip = Math.max(gzip, weight)
    else if (token === 'deflate') deflate = Math.max(deflate, weight)
    else if (token === '*') any = weight
  }
  if (gzip < 0) gzip = any
  if (deflate < 0) deflate = any
  if (gzip <= 0 && deflate <= 0) return null
  return gzip >= deflate ? 'gzip' : 'deflate'
}

/** A body this large that repeats (the reference page, kept rendered) is compressed once. */
const KEPT_COMPRESSED_BYTES = 64 * 1024
const lastCompressed: Record<Encoding, { body: string | Buffer | null; out: Buffer | null }> = {
  gzip: { body: null, out: null },
  deflate: { body: null, out: null },
}

/**
 * `body` compressed. The last large body compressed with each encoding is kept with its result:
 * the same body sent again (the same string, as a page kept rendered is) is not compressed again,
 * so an unauthenticated page of hundreds of KB costs one comparison, not milliseconds of zlib.
 */
function compressed(body: string | Buffer, encoding: Encoding): Buffer {
  const kept = lastCompressed[encoding]
  if (kept.out !== null && kept.body === body) return kept.out
  const out = encoding === 'gzip' ? gzipSync(body) : deflateSync(body)
  if (body.length >= KEPT_COMPRESSED_BYTES) {
    kept.body = body
    kept.out = out
  }
  return out
}

/** Adds `name` to the answer's `Vary`. */
function addVary(reply: FastifyReply, name: string): void {
  const vary = reply.getHeader('vary')
  reply.header('vary', vary === undefined ? name : `${String(vary)}, ${name}`)
}

/**
 * The answer compressed as the request asks (gzip or deflate), called last in the app's `onSend`
 * hook: a body in hand of at least COMPRESSION_THRESHOLD_BYTES is compressed at once, a stream
 * (CSV) as it flows. Not through @fastify/compress: that plugin adds an `onRequest` and an
 * `onSend` hook to every route, paid by every request whether or not it asks for compression
 * (docs/api.md, "Compression"), where the app's one `onSend` hook does it in a few lines of zlib.
 * `x-no-compression` asks for an identity answer.
 */
export function compressAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const accept = request.headers['accept-encoding']
  if (accept === undefined || payload === null || payload === undefined) return payload
  const status = reply.statusCode
  if (status === 204 || status === 304 || status === 206 || reply.hasHeader('content-encoding'))
    return payload
  if (request.headers['x-no-compression'] !== undefined) return payload
  const type = reply.getHeader('content-type') ?? 'application/json'
  if (typeof type !== 'string' || !COMPRESSIBLE_TYPES.test(type)) return payload
  const encoding = negotiateEncoding(accept)
  if (encoding === null) return payload
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    if (Buffer.byteLength(payload) < COMPRESSION_THRESHOLD_BYTES) return payload
    const body = compressed(payload, encoding)
    addVary(reply, 'accept-encoding')
    reply.header('content-encoding', encoding)
    reply.header('content-length', body.length)
    return body
  }
  if (payload instanceof Readable) {
    const zip = encoding === 'gzip' ? createGzip() : createDeflate()
    addVary(reply, 'accept-encoding')
    reply.header('content-encoding', encoding)
    reply.removeHeader('content-length')
    pipeline(payload, zip, (error) => {
      if (error) request.log.warn({ err: error.message }, 'compressing a streamed answer failed')
    })
    return zip
  }
  return payload
}

/**
 * The request headers a browser may send cross-origin: the three credentials, the body type, an
 * idempotency key, a revalidation and a request id of the caller's own.
 */
export const CORS_ALLOWED_HEADERS = [
  'x-svc-token',
  'authorization',
  'x-svc-admin-token',
  'content-type',
  IDEMPOTENCY_HEADER,
  'if-none-match',
  'x-request-id',
]

/** The answer headers a cross-origin script may read (the CORS-safelisted ones need no listing). */
export const CORS_EXPOSED_HEADERS = [
  'x-request-id',
  'ratelimit',
  'ratelimit-policy',
  RATE_LIMIT_SCOPE_HEADER,
  'retry-after',
  'etag',
  'allow',
  REPLAYED_HEADER,
]

/** How long a browser keeps a preflight's answer (seconds): two hours, Chromium's own ceiling. */
export const CORS_PREFLIGHT_MAX_AGE_S = 7200

/**
 * CORS for `origins` (STRATA_CORS_ORIGINS), registered only when that is set: otherwise OPTIONS is
 * answered 405 as before and no answer carries an `access-control-*` header. Its hook runs before
 * authentication, so a refusal (401, 429) carries the headers too and the browser lets the caller
 * read it. The plugin's preflight route (`OPTIONS *`) answers before any credential is read; it is
 * registered before the app's onRoute hook, which would otherwise ask it to declare its `auth`. A preflight from an origin not listed is
 * answered without `access-control-allow-origin`, which the browser takes as a refusal.
 */
export async function registerCors(app: App, origins: CorsOrigins): Promise<void> {
  await app.register(cors, {
    origin: origins === '*' ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: CORS_PREFLIGHT_MAX_AGE_S,
    // No cookie is ever read: credentials travel in headers the caller sets itself.
    credentials: false,
    // An OPTIONS without Origin or Access-Control-Request-Method is not a preflight but an
    // ordinary OPTIONS: it is answered 204 with the methods, not with a plain-text 400.
    strictPreflight: false,
    hideOptionsRoute: true,
  })
}

/** A data answer that can never change: any cache may keep it for a year without asking again. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'
/** Any other data answer: a cache may keep it but must revalidate it (a 304 when it is unchanged). */
export const REVALIDATE = 'no-cache'
/**
 * What a data answer depends on besides its URL: the API key (a shared cache must not give one
 * caller's answer to a request without a key) and the representation asked for (JSON or CSV).
 * `compressAnswer` adds `accept-encoding` when it compresses.
 */
export const DATA_VARY = 'x-svc-token, accept'

/**
 * The members of a data answer's `meta` that describe the moment it was served rather than what
 * it says: left out of its ETag, so a repeated request is answered 304 while they alone moved.
 */
const VOLATILE_MEMBERS =
  /"(?:response_time_ms|data_staleness_seconds|last_indexed_ledger)":(?:-?[0-9]+|null)/g

/** `text` without the volatile `meta` members. */
export const stableText = (text: string): string => text.replace(VOLATILE_MEMBERS, '')

/**
 * The weak ETag of a JSON data answer: what identifies the answer without its volatile `meta`
 * members (`response_time_ms`, `data_staleness_seconds`, `last_indexed_ledger`). A body written
 * from kept parts comes with its tag, made from the parts' kept hashes (src/positions/answer-tag.ts);
 * any other is hashed whole, its `meta` (its last member) stripped of those members. Weak: the gzip
 * and identity forms of an answer share it.
 */
export function answerTag(body: string): string {
  const kept = takeBodyTag(body)
  if (kept !== null) return `W/"${kept}"`
  const meta = body.lastIndexOf('"meta":')
  return `W/"${textTag(meta < 0 ? body : body.slice(0, meta) + stableText(body.slice(meta)))}"`
}

/**
 * Whether `If-None-Match` names `tag` (weak comparison, RFC 9110 §13.1.2: `W/` is ignored on both
 * sides; `*` matches any current answer).
 */
export function ifNoneMatch(header: string | string[] | undefined, tag: string): boolean {
  if (header === undefined) return false
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag
  for (const value of [header].flat()) {
    for (const part of value.split(',')) {
      const candidate = part.trim()
      if (candidate === '*') return true
      if ((candidate.startsWith('W/') ? candidate.slice(2) : candidate) === opaque) return true
    }
  }
  return false
}

/**
 * Whether a data answer can never change: it is pinned (`as_of_ledger` or `/at/{ledger}`, a
 * number) within the indexed range `indexed_from_ledger..last_indexed_ledger` of the request's
 * view, and it is not `partial_result` anywhere (a backfill or a later state could complete such
 * an answer). A ledger once indexed is final on Stellar: nothing re-indexes it differently.
 * `partial`, when the writer said it (`offerBodyTag`), stands for the search of the body.
 */
export function isImmutable(request: FastifyRequest, body: string, partial: boolean | null = null): boolean {
  const pin = numericPinOf(request)
  const head = request.view?.head
  if (pin === null || !head || head.lastIndexedLedger === null || head.firstIndexedLedger === null)
    return false
  if (pin > head.lastIndexedLedger || pin < head.firstIndexedLedger) return false
  return !(partial ?? body.includes('"partial_result":true'))
}

/**
 * The caching headers of a successful GET data answer, and its 304: called from the app's `onSend`
 * hook, it returns the payload to send (null for a 304). A streamed answer (CSV) gets no ETag and
 * `no-cache`: its body is not in hand to hash or to inspect.
 */
export function cacheDataAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  addVary(reply, DATA_VARY)
  if (typeof payload !== 'string') {
    reply.header('cache-control', REVALIDATE)
    return payload
  }
  // A writer's offer carries the tag and whether the answer is partial: no search of the body.
  const offer = takeBodyOffer(payload)
  const partial = offer === null ? null : offer.partial
  reply.header('cache-control', isImmutable(request, payload, partial) ? IMMUTABLE : REVALIDATE)
  const tag = offer === null ? answerTag(payload) : `W/"${offer.tag}"`
  reply.header('etag', tag)
  if (!ifNoneMatch(request.headers['if-none-match'], tag)) return payload
  // Not modified: the headers a cache updates its copy with, and no body.
  reply.code(304)
  reply.removeHeader('content-type')
  reply.removeHeader('content-length')
  return null
}

/**
 * The headers of every HTML page and script beside the page's own CSP: no framing, no referrer,
 * a browsing context of its own (no cross-origin window keeps a handle on it), and loadable only by
 * this origin's pages. Not on the API's JSON: a cross-origin script reads it through CORS.
 */
export const DOCUMENT_HEADERS = {
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
}

/** Whether a content type is an HTML page or a script (which get DOCUMENT_HEADERS). */
export function isDocumentType(type: unknown): boolean {
  return (
    typeof type === 'string' &&
    (type.startsWith('text/html') ||
      type.startsWith('text/javascript') ||
      type.startsWith('application/javascript'))
  )
}
