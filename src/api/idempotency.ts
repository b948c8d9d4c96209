import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { Type } from 'typebox'
import type { AppContext } from '../context.ts'
import { AppError } from '../errors.ts'
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../store/idempotency.ts'
import type { App } from './app-type.ts'
import { errorResponses } from './schemas.ts'

/**
 * The `Idempotency-Key` header of the requests that create a secret (signup, key creation, key
 * rotation), as Stripe has it: a route opts in with `config: { idempotent: true }` and this file
 * does the rest, for every such route in one place.
 *
 * - The first request with a key runs; a 2xx answer (status, content type, body) is kept for
 *   24 hours, scoped to the caller: the organization of a bearer token, the admin token, or for
 *   signup the client address. Another caller's same key is another key.
 * - A retry with the same key and the same request (method, path, body) gets the kept answer
 *   again, byte for byte, with `Idempotent-Replayed: true`; the handler does not run, so nothing
 *   is created or audited twice.
 * - The same key with another request: 422 `idempotency_key_reused`. While the first request
 *   runs: 409 `conflict` (concurrent requests with one key: exactly one runs).
 * - A request that fails (4xx or 5xx) keeps nothing: the key may be used again at once.
 *
 * The kept answer holds the secret in plaintext, and Strata keeps no secret it can read: the row
 * is found by an HMAC (server pepper) of the scope and the key, and the answer is sealed with
 * AES-256-GCM under a key derived (HKDF-SHA-256) from the Idempotency-Key and the pepper. The
 * database alone cannot open it; only a client presenting the same Idempotency-Key can.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes an `Idempotency-Key` header (src/api/idempotency.ts). */
    idempotent?: boolean
  }
}

/** How long an answer is kept, from the start of its request. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
/**
 * A request holding a key without an answer for this long is taken for dead (its process
 * stopped): a retry then runs in its place. Far longer than any of these requests takes.
 */
export const IDEMPOTENCY_ABANDONED_MS = 60_000

export const IDEMPOTENCY_HEADER = 'idempotency-key'
export const REPLAYED_HEADER = 'idempotent-replayed'

/** The response headers a replay repeats (beside the status and the body). */
const KEPT_HEADERS = ['content-type', 'cache-control', 'location']

const HeaderValue = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x20-\\x7E]+$',
  description:
    'Printable ASCII (space to ~), 1 to 255 characters, such as a random UUID: one key per request meant to run once',
})

const OPERATION_NOTE =
  ' Send an `Idempotency-Key` header to retry safely: the same key and request within 24 hours replays the first answer (header `Idempotent-Replayed: true`) and creates nothing; the same key with another request is 422, and while the first still runs 409.'

/** What a request that claimed a key needs to keep its answer. */
interface Held {
  lookup: string
  startedAt: number
  sealKey: Buffer
}

interface KeptAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** The keys a request derives from its Idempotency-Key. */
interface DerivedKeys {
  /** Where its row is: HMAC (pepper) of the scope and the key. */
  lookup: string
  /** Seals the kept answer (AES-256-GCM). */
  sealKey: Buffer
  /** Keys the request's fingerprint (HMAC-SHA-256). */
  fingerprintKey: Buffer
}

/** Derives the lookup, the sealing key and the fingerprint key of an Idempotency-Key in a scope. */
export function deriveIdempotencyKeys(pepper: string, scope: string, key: string): DerivedKeys {
  const lookup = createHmac('sha256', pepper)
    .update(`idempotency-lookup\u0000${scope}\u0000${key}`)
    .digest('hex')
  const material = Buffer.from(hkdfSync('sha256', key, pepper, `strata idempotency v1\u0000${scope}`, 64))
  return { lookup, sealKey: material.subarray(0, 32), fingerprintKey: material.subarray(32) }
}

/** AES-256-GCM of the answer, bound to its row: `v1.<iv>.<ciphertext>.<tag>`, base64url. */
export function sealAnswer(sealKey: Buffer, lookup: string, answer: KeptAnswer): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', sealKey, iv)
  cipher.setAAD(Buffer.from(lookup))
  const sealed = Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final()])
  return ['v1', ...[iv, sealed, cipher.getAuthTag()].map((part) => part.toString('base64url'))].join('.')
}

export function openAnswer(sealKey: Buffer, lookup: string, stored: string): KeptAnswer {
  const [version, iv, sealed, tag] = stored.split('.')
  if (version !== 'v1' || !iv || sealed === undefined || !tag) {
    throw new Error('a kept idempotent answer is not in the v1 form')
  }
  const decipher = createDecipheriv('aes-256-gcm', sealKey, Buffer.from(iv, 'base64url'))
  decipher.setAAD(Buffer.from(lookup))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  const text = Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()])
  return JSON.parse(text.toString('utf8')) as KeptAnswer
}

