import type { FastifyReply, FastifyRequest } from 'fastify'
import { hashApiKey, isWellFormedApiKey, secretsEqual } from '../../auth/api-key.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import type { Caller, RouteAuth } from '../request-context.ts'

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

/** Establishes `request.caller` for the route's declared credential, or throws 401/403. */
export async function authenticate(
  ctx: AppContext,
  request: FastifyRequest,
  auth: RouteAuth,
  scope?: string,
): Promise<Caller> {
  if (auth === 'none') return { kind: 'none' }
  const now = ctx.clock.now()

  if (auth === 'admin') {
    const token = header(request, ADMIN_HEADER)
    if (token === undefined) throw unauthorized(missingMessage(request, auth))
    if (!secretsEqual(token, ctx.adminToken)) throw unauthorized('the admin token is invalid')
    return { kind: 'admin' }
  }

  if (auth === 'bearer') {
    const value = header(request, 'authorization')
    if (value === undefined) throw unauthorized(missingMessage(request, auth))
    const match = /^Bearer\s+(\S+)$/i.exec(value)
    if (!match?.[1]) throw unauthorized('the authorization header must be "Bearer <access token>"')
    const claims = await ctx.tokens.verifyAccess(match[1], now)
    if (!claims) throw unauthorized('the access token is invalid or expired')
    return { kind: 'bearer', userId: claims.userId, organizationId: claims.organizationId }
  }

  const key = header(request, API_KEY_HEADER)
  if (key === undefined) throw unauthorized(missingMessage(request, auth))
  // The record of a key seen before is used only if nothing that authentication reads has been
  // written since it was read: the generation is read from the store on every request, and any
  // committed write to a key or an organization (on any instance) has raised it. Otherwise the
  // key is checked in full and its record read again, with the generation, in one statement.
  let cached = ctx.keyCache.get(key)
  // A remembered key was well-formed; any other is checked before the database is read.
  if (cached === undefined && !isWellFormedApiKey(key)) throw unauthorized('the API key is malformed')
  const { generation, head } = await ctx.authState()
  // The route's answer uses this checkpoint instead of reading it again.
  request.indexerHead = head
  if (cached === undefined || cached.generation !== generation) {
    const found = await ctx.lookupApiKey(hashApiKey(ctx.keyPepper, key))
    if (!found) throw unauthorized('the API key is invalid')
    cached = { key: found.key, generation: found.generation }
    ctx.keyCache.set(key, cached)
  }
  const row = cached.key
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

/** Counts the request against the organization's quota; sets the IETF draft rate-limit headers. */
export async function enforceRateLimit(ctx: AppContext, caller: Caller, reply: FastifyReply): Promise<void> {
  if (caller.kind !== 'api_key') return
  const limit = ctx.quotaFor(caller.plan)
  const windowS = ctx.config.rateLimitWindowS
  const decision = await ctx.rateLimiter.consume(`org:${caller.organizationId}`, limit, windowS)
  reply.header('RateLimit-Policy', `"org";q=${limit};w=${windowS}`)
  reply.header('RateLimit', `"org";r=${decision.remaining};t=${decision.resetS}`)
  if (!decision.allowed) {
    throw new AppError(
      'rate_limited',
      `the organization's quota of ${limit} requests per ${windowS} s is exhausted`,
      {
        headers: { 'retry-after': String(decision.resetS) },
      },
    )
  }
}
