/** Time source, injectable so tests can move time instead of waiting. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }
