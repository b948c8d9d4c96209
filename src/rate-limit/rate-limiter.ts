import { Redis } from 'ioredis'
import { type Awaitable, andThen } from '../awaitable.ts'
import type { Clock } from '../clock.ts'
import type { HealthBoard } from '../health.ts'
import type { Logger } from '../logger.ts'
import { createCircuitBreaker } from './breaker.ts'

/** The outcome of counting one request against a quota. */
export interface RateLimitDecision {
  allowed: boolean
  /** The quota this decision was made against (with `fallback`, this instance's share of it). */
  limit: number
  remaining: number
  /** Seconds until the current window resets (at least 1). */
  resetS: number
  /**
   * True when Redis is configured but could not decide (a command failed, or its breaker is open),
   * so this process's own counters did, against its share of the quota: the count is this
   * instance's, not every instance's.
   */
  fallback: boolean
}

/**
 * Fixed-window counters keyed by subject (`org:<id>`, `login:<email>`). Windows are aligned to
 * the epoch, so every instance counts into the same window for the same subject.
 */
export interface RateLimiter {
  readonly kind: 'memory' | 'redis'
  /** Counts one request; the in-memory limiter decides in the same turn, Redis answers later. */
  consume(subject: string, limit: number, windowS: number): Awaitable<RateLimitDecision>
  /**
   * Seconds until the subject's window ends when this process already knows its next request
   * would be refused (its counters, or a decision it received, say the quota is spent), else 0.
   * Asks nobody: for refusing before any costly work.
   */
  refusing(subject: string, limit: number, windowS: number): number
  /**
   * How many requests the subject's current window has counted, without counting one: the same
   * counter `consume` increments. `fallback` as in a decision: Redis is configured but did not
   * answer (or its breaker is open), so the count is this process's alone.
   */
  peek(subject: string, windowS: number): Awaitable<RateLimitCount>
  close(): Promise<void>
}

/** A window's count as `peek` read it. */
export interface RateLimitCount {
  count: number
  fallback: boolean
}

/** The in-memory limiter: it always decides in the same turn. */
export interface MemoryRateLimiter extends RateLimiter {
  consume(subject: string, limit: number, windowS: number): RateLimitDecision
  peek(subject: string, windowS: number): RateLimitCount
}

function windowOf(nowMs: number, windowS: number): { start: number; resetS: number } {
  const windowMs = windowS * 1000
  const start = Math.floor(nowMs / windowMs) * windowMs
  return { start, resetS: Math.max(1, Math.ceil((start + windowMs - nowMs) / 1000)) }
}

function decide(count: number, limit: number, resetS: number, fallback = false): RateLimitDecision {
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetS, fallback }
}

/** One process's counters; enough for a single instance (the embedded default). */
export function createMemoryRateLimiter(clock: Clock): MemoryRateLimiter {
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
    refusing(subject, limit, windowS) {
      const { start, resetS } = windowOf(clock.now(), windowS)
      const counter = counters.get(`${subject}:${windowS}`)
      return counter !== undefined && counter.start === start && counter.count >= limit ? resetS : 0
    },
    peek(subject, windowS) {
      const { start } = windowOf(clock.now(), windowS)
      const counter = counters.get(`${subject}:${windowS}`)
      return { count: counter !== undefined && counter.start === start ? counter.count : 0, fallback: false }
    },
    async close() {},
  }
}

/**
 * Adds ARGV[2] places to the window's counter and returns its new count; the counter's first
 * reservation gives it its expiry. Sent by SHA (EVALSHA) once Redis has the script.
 */
