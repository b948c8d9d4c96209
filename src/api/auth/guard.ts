import type { FastifyReply, FastifyRequest } from 'fastify'
import { hashApiKey, isWellFormedApiKey, secretsEqual } from '../../auth/api-key.ts'
import { type Awaitable, andThen } from '../../awaitable.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import type { ApiKeyWithPlan } from '../../store/api-keys.ts'
import type { SnapshotSeek } from '../../store/request-state.ts'
import type { Caller, RouteAuth } from '../request-context.ts'
import { RATE_LIMIT_SCOPE_HEADER, refusalHeaders } from '../throttle.ts'
import { countRefusal, refuseThrottledAddress } from './credential-throttle.ts'

const API_KEY_HEADER = 'x-svc-token'
const ADMIN_HEADER = 'x-svc-admin-token'

const EXPECTS: Record<Exclude<RouteAuth, 'none'>, string> = {
  api_key: 'this endpoint takes an API key in the x-svc-token header',
  bearer: 'this endpoint takes a bearer access token in the authorization header',
  admin: 'this endpoint takes the admin token in the x-svc-admin-token header',
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}

const parsedScopes = new Map<string, string[]>()

/** Scope lists repeat across keys; parse each distinct JSON text once. */
function parseScopes(json: string): string[] {
  let scopes = parsedScopes.get(json)
  if (!scopes) {
    scopes = JSON.parse(json) as string[]
    if (parsedScopes.size < 1000) parsedScopes.set(json, scopes)
  }
  return scopes
}

function unauthorized(message: string): AppError {
  return new AppError('unauthorized', message)
}

/** Names a credential of another type, so the 401 can say which header the endpoint takes. */
function wrongCredential(request: FastifyRequest, auth: Exclude<RouteAuth, 'none'>): string | null {
  const present: Array<[Exclude<RouteAuth, 'none'>, string]> = [
    ['api_key', API_KEY_HEADER],
    ['bearer', 'authorization'],
    ['admin', ADMIN_HEADER],
  ]
  for (const [kind, name] of present) {
    if (kind !== auth && header(request, name) !== undefined) return name
  }
  return null
}

const NO_CREDENTIAL: Caller = Object.freeze({ kind: 'none' })

/** The header each credential comes in. */
const CREDENTIAL_HEADER: Record<Exclude<RouteAuth, 'none'>, string> = {
  api_key: API_KEY_HEADER,
  bearer: 'authorization',
  admin: ADMIN_HEADER,
}

/**
 * The caller for the route's declared credential, or throws 401/403 (in this turn, or as the
 * promise's rejection). An API key seen before, checked against a generation read in the same
 * turn (SQLite), is answered without a promise; anything that waits returns one. An address that
 * has presented too many refused credentials gets 429 before anything is read
 * (./credential-throttle.ts); each refusal of a presented credential is counted.
 */
export function authenticate(
  ctx: AppContext,
  request: FastifyRequest,
  auth: RouteAuth,
  scope?: string,
  seek?: SnapshotSeek | null,
): Awaitable<Caller> {
  if (auth === 'none') return NO_CREDENTIAL
  refuseThrottledAddress(ctx, request)
  const presented = header(request, CREDENTIAL_HEADER[auth]) !== undefined
  let caller: Awaitable<Caller>
  try {
    caller = checkCredential(ctx, request, auth, scope, seek)
  } catch (error) {
    return countRefusal(ctx, request, presented, error)
  }
  return caller instanceof Promise
    ? caller.catch((error) => countRefusal(ctx, request, presented, error))
    : caller
}

