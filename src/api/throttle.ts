import type { AppContext } from '../context.ts'
import { AppError } from '../errors.ts'

/** One counter of a throttle: `limit` attempts per `windowS` for a subject (an email, a client address). */
export interface ThrottleCheck {
  subject: string
  limit: number
  windowS: number
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
  for (const check of checks) {
    const decision = await ctx.rateLimiter.consume(check.subject, check.limit, check.windowS)
    if (!decision.allowed) refusal = Math.max(refusal ?? 0, decision.resetS)
  }
  if (refusal !== null) {
    throw new AppError('rate_limited', `too many ${what}; try again in ${refusal} s`, {
      headers: { 'retry-after': String(refusal) },
    })
  }
}
