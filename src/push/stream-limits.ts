import type { Plan } from '../config.ts'
import { AppError } from '../errors.ts'

/**
 * How many streams of position changes an organization may hold open at once, by plan. A stream
 * holds a connection and a share of every wake's reads for as long as it lives, so it is bounded
 * apart from the request quota (which a stream spends once, when it opens).
 */
export const PLAN_STREAM_LIMIT: Record<Plan, number> = { free: 2, pro: 20, enterprise: 100 }

/** The stream limit of a stored plan name; an unknown plan gets the free plan's. */
export function streamLimitOf(plan: string): number {
  return PLAN_STREAM_LIMIT[plan as Plan] ?? PLAN_STREAM_LIMIT.free
}

/**
 * The open streams of each organization in this process. With several instances
 * (`STRATA_REPLICAS`), each allows its share of the plan's limit, rounded up, as the rate limiter
 * does when it counts alone: no count has to outlive a process that dies holding streams.
 */
export interface StreamCounts {
  /** Takes a place for the organization or throws `429 rate_limited` naming the limit; returns its release. */
  open(organizationId: string, plan: string): () => void
  /** Open streams of an organization. */
  count(organizationId: string): number
}

export function createStreamCounts(replicas: number): StreamCounts {
  const open = new Map<string, number>()
  return {
    open(organizationId, plan) {
      const limit = Math.ceil(streamLimitOf(plan) / Math.max(1, replicas))
      const now = open.get(organizationId) ?? 0
      if (now >= limit) {
        const known = (plan in PLAN_STREAM_LIMIT ? plan : 'free') as Plan
        const share = replicas > 1 ? ` (this instance's share of ${PLAN_STREAM_LIMIT[known]})` : ''
        throw new AppError(
          'rate_limited',
          `the ${known} plan allows ${limit} open streams per organization${share}; close one before opening another`,
        )
      }
      open.set(organizationId, now + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        const left = (open.get(organizationId) ?? 1) - 1
        if (left <= 0) open.delete(organizationId)
        else open.set(organizationId, left)
      }
    },
    count: (organizationId) => open.get(organizationId) ?? 0,
  }
}