function checkCredential(
  ctx: AppContext,
  request: FastifyRequest,
  auth: Exclude<RouteAuth, 'none'>,
  scope: string | undefined,
  seek: SnapshotSeek | null | undefined,
): Awaitable<Caller> {
  const now = ctx.clock.now()

  if (auth === 'admin') {
    const token = header(request, ADMIN_HEADER)
    if (token === undefined) throw unauthorized(missingMessage(request, auth))
    if (!secretsEqual(token, ctx.adminToken)) throw unauthorized('the admin token is invalid')
    return { kind: 'admin' }
  }

  if (auth === 'bearer') return authenticateBearer(ctx, request, now)

  const key = header(request, API_KEY_HEADER)
  if (key === undefined) throw unauthorized(missingMessage(request, auth))
  // The record of a key seen before is used only if nothing that authentication reads has been
  // written since it was read: the generation is read from the store on every request, and any
  // committed write to a key or an organization (on any instance) has raised it. Otherwise the
  // key is checked in full and its record read again, with the generation, in one statement.
  const records = ctx.caches.keyRecords
  const cached = records.get(key)
  // A remembered key was well-formed; any other is checked before the database is read.
  if (cached === undefined && !isWellFormedApiKey(key)) throw unauthorized('the API key is malformed')
  return andThen(ctx.caches.requestViews(seek), (view) => {
    // The route's answer reads through this view: its checkpoint, and the snapshots found with
    // it, instead of reading them again.
    request.view = view
    if (cached !== undefined && cached.generation === view.generation)
      return keyCaller(ctx, cached.key, now, scope)
    // A key not found at this same generation moments ago is still no key: no second statement.
    if (cached === undefined && records.isUnknown(key, view.generation, now)) throw invalidKey()
    return ctx.lookupApiKey(hashApiKey(ctx.keyPepper, key)).then((found) => {
      if (found.key === null) {
        records.setUnknown(key, found.generation, now)
        throw invalidKey()
      }
      records.set(key, { key: found.key, generation: found.generation })
      return keyCaller(ctx, found.key, now, scope)
    })
  })
}

const invalidKey = () => unauthorized('the API key is invalid')

async function authenticateBearer(ctx: AppContext, request: FastifyRequest, now: number): Promise<Caller> {
  const value = header(request, 'authorization')
  if (value === undefined) throw unauthorized(missingMessage(request, 'bearer'))
  const match = /^Bearer\s+(\S+)$/i.exec(value)
  if (!match?.[1]) throw unauthorized('the authorization header must be "Bearer <access token>"')
  const claims = await ctx.tokens.verifyAccess(match[1], now)
  if (!claims) throw unauthorized('the access token is invalid or expired')
  return { kind: 'bearer', userId: claims.userId, organizationId: claims.organizationId }
}

/** The caller of a key record read at the current generation, or 401/403. */
function keyCaller(ctx: AppContext, row: ApiKeyWithPlan, now: number, scope: string | undefined): Caller {
  if (row.revoked_at !== null) throw unauthorized('the API key has been revoked')
  // A rotated key is refused as any expired one: rotation moved its expiry to the end of its window.
  if (row.expires_at !== null && row.expires_at <= now) {
    throw unauthorized(
      row.replaced_by === null
        ? 'the API key has expired'
        : `the API key was rotated and its overlap window has ended; use its replacement ${row.replaced_by}`,
    )
  }
  const scopes = parseScopes(row.scopes)
  if (scope && !scopes.includes(scope)) {
    throw new AppError('insufficient_scope', `the API key lacks the scope "${scope}"`)
  }
  ctx.keyUsage.record(row.id, now)
  return { kind: 'api_key', keyId: row.id, organizationId: row.organization_id, plan: row.plan, scopes }
}

function missingMessage(request: FastifyRequest, auth: Exclude<RouteAuth, 'none'>): string {
  const other = wrongCredential(request, auth)
  return other ? `${EXPECTS[auth]}; ${other} is not accepted here` : `missing credential: ${EXPECTS[auth]}`
}

/**
 * Counts the request against the organization's quota; sets the IETF draft rate-limit headers
 * (with `Strata-RateLimit-Scope: local` and this instance's share of the quota when Redis could
 * not count it). The in-memory limiter decides in this turn; Redis answers with a promise.
 */
export function enforceRateLimit(ctx: AppContext, caller: Caller, reply: FastifyReply): Awaitable<void> {
  if (caller.kind !== 'api_key') return
  const quota = ctx.quotaFor(caller.plan)
  const windowS = ctx.config.rateLimitWindowS
  // The day's usage counts the very event the window's counter counts: admitted or refused.
  ctx.orgUsage.record(caller.organizationId, ctx.clock.now())
  return andThen(ctx.rateLimiter.consume(`org:${caller.organizationId}`, quota, windowS), (decision) => {
    const limit = decision.limit
    reply.header('RateLimit-Policy', `"org";q=${limit};w=${windowS}`)
    reply.header('RateLimit', `"org";r=${decision.remaining};t=${decision.resetS}`)
    if (decision.fallback) reply.header(RATE_LIMIT_SCOPE_HEADER, 'local')
    if (!decision.allowed) {
      throw new AppError(
        'rate_limited',
        `the organization's quota of ${limit} requests per ${windowS} s is exhausted`,
        { headers: refusalHeaders(decision.resetS, [decision]) },
      )
    }
  })
}
