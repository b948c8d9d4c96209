import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterEach, describe, expect, it } from 'vitest'
import { createHealthBoard } from '../../src/health.ts'
import { createLogger } from '../../src/logger.ts'
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
  type RedisLimiterOptions,
} from '../../src/rate-limit/rate-limiter.ts'
import { startTcpProxy } from '../faults/support/tcp-proxy.ts'
import { createManualClock } from '../support/app.ts'

const REDIS_URL = process.env.STRATA_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
/** Nothing listens on port 1: every command fails at once. */
const redisHost = new URL(REDIS_URL)
const DEAD_REDIS_URL = 'redis://127.0.0.1:1'
const WINDOW_S = 60

const subject = () => `test:${randomBytes(6).toString('hex')}`

describe('the Redis rate limiter', () => {
  const opened: RateLimiter[] = []
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((limiter) => limiter.close()))
  })

  function limiter(url: string, overrides: Partial<RedisLimiterOptions> = {}) {
    // A window's start, so the test cannot straddle two.
    const clock = createManualClock(Math.ceil(Date.now() / 60_000) * 60_000)
    const health = createHealthBoard(() => clock.now())
    const created = createRedisRateLimiter({
      url,
      clock,
      logger: createLogger('silent'),
      health,
      commandTimeoutMs: 250,
      breakerFailures: 3,
      breakerCoolDownMs: 5000,
      replicas: 1,
      ...overrides,
    })
    opened.push(created)
    return { limiter: created, clock, health }
  }

  it('counts the requests of one turn in one command, each in its own place of the count', async () => {
    const { limiter: a } = limiter(REDIS_URL)
    const { limiter: b } = limiter(REDIS_URL)
    const who = subject()
    const monitor = new Redis(REDIS_URL)
    const commands: string[] = []
    try {
      const watching = await monitor.monitor()
      watching.on('monitor', (_time: string, args: string[]) => {
        if (args.some((arg) => arg.includes(who))) commands.push(args[0]!.toLowerCase())
      })
      // Seven requests on two instances in the same turn, against a quota of five.
      const decisions = await Promise.all([
        ...Array.from({ length: 4 }, () => a.consume(who, 5, WINDOW_S)),
        ...Array.from({ length: 3 }, () => b.consume(who, 5, WINDOW_S)),
      ])
      const remaining = decisions.map((d) => d.remaining).sort((x, y) => y - x)
      expect(remaining).toEqual([4, 3, 2, 1, 0, 0, 0])
      expect(decisions.filter((d) => d.allowed)).toHaveLength(5)
      expect(decisions.every((d) => !d.fallback)).toBe(true)
      // One script call per instance, running one INCRBY each (one request, one command would
      // make seven of each).
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(commands.filter((c) => c === 'evalsha' || c === 'eval')).toHaveLength(2)
      expect(commands.filter((c) => c === 'incrby')).toHaveLength(2)
    } finally {
      monitor.disconnect()
    }
  })

  it('gives each request its own place in the shared count, most of them without a round trip, and never more than the quota', async () => {
    const { limiter: a } = limiter(REDIS_URL, { replicas: 2 })
    const { limiter: b } = limiter(REDIS_URL, { replicas: 2 })
    const who = subject()
    const monitor = new Redis(REDIS_URL)
    let reservations = 0
    try {
      const watching = await monitor.monitor()
      watching.on('monitor', (_time: string, args: string[]) => {
        if (args[0]?.toLowerCase() === 'incrby' && args[1]?.includes(who)) reservations++
      })
      const places: number[] = []
      let inTurn = 0
      for (let i = 0; i < 150; i++) {
        const pending = (i % 2 === 0 ? a : b).consume(who, 100, WINDOW_S)
        if (!(pending instanceof Promise)) inTurn++
        const decision = await pending
        expect(decision.fallback).toBe(false)
        if (decision.allowed) places.push(100 - decision.remaining)
      }
      // Exactly the quota admitted, each at its own place: 1 to 100.
      expect(places.sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(reservations).toBeLessThan(100)
      expect(inTurn).toBeGreaterThan(50)
      // The window's count as the usage page reads it: places given, not places reserved.
      const seen = await a.peek(who, WINDOW_S)
      expect(seen.count).toBeLessThanOrEqual(150)
      expect(seen.count).toBeGreaterThanOrEqual(100)
    } finally {
      monitor.disconnect()
    }
  })

  it("reads the count without this instance's places not yet given", async () => {
    const { limiter: a, clock } = limiter(REDIS_URL)
    const who = subject()
    expect((await a.consume(who, 600, WINDOW_S)).remaining).toBe(599)
    const raw = new Redis(REDIS_URL)
    try {
      const start = Math.floor(clock.now() / 60_000) * 60_000
      // One reservation of an eighth of the quota: 75 places, one given.
      expect(await raw.get(`strata:rl:${who}:${WINDOW_S}:${start}`)).toBe('75')
      expect((await a.peek(who, WINDOW_S)).count).toBe(1)
      expect((await a.consume(who, 600, WINDOW_S)).remaining).toBe(598)
      expect((await a.peek(who, WINDOW_S)).count).toBe(2)
    } finally {
      raw.disconnect()
    }
  })

  it('counts in Redis while it answers: shared, not local', async () => {
    const { limiter: a } = limiter(REDIS_URL)
    const { limiter: b } = limiter(REDIS_URL)
    const who = subject()
    const decisions = [await a.consume(who, 3, WINDOW_S), await b.consume(who, 3, WINDOW_S)]
    decisions.push(await a.consume(who, 3, WINDOW_S), await b.consume(who, 3, WINDOW_S))
    expect(decisions.map((d) => [d.allowed, d.remaining, d.fallback])).toEqual([
      [true, 2, false],
      [true, 1, false],
      [true, 0, false],
      [false, 0, false],
    ])
    // Each instance has seen the quota spent, so it can refuse before asking anyone.
    expect(a.refusing(who, 3, WINDOW_S)).toBe(60)
    expect(b.refusing(who, 3, WINDOW_S)).toBe(60)
    expect(a.refusing(subject(), 3, WINDOW_S)).toBe(0)
  })

  it('keeps enforcing with local counts when Redis fails, opens its breaker and says so in health', async () => {
    const { limiter: dead, health } = limiter(DEAD_REDIS_URL, { replicas: 2 })
    const who = subject()
    const decisions = []
    // A quota of 5 shared by two replicas: 3 for this instance alone.
    for (let i = 0; i < 4; i++) decisions.push(await dead.consume(who, 5, WINDOW_S))
    expect(decisions.map((d) => [d.allowed, d.limit, d.remaining, d.fallback])).toEqual([
      [true, 3, 2, true],
      [true, 3, 1, true],
      [true, 3, 0, true],
      [false, 3, 0, true],
    ])
    expect(health.problems()).toEqual([
      expect.objectContaining({ component: 'rate_limiter', code: 'rate_limiter_local' }),
    ])
    expect(health.problems()[0]?.message).toContain('1/2 of every quota')
    // The breaker is open: the next decision comes in this turn, without a command.
    const next = dead.consume(subject(), 5, WINDOW_S)
    expect(next).not.toBeInstanceOf(Promise)
    expect(dead.refusing(who, 5, WINDOW_S)).toBe(60)
  })

  it("peeks at the window's shared count without counting, and at its own count when Redis fails", async () => {
    const { limiter: a } = limiter(REDIS_URL)
    const { limiter: b } = limiter(REDIS_URL)
    const who = subject()
    expect(await b.peek(who, WINDOW_S)).toEqual({ count: 0, fallback: false })
    for (let i = 0; i < 3; i++) await a.consume(who, 10, WINDOW_S)
    await b.consume(who, 10, WINDOW_S)
    // Both read the one counter; reading it twice counts nothing.
    expect(await b.peek(who, WINDOW_S)).toEqual({ count: 4, fallback: false })
    expect(await a.peek(who, WINDOW_S)).toEqual({ count: 4, fallback: false })
    expect((await a.consume(who, 10, WINDOW_S)).remaining).toBe(10 - 5)

    const { limiter: dead } = limiter(DEAD_REDIS_URL, { breakerFailures: 3 })
    const alone = subject()
    await dead.consume(alone, 10, WINDOW_S)
    await dead.consume(alone, 10, WINDOW_S)
    // A failed GET, then (breaker open) no command: this instance's own count, said to be.
    expect(await dead.peek(alone, WINDOW_S)).toEqual({ count: 2, fallback: true })
    expect(dead.peek(alone, WINDOW_S)).toEqual({ count: 2, fallback: true })
  })

  it('closes the breaker after a successful probe once the cool-down is over, and clears health', async () => {
    const proxy = await startTcpProxy({ host: redisHost.hostname, port: Number(redisHost.port || 6379) })
    try {
      const {
        limiter: live,
        clock,
        health,
      } = limiter(`redis://${proxy.address}`, {
        breakerFailures: 1,
        commandTimeoutMs: 50,
      })
      const who = subject()
      expect((await live.consume(who, 10, WINDOW_S)).fallback).toBe(false)
      expect(health.problems()).toEqual([])
      // Redis stops answering: the command times out, the breaker opens.
      proxy.freeze()
      const failed = await live.consume(who, 10, WINDOW_S)
      expect(failed.fallback).toBe(true)
      expect(health.problems().map((p) => p.code)).toEqual(['rate_limiter_local'])
      expect(health.problems()[0]?.message).toContain('timed out')
      proxy.thaw()
      // Before the cool-down nothing is sent to Redis, even though it is back.
      for (let i = 0; i < 3; i++) expect(live.consume(who, 10, WINDOW_S)).not.toBeInstanceOf(Promise)
      // After it, one probe; once it has answered, counting is shared again.
      await until(async () => {
        clock.advance(5000)
        live.consume(subject(), 10, WINDOW_S)
        await new Promise((resolve) => setTimeout(resolve, 20))
        return health.problems().length === 0
      })
      const shared = await live.consume(who, 10, WINDOW_S)
      expect(shared.fallback).toBe(false)
      // Redis counted the first request of `who`, perhaps the one that timed out (its bytes were on
      // their way), and this one; never the three decided while the breaker was open.
      expect(shared.remaining).toBeGreaterThanOrEqual(7)
    } finally {
      await proxy.close()
    }
  })
})

