import type { FastifyRequest } from 'fastify'
import { type Awaitable, andThen } from '../../awaitable.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { refusalHeaders } from '../throttle.ts'

/**
 * Refused credentials per client address: every `401` for a credential that was presented (a
 * malformed, unknown, revoked or expired API key, an invalid bearer or admin token) counts in the
 * rate limiter, `REFUSED_CREDENTIALS_PER_WINDOW` (100: ten times login's per-email default) per
 * `LOGIN_WINDOW_S`. Once an address has spent it, every request of it that needs a
 * credential is `429` with `Retry-After` until the window ends, before any database work: guessing
 * keys costs a round trip or two per guess only up to the limit. A missing credential is not
 * counted (it costs nothing to refuse).
 */
function limitOf(ctx: AppContext): { subject: (address: string) => string; limit: number; windowS: number } {
  return {
    subject: (address) => `auth-failed:${address}`,
    limit: ctx.config.refusedCredentialsPerWindow,
    windowS: ctx.config.loginWindowS,
  }
}

function tooMany(retryAfterS: number, headers: Record<string, string>): AppError {
  return new AppError(
    'rate_limited',
    `too many refused credentials from this address; try again in ${retryAfterS} s`,
    { headers },
  )
}

/** Throws 429 when this process knows the request's address has spent its refused credentials. */
export function refuseThrottledAddress(ctx: AppContext, request: FastifyRequest): void {
  const { subject, limit, windowS } = limitOf(ctx)
  const waitS = ctx.rateLimiter.refusing(subject(request.ip), limit, windowS)
  if (waitS > 0) throw tooMany(waitS, { 'retry-after': String(waitS) })
}

/**
 * Counts `error` when it refuses a presented credential, then throws it, or a 429 when this
 * refusal was over the limit (in this turn with the in-memory limiter, as a rejection with Redis).
 */
export function countRefusal(
  ctx: AppContext,
  request: FastifyRequest,
  presented: boolean,
  error: unknown,
): Awaitable<never> {
  if (!presented || !(error instanceof AppError) || error.code !== 'unauthorized') throw error
  const { subject, limit, windowS } = limitOf(ctx)
  return andThen(ctx.rateLimiter.consume(subject(request.ip), limit, windowS), (decision) => {
    if (!decision.allowed) throw tooMany(decision.resetS, refusalHeaders(decision.resetS, [decision]))
    throw error
  })
}
