import { describe, expect, it } from 'vitest'
import { type BreakerState, createCircuitBreaker } from '../../src/rate-limit/breaker.ts'
import { createManualClock } from '../support/app.ts'

const COOL_DOWN_MS = 5000

function breaker(failures = 3) {
  const clock = createManualClock(0)
  const changes: Array<[BreakerState, unknown]> = []
  const b = createCircuitBreaker({
    failures,
    coolDownMs: COOL_DOWN_MS,
    clock,
    onChange: (state, cause) => changes.push([state, cause]),
  })
  return { b, clock, changes }
}

describe('the circuit breaker', () => {
  it('opens after N consecutive failures, and a success in between starts the count again', () => {
    const { b, changes } = breaker(3)
    expect(b.admit()).toBe('call')
    b.failed('call', 'e1')
    b.failed('call', 'e2')
    b.succeeded('call')
    b.failed('call', 'e3')
    b.failed('call', 'e4')
    expect(b.state()).toBe('closed')
    expect(changes).toEqual([])
    b.failed('call', 'e5')
    expect(b.state()).toBe('open')
    expect(changes).toEqual([['open', 'e5']])
    expect(b.admit()).toBe('skip')
  })

  it('lets exactly one probe through after the cool-down, and closes when it succeeds', () => {
    const { b, clock, changes } = breaker(1)
    b.failed('call', 'timeout')
    clock.advance(COOL_DOWN_MS - 1)
    expect(b.admit()).toBe('skip')
    clock.advance(1)
    expect(b.admit()).toBe('probe')
    expect(b.state()).toBe('half_open')
    // While the probe is out, everyone else goes without the service, however long it takes.
    expect(b.admit()).toBe('skip')
    clock.advance(COOL_DOWN_MS * 3)
    expect(b.admit()).toBe('skip')
    b.succeeded('probe')
    expect(b.state()).toBe('closed')
    expect(b.admit()).toBe('call')
    expect(changes.map(([state]) => state)).toEqual(['open', 'half_open', 'closed'])
  })

  it('re-opens on a failed probe, with the cool-down counted from the failure', () => {
    const { b, clock, changes } = breaker(2)
    b.failed('call', 'a')
    b.failed('call', 'b')
    clock.advance(COOL_DOWN_MS)
    expect(b.admit()).toBe('probe')
    clock.advance(1000)
    b.failed('probe', 'still down')
    expect(b.state()).toBe('open')
    expect(changes.at(-1)).toEqual(['open', 'still down'])
    clock.advance(COOL_DOWN_MS - 1)
    expect(b.admit()).toBe('skip')
    clock.advance(1)
    expect(b.admit()).toBe('probe')
  })

  it('ignores the late outcomes of calls admitted before it opened', () => {
    const { b, clock } = breaker(1)
    b.failed('call', 'first')
    // A call that was already out fails (or succeeds) now: neither restarts nor closes anything.
    clock.advance(COOL_DOWN_MS - 1)
    b.failed('call', 'late')
    b.succeeded('call')
    expect(b.state()).toBe('open')
    clock.advance(1)
    expect(b.admit()).toBe('probe')
    b.succeeded('call')
    expect(b.state()).toBe('half_open')
  })

  it('refuses a threshold below one', () => {
    expect(() => createCircuitBreaker({ failures: 0, coolDownMs: 1, clock: createManualClock(0) })).toThrow(
      RangeError,
    )
  })
})
