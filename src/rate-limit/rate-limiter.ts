import { Redis } from 'ioredis'
import type { Awaitable } from '../awaitable.ts'
import type { Clock } from '../clock.ts'
import type { Logger } from '../logger.ts'

/** The outcome of counting one request against a quota. */
export interface RateLimitDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until the current window resets (at least 1). */
  resetS: number
}

/**
 * Fixed-window counters keyed by subject (`org:<id>`, `login:<email>`). Windows are aligned to
 * the epoch, so every instance counts into the same window for the same subject.
 */
export interface RateLimiter {
  readonly kind: 'memory' | 'redis'
  /** Counts one request; the in-memory limiter decides in the same turn, Redis answers later. */
  consume(subject: string, limit: number, windowS: number): Awaitable<RateLimitDecision>
  close(): Promise<void>
}

function windowOf(nowMs: number, windowS: number): { start: number; resetS: number } {
  const windowMs = windowS * 1000
  const start = Math.floor(nowMs / windowMs) * windowMs
  return { start, resetS: Math.max(1, Math.ceil((start + windowMs - nowMs) / 1000)) }
}

function decide(count: number, limit: number, resetS: number): RateLimitDecision {
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetS }
}

/** One process's counters; enough for a single instance (the embedded default). */
export function createMemoryRateLimiter(clock: Clock): RateLimiter {
  const counters = new Map<string, { start: number; count: number }>()
  let sweeps = 0
  return {
    kind: 'memory',
    consume(subject, limit, windowS) {
      const now = clock.now()
      const { start, resetS } = windowOf(now, windowS)
      const key = `${subject}:${windowS}`
      let counter = counters.get(key)
      if (!counter || counter.start !== start) {
        counter = { start, count: 0 }
        counters.set(key, counter)
      }
      counter.count += 1
      // Forget finished windows now and then so idle subjects do not accumulate.
      if (++sweeps % 10_000 === 0) {
        for (const [k, c] of counters) if (c.start + windowS * 1000 * 2 < now) counters.delete(k)
      }
      return decide(counter.count, limit, resetS)
    },
    async close() {},
  }
}

// Increments the window's counter and sets its expiry on first use, atomically.
const CONSUME_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`

/**
 * Counters in Redis, shared by every instance. When Redis cannot be reached the request is
 * allowed (fail open) and a warning is logged: an outage of the limiter must not take the API down.
 */
export function createRedisRateLimiter(url: string, clock: Clock, logger: Logger): RateLimiter {
  const redis = new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    commandTimeout: 500,
  })
  let lastWarning = 0
  redis.on('error', (error: Error) => {
    const now = clock.now()
    if (now - lastWarning > 10_000) {
      lastWarning = now
      logger.warn({ err: error.message }, 'rate limiter: Redis unavailable, allowing requests')
    }
  })
  return {
    kind: 'redis',
    async consume(subject, limit, windowS) {
      const now = clock.now()
      const { start, resetS } = windowOf(now, windowS)
      const key = `strata:rl:${subject}:${windowS}:${start}`
      try {
        const count = (await redis.eval(CONSUME_SCRIPT, 1, key, String(windowS * 1000 + 1000))) as number
        return decide(count, limit, resetS)
      } catch (error) {
        const nowMs = clock.now()
        if (nowMs - lastWarning > 10_000) {
          lastWarning = nowMs
          logger.warn(
            { err: (error as Error).message },
            'rate limiter: Redis command failed, allowing request',
          )
        }
        return { allowed: true, limit, remaining: limit, resetS }
      }
    },
    async close() {
      redis.disconnect()
    },
  }
}
