import type { AppContext } from '../context.ts'
import { AppError } from '../errors.ts'
import type { RateLimitDecision } from '../rate-limit/rate-limiter.ts'

/** One counter of a throttle: `limit` attempts per `windowS` for a subject (an email, a client address). */
export interface ThrottleCheck {
  subject: string
  limit: number
  windowS: number
}

/**
 * The header saying a decision was made by this instance alone (Redis could not count it; the
 * quota is then this instance's share): `Strata-RateLimit-Scope: local`. Absent when the count is
 * the shared one (or the limiter is the in-memory one, which is always this process's).
 */
export const RATE_LIMIT_SCOPE_HEADER = 'strata-ratelimit-scope'

/** The headers of a refusal by `decisions`: `Retry-After`, and the scope when any was local. */
export function refusalHeaders(
  retryAfterS: number,
  decisions: readonly RateLimitDecision[],
): Record<string, string> {
  const headers: Record<string, string> = { 'retry-after': String(retryAfterS) }
  if (decisions.some((decision) => decision.fallback)) headers[RATE_LIMIT_SCOPE_HEADER] = 'local'
  return headers
}

/**
 * Counts one attempt against every check (in the rate limiter, so with REDIS_URL all instances
 * share the counters) and refuses with 429 and Retry-After when any is exhausted.
 */
export async function requireWithinThrottle(
  ctx: AppContext,
  checks: ThrottleCheck[],
  what: string,
): Promise<void> {
  let refusal: number | null = null
  const decisions: RateLimitDecision[] = []
  for (const check of checks) {
    const decision = await ctx.rateLimiter.consume(check.subject, check.limit, check.windowS)
    decisions.push(decision)
    if (!decision.allowed) refusal = Math.max(refusal ?? 0, decision.resetS)
  }
  if (refusal !== null) {
    throw new AppError('rate_limited', `too many ${what}; try again in ${refusal} s`, {
      headers: refusalHeaders(refusal, decisions),
    })
  }
}