/** JSON with object keys sorted: one text per value, however the client ordered its fields. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** The request a key was first used for: method, path and body, keyed by the Idempotency-Key. */
function fingerprintOf(request: FastifyRequest, fingerprintKey: Buffer): string {
  const path = (request.url.split('?')[0] ?? '/').replace(/(.)\/+$/, '$1')
  return createHmac('sha256', fingerprintKey)
    .update(`${request.method}\u0000${path}\u0000${canonicalJson(request.body ?? null)}`)
    .digest('hex')
}

/** Whose keys these are: another caller's same Idempotency-Key is another key. */
function scopeOf(ctx: AppContext, request: FastifyRequest): string {
  const caller = request.caller
  switch (caller.kind) {
    case 'admin':
      // The token itself: an operator who changes it starts afresh. Only its HMAC is stored.
      return `admin:${ctx.adminToken}`
    case 'bearer':
    case 'api_key':
      return `org:${caller.organizationId}`
    case 'none':
      return `ip:${request.ip}`
  }
}

/** Registers the handling of `config: { idempotent: true }`; call before the routes are registered. */
export function registerIdempotency(app: App, ctx: AppContext): void {
  const held = new WeakMap<FastifyRequest, Held>()

  const claim = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const key = request.headers[IDEMPOTENCY_HEADER]
    if (typeof key !== 'string') return undefined
    const { lookup, sealKey, fingerprintKey } = deriveIdempotencyKeys(
      ctx.keyPepper,
      scopeOf(ctx, request),
      key,
    )
    const fingerprint = fingerprintOf(request, fingerprintKey)
    const now = ctx.clock.now()
    const found = await claimIdempotencyKey(ctx.database.db, {
      lookup,
      fingerprint,
      now,
      expiresAt: now + IDEMPOTENCY_TTL_MS,
      abandonedBefore: now - IDEMPOTENCY_ABANDONED_MS,
    })
    if (found.kind === 'claimed') {
      held.set(request, { lookup, startedAt: now, sealKey })
      return undefined
    }
    const { row } = found
    if (row.fingerprint !== fingerprint) {
      throw new AppError(
        'idempotency_key_reused',
        'this Idempotency-Key was used for another request (method, path or body) in the last 24 hours; use a new key for a new request',
        { details: [{ field: IDEMPOTENCY_HEADER, message: 'Idempotency-Key was used for another request' }] },
      )
    }
    if (row.response === null) {
      throw new AppError(
        'conflict',
        'a request with this Idempotency-Key is still running; retry after it has answered to get its answer',
        { headers: { 'retry-after': '1' } },
      )
    }
    const kept = openAnswer(sealKey, lookup, row.response)
    reply.code(kept.status).headers(kept.headers).header(REPLAYED_HEADER, 'true')
    return reply.send(kept.body)
  }

  const keep = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const holding = held.get(request)
    if (!holding) return payload
    held.delete(request)
    const status = reply.statusCode
    const db = ctx.database.db
    try {
      if (status >= 200 && status < 300 && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
        const headers: Record<string, string> = {}
        for (const name of KEPT_HEADERS) {
          const value = reply.getHeader(name)
          if (value !== undefined) headers[name] = String(value)
        }
        const answer = { status, headers, body: String(payload) }
        const sealed = sealAnswer(holding.sealKey, holding.lookup, answer)
        if (!(await completeIdempotencyKey(db, holding.lookup, holding.startedAt, sealed))) {
          request.log.warn('idempotency: the key was taken over before this answer was kept')
        }
      } else {
        // A failure is not kept: the client may retry with the same key.
        await releaseIdempotencyKey(db, holding.lookup, holding.startedAt)
      }
    } catch (error) {
      // The answer still goes out (whatever it created exists); a retry with this key answers 409
      // until the claim is taken for abandoned, then runs again.
      request.log.error({ err: error }, 'idempotency: the answer could not be kept')
    }
    return payload
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.idempotent !== true) return
    route.schema ??= {}
    const schema = route.schema
    const headers = (schema.headers ?? { type: 'object', properties: {} }) as {
      properties?: Record<string, unknown>
    }
    schema.headers = { ...headers, properties: { ...headers.properties, [IDEMPOTENCY_HEADER]: HeaderValue } }
    schema.description = `${schema.description ?? ''}${OPERATION_NOTE}`.trim()
    const responses = (schema.response ?? {}) as Record<string, unknown>
    const added = errorResponses('idempotency_key_reused', 'conflict')
    schema.response = {
      ...responses,
      ...Object.fromEntries(Object.entries(added).filter(([status]) => !(status in responses))),
    }
    route.preHandler = [route.preHandler ?? []].flat().concat(claim)
    route.onSend = [route.onSend ?? []].flat().concat(keep)
  })
}
