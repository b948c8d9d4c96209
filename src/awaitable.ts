/**
 * A value now, or later. The data endpoints' hot path is written with it so that a request whose
 * every step completes at once (SQLite in this process, the in-memory rate limiter, an answer kept
 * rendered) runs to its response in one turn, with no promise and no microtask; a step that must
 * wait (PostgreSQL, Redis, a rendering) returns a promise and the rest follows it.
 */
export type Awaitable<T> = T | Promise<T>

/** `fn(value)`, now when the value is here, after it when it is a promise. */
export function andThen<T, U>(value: Awaitable<T>, fn: (value: T) => Awaitable<U>): Awaitable<U> {
  return value instanceof Promise ? value.then(fn) : fn(value)
}

/** Every value of `values`, now when all are here, as one promise otherwise. */
export function allOf<T>(values: ReadonlyArray<Awaitable<T>>): Awaitable<T[]> {
  for (const value of values) if (value instanceof Promise) return Promise.all(values)
  return values as T[]
}

/**
 * What a handler that sends its own reply returns: nothing when the reply went out in this turn,
 * the promise of it otherwise (Fastify then waits for it, and reports its rejection).
 */
export function sentWhen(sent: Awaitable<unknown>): Promise<void> | undefined {
  return sent instanceof Promise ? sent.then(() => undefined) : undefined
}

/**
 * Resolves with `promise`, or rejects after `ms`: a caller that must answer (health, readiness,
 * a metrics scrape) answers even when the database hangs.
 */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