const CONSUME_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`

/** A window's counter in Redis: the subject, the window's length and its start (epoch ms). */
const windowKey = (subject: string, windowS: number, start: number) =>
  `strata:rl:${subject}:${windowS}:${start}`

/** The script as a command of the client: EVALSHA, with EVAL when Redis does not have it yet. */
type CountingRedis = Redis & { consumeWindow(key: string, ttlMs: string, count: string): Promise<number> }

/** One reservation takes this fraction of the quota last known to be free, per instance. */
const LEASE_FRACTION = 8
/** The most places one reservation takes. */
const LEASE_MAX = 1000
/** Leases kept before the ended windows' are swept. */
const LEASES_SWEEP_AT = 1000

/**
 * The places of one window's count that this instance reserved in Redis and has not yet given to
 * a request. Every place is reserved once, by one instance, in Redis's counter: a request given
 * place p is decided as if it had been counted p-th, so no more than the quota is ever admitted.
 */
interface Lease {
  key: string
  windowS: number
  /** When the window ends (epoch ms). */
  endsAt: number
  /** The quota the last request of the window asked under (a plan may change mid-window). */
  limit: number
  /** Reserved places not yet given, oldest first, each block `from`..`to`. */
  blocks: Array<{ from: number; to: number }>
  /** The window's count as Redis last returned it (every instance's reservations). */
  known: number
  /** The size of the last reservation: the next is asked for when half of it is left. */
  lastSize: number
  /** Requests waiting for a place, in arrival order (null: Redis did not answer). */
  waiting: Array<(place: number | null) => void>
  /** A reservation is asked for, or about to be. */
  reserving: boolean
}
/** How the Redis limiter behaves when Redis does not answer (see docs/operations.md, "Rate limiting"). */
export interface RedisLimiterOptions {
  url: string
  clock: Clock
  logger: Logger
  /** Where the breaker's opening is reported (`rate_limiter_local`) and cleared. */
  health: HealthBoard
  /** A command not answered within this fails (and counts towards opening the breaker). */
  commandTimeoutMs: number
  /** Consecutive failed commands that open the breaker. */
  breakerFailures: number
  /** How long the open breaker sends nothing to Redis before one probe. */
  breakerCoolDownMs: number
  /** Instances sharing the quotas: while Redis cannot decide, each counts quota / replicas (rounded up). */
  replicas: number
}

/** Subjects known to be spent at most; beyond, the oldest are forgotten (they are asked again). */
const KNOWN_SPENT_MAX = 10_000

/**
 * Counters in Redis, shared by every instance, behind a circuit breaker. Every request is also
 * counted in this process's memory; when a command fails, or while the breaker is open (after
 * `breakerFailures` failures in a row, until a probe after `breakerCoolDownMs` succeeds), that
 * local count decides against `ceil(limit / replicas)`, so quotas and throttles stay enforced and
 * an open breaker costs a request nothing. The breaker's opening is a health problem
 * (`rate_limiter`, `rate_limiter_local`), cleared when it closes.
 */
export function createRedisRateLimiter(options: RedisLimiterOptions): RateLimiter {
  const { clock, logger, health } = options
  const redis = new Redis(options.url, {
    lazyConnect: false,
    maxRetriesPerRequest: 1,
    // A command sent while the connection is being made waits for it, within the command timeout
    // (a refusal before the first connection would count towards opening the breaker).
    enableOfflineQueue: true,
    // A command that failed was decided locally: sent again on a new connection it would count twice.
    autoResendUnfulfilledCommands: false,
    connectTimeout: 2000,
    commandTimeout: options.commandTimeoutMs,
  })
  redis.defineCommand('consumeWindow', { numberOfKeys: 1, lua: CONSUME_SCRIPT })
  const shared = redis as CountingRedis
  const local = createMemoryRateLimiter(clock)
  const spent = new Map<string, number>()
  let lastWarning = Number.NEGATIVE_INFINITY
  const warn = (error: unknown, message: string) => {
    const now = clock.now()
    if (now - lastWarning < 10_000) return
    lastWarning = now
    logger.warn({ err: errorText(error) }, message)
  }
  // Places are reserved in blocks (see Lease): a request that finds one left here is decided in
  // its own turn, with no round trip; one that finds none waits for the next reservation, which
  // takes every request of that turn at least. A block is 1/LEASE_FRACTION of the quota last known
  // free, shared by the replicas, at most LEASE_MAX and at least 1: near the end of a quota every
  // request is counted in Redis, as with one command per request.
  const leases = new Map<string, Lease>()
  const available = (lease: Lease) => lease.blocks.reduce((sum, block) => sum + block.to - block.from + 1, 0)
  const take = (lease: Lease): number | undefined => {
    const block = lease.blocks[0]
    if (block === undefined) return undefined
    const place = block.from++
    if (block.from > block.to) lease.blocks.shift()
    return place
  }
  const leaseOf = (key: string, windowS: number, endsAt: number, limit: number): Lease => {
    let lease = leases.get(key)
    if (lease === undefined) {
      if (leases.size >= LEASES_SWEEP_AT) {
        const now = clock.now()
        for (const [other, kept] of leases) if (kept.endsAt <= now) leases.delete(other)
      }
      lease = {
        key,
        windowS,
        endsAt,
        limit,
        blocks: [],
        known: 0,
        lastSize: 0,
        waiting: [],
        reserving: false,
      }
      leases.set(key, lease)
    }
    lease.limit = limit
    return lease
  }
  const reserve = (lease: Lease) => {
    if (lease.reserving) return
    lease.reserving = true
    // Sent after this turn, so that every request of the turn waiting for a place is in it.
    setImmediate(() => {
      const free = Math.max(0, lease.limit - lease.known)
      const share = Math.floor(free / (options.replicas * LEASE_FRACTION))
      const size = Math.max(lease.waiting.length, Math.min(LEASE_MAX, Math.max(1, share)))
      shared.consumeWindow(lease.key, String(lease.windowS * 1000 + 1000), String(size)).then(
        (total) => {
          breaker.succeeded('call')
          const count = Number(total)
          lease.known = Math.max(lease.known, count)
          lease.lastSize = size
          lease.blocks.push({ from: count - size + 1, to: count })
          lease.reserving = false
          while (lease.waiting.length > 0) {
            const place = take(lease)
            if (place === undefined) break
            lease.waiting.shift()!(place)
          }
          if (lease.waiting.length > 0) reserve(lease)
        },
        (error: unknown) => {
          breaker.failed('call', error)
          warn(error, 'rate limiter: Redis command failed; counting locally')
          lease.reserving = false
          const waiting = lease.waiting
          lease.waiting = []
          for (const settle of waiting) settle(null)
        },
      )
    })
  }
  /** A place in the window's count for this request: now from the lease, or once reserved. */
  const place = (lease: Lease): Awaitable<number | null> => {
    const given = lease.waiting.length === 0 ? take(lease) : undefined
    if (given !== undefined) {
      // The next block is asked for while half of this one is left, so requests rarely wait.
      if (
        !lease.reserving &&
        lease.known < lease.limit &&
        available(lease) <= Math.floor(lease.lastSize / 2)
      ) {
        reserve(lease)
      }
      return given
    }
    // Every place from here on is past the quota: refused without asking anyone.
    if (lease.known >= lease.limit && lease.waiting.length === 0) return lease.known + 1
    return new Promise((resolve) => {
      lease.waiting.push(resolve)
      reserve(lease)
    })
  }
  /** Whether the breaker has opened and not closed since. */
  let counting: 'shared' | 'local' = 'shared'
  const share = `each instance counts ${options.replicas > 1 ? `1/${options.replicas} of` : 'the whole of'} every quota`
  const breaker = createCircuitBreaker({
    failures: options.breakerFailures,
    coolDownMs: options.breakerCoolDownMs,
    clock,
    onChange(state, cause) {
      if (state === 'open') {
        health.report(
          'rate_limiter',
          'rate_limiter_local',
          `Redis failed (${errorText(cause)}): rate limits and throttles are counted by this instance alone (${share}) until it answers again`,
        )
        if (counting === 'shared') {
          // Said when it opens, whatever was said just before; a failed probe re-opening it is
          // said at the warnings' pace.
          lastWarning = clock.now()
          logger.warn(
            { err: errorText(cause) },
            'rate limiter: Redis failing; counting locally until it answers again',
          )
        } else warn(cause, 'rate limiter: Redis still failing; counting locally')
        counting = 'local'
        // A connection that stopped answering may never answer again (a peer gone without a word):
        // start a new one, which the next probe uses.
        if (isTimeout(cause)) redis.disconnect(true)
      } else if (state === 'closed') {
        health.clear('rate_limiter', 'rate_limiter_local')
        counting = 'shared'
        lastWarning = Number.NEGATIVE_INFINITY
        logger.info('rate limiter: Redis answers again; counting shared')
      }
    },
  })
  redis.on('error', (error: Error) => warn(error, 'rate limiter: Redis connection failed'))

  /** Remembers a spent subject (for `refusing`) and returns the decision. */
  const noted = (subject: string, windowS: number, decision: RateLimitDecision): RateLimitDecision => {
    if (decision.remaining > 0) return decision
    const now = clock.now()
    if (spent.size >= KNOWN_SPENT_MAX) {
      for (const [key, end] of spent) if (end <= now) spent.delete(key)
      if (spent.size >= KNOWN_SPENT_MAX) {
        const oldest = spent.keys().next()
        if (!oldest.done) spent.delete(oldest.value)
      }
    }
    spent.set(`${subject}:${windowS}`, now + decision.resetS * 1000)
    return decision
  }

  return {
    kind: 'redis',
    consume(subject, limit, windowS) {
      // Counted here always, so that a fallback finds this instance's share of the window counted.
      const own = local.consume(subject, Math.max(1, Math.ceil(limit / options.replicas)), windowS)
      const fallback = { ...own, fallback: true }
      const admission = breaker.admit()
      if (admission === 'skip') return noted(subject, windowS, fallback)
      if (admission === 'probe') {
        // The probe does not hold up this request: it decides locally, as while the breaker is open.
        redis.ping().then(
          () => breaker.succeeded('probe'),
          (error: unknown) => breaker.failed('probe', error),
        )
        return noted(subject, windowS, fallback)
      }
      const now = clock.now()
      const { start, resetS } = windowOf(now, windowS)
      const key = windowKey(subject, windowS, start)
      const lease = leaseOf(key, windowS, start + windowS * 1000, limit)
      return andThen(place(lease), (count) =>
        noted(subject, windowS, count === null ? fallback : decide(count, limit, resetS)),
      )
    },
    refusing(subject, _limit, windowS) {
      const key = `${subject}:${windowS}`
      const end = spent.get(key)
      if (end === undefined) return 0
      const now = clock.now()
      if (end <= now) {
        spent.delete(key)
        return 0
      }
      return Math.ceil((end - now) / 1000)
    },
    peek(subject, windowS) {
      const own = (): RateLimitCount => ({ ...local.peek(subject, windowS), fallback: true })
      // Only a closed breaker is asked: the probe of an open one is `consume`'s to send.
      if (breaker.state() !== 'closed') return own()
      const { start } = windowOf(clock.now(), windowS)
      const key = windowKey(subject, windowS, start)
      return redis.get(key).then(
        (value) => {
          breaker.succeeded('call')
          // The counter holds every place reserved; this instance's not yet given are not used.
          const lease = leases.get(key)
          const unused = lease === undefined ? 0 : available(lease)
          return { count: value === null ? 0 : Math.max(0, Number(value) - unused), fallback: false }
        },
        (error: unknown) => {
          breaker.failed('call', error)
          warn(error, 'rate limiter: Redis command failed; reading the local count')
          return own()
        },
      )
    },
    async close() {
      redis.disconnect()
    },
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** ioredis's `commandTimeout` rejection. */
function isTimeout(error: unknown): boolean {
  return error instanceof Error && /timed out/i.test(error.message)
}