/** Retries `check` (every 20 ms, at most 5 s) until it holds. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('condition not reached in 5 s')
}

describe('the in-memory rate limiter', () => {
  it('refuses before counting once the window is spent, and forgets it with the window', () => {
    const clock = createManualClock(120_000)
    const memory = createMemoryRateLimiter(clock)
    expect(memory.refusing('a', 2, WINDOW_S)).toBe(0)
    memory.consume('a', 2, WINDOW_S)
    expect(memory.refusing('a', 2, WINDOW_S)).toBe(0)
    clock.advance(10_000)
    expect(memory.consume('a', 2, WINDOW_S)).toMatchObject({ allowed: true, remaining: 0, fallback: false })
    expect(memory.refusing('a', 2, WINDOW_S)).toBe(50)
    expect(memory.refusing('b', 2, WINDOW_S)).toBe(0)
    clock.advance(50_000)
    expect(memory.refusing('a', 2, WINDOW_S)).toBe(0)
  })

  it('peeks at the current window without counting', () => {
    const clock = createManualClock(120_000)
    const memory = createMemoryRateLimiter(clock)
    expect(memory.peek('a', WINDOW_S)).toEqual({ count: 0, fallback: false })
    memory.consume('a', 5, WINDOW_S)
    memory.consume('a', 5, WINDOW_S)
    expect(memory.peek('a', WINDOW_S)).toEqual({ count: 2, fallback: false })
    expect(memory.peek('a', WINDOW_S)).toEqual({ count: 2, fallback: false })
    expect(memory.consume('a', 5, WINDOW_S).remaining).toBe(2)
    expect(memory.peek('b', WINDOW_S)).toEqual({ count: 0, fallback: false })
    clock.advance(60_000)
    expect(memory.peek('a', WINDOW_S)).toEqual({ count: 0, fallback: false })
  })
})
