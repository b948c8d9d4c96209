import type { Clock } from '../clock.ts'

/**
 * `closed`: calls go to the service. `open`: the service failed `failures` times in a row, so
 * nobody calls it until `coolDownMs` has passed. `half_open`: the cool-down is over and one probe
 * is out; everyone else still goes without the service until the probe says how it is.
 */
export type BreakerState = 'closed' | 'open' | 'half_open'

/** What a caller does now: call the service, send the one probe, or do without the service. */
export type BreakerAdmission = 'call' | 'probe' | 'skip'

export interface BreakerOptions {
  /** Consecutive failures (errors or timeouts) of calls that open the breaker. */
  failures: number
  /** How long an open breaker lets nobody through before one probe, in milliseconds. */
  coolDownMs: number
  clock: Clock
  /** Told of every change of state, with the failure that caused it (null when it closes). */
  onChange?: (state: BreakerState, cause: unknown) => void
}

export interface CircuitBreaker {
  state(): BreakerState
  /** Whether the caller may use the service now (`probe`: it is the only one, until it reports). */
  admit(): BreakerAdmission
  /** The outcome of a call or probe admitted by `admit`. */
  succeeded(admission: Exclude<BreakerAdmission, 'skip'>): void
  failed(admission: Exclude<BreakerAdmission, 'skip'>, cause: unknown): void
}

/**
 * A circuit breaker driven by the outcomes its callers report, with no timer of its own: the
 * cool-down is compared with the clock on the next `admit`. The outcome of a call admitted while
 * closed counts only while the breaker is still closed (a call that fails after the breaker
 * opened changes nothing); only the probe decides the half-open state.
 */
export function createCircuitBreaker(options: BreakerOptions): CircuitBreaker {
  const { failures, coolDownMs, clock, onChange } = options
  if (!Number.isSafeInteger(failures) || failures < 1)
    throw new RangeError('failures must be a whole number >= 1')
  let state: BreakerState = 'closed'
  let consecutive = 0
  let openedAt = 0
  const move = (next: BreakerState, cause: unknown) => {
    const changed = next !== state
    state = next
    if (changed) onChange?.(next, cause)
  }
  const open = (cause: unknown) => {
    openedAt = clock.now()
    consecutive = 0
    // A failed probe re-opens: the state is the same, but the cool-down restarts and the cause is news.
    if (state === 'half_open') {
      state = 'open'
      onChange?.('open', cause)
    } else move('open', cause)
  }
  return {
    state: () => state,
    admit() {
      if (state === 'closed') return 'call'
      if (state === 'open' && clock.now() - openedAt >= coolDownMs) {
        move('half_open', null)
        return 'probe'
      }
      return 'skip'
    },
    succeeded(admission) {
      if (admission === 'probe') {
        if (state === 'half_open') {
          consecutive = 0
          move('closed', null)
        }
      } else if (state === 'closed') consecutive = 0
    },
    failed(admission, cause) {
      if (admission === 'probe') {
        if (state === 'half_open') open(cause)
      } else if (state === 'closed' && ++consecutive >= failures) open(cause)
    },
  }
}
