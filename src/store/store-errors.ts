/**
 * The one reading of a store failure: what the driver's own error (SQLite's result code, extended
 * codes included, or PostgreSQL's SQLSTATE and the socket's errno) says about the store, in plain
 * words. The API answers a classified error `503 unavailable` with `message`, health and the logs
 * name it by `code`; an error this returns null for is a wrong query, not an unwell store.
 */

/** Stable, snake_case: what health's problems, the logs and monitoring name the cause by. */
export type StoreErrorCode =
  | 'disk_full'
  | 'store_read_only'
  | 'store_io_error'
  | 'store_locked'
  | 'store_cannot_open'
  | 'store_corrupt'
  | 'store_unreachable'
  | 'store_timeout'

export interface StoreErrorClass {
  code: StoreErrorCode
  /** A sentence for clients and operators: the cause, then the driver's own text. */
  message: string
  /** The failure is of writing (the store may still be read). */
  write: boolean
}

// SQLite's primary result codes (the low byte of an extended code: SQLITE_IOERR_READ is 266).
const SQLITE_BUSY = 5
const SQLITE_LOCKED = 6
const SQLITE_READONLY = 8
const SQLITE_IOERR = 10
const SQLITE_CORRUPT = 11
const SQLITE_FULL = 13
const SQLITE_CANTOPEN = 14
const SQLITE_NOTADB = 26

const SQLITE_CLASSES: Record<number, { code: StoreErrorCode; words: string; write: boolean }> = {
  [SQLITE_FULL]: { code: 'disk_full', words: 'the database disk is full', write: true },
  [SQLITE_READONLY]: { code: 'store_read_only', words: 'the database is read-only', write: true },
  [SQLITE_IOERR]: {
    code: 'store_io_error',
    words: 'the database file could not be read or written',
    write: false,
  },
  [SQLITE_BUSY]: { code: 'store_locked', words: 'the database is locked by another process', write: true },
  [SQLITE_LOCKED]: { code: 'store_locked', words: 'the database is locked', write: true },
  [SQLITE_CANTOPEN]: { code: 'store_cannot_open', words: 'the database file cannot be opened', write: false },
  [SQLITE_CORRUPT]: { code: 'store_corrupt', words: 'the database file is damaged', write: false },
  [SQLITE_NOTADB]: { code: 'store_corrupt', words: 'the database file is not a database', write: false },
}

// PostgreSQL: the socket underneath, connection failures (class 08), shutdown (57P0x).
const PG_UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
])

const PG_UNREACHABLE_MESSAGE =
  /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|is not queryable|database is not open/

// A bound of the database-wait policy ran out (src/store/db.ts postgresPoolSettings): the server's
// statement_timeout or idle_in_transaction_session_timeout, or the client's query timeout.
const PG_TIMEOUT_CODES = new Set(['57014', '25P03'])
const PG_TIMEOUT_MESSAGE = /Query read timeout/

interface DriverError {
  code?: unknown
  errcode?: unknown
  errstr?: unknown
  message?: unknown
  errors?: unknown
  cause?: unknown
}

/** What `error` (or the error it wraps) says about the store, or null when it is not the store's. */
export function classifyStoreError(error: unknown): StoreErrorClass | null {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; depth++) {
    const found = classifyOne(e as DriverError)
    if (found) return found
    e = (e as DriverError).cause
  }
  return null
}

function classifyOne(e: DriverError): StoreErrorClass | null {
  const text = typeof e.message === 'string' ? e.message : ''
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const known = SQLITE_CLASSES[e.errcode & 0xff]
    if (!known) return null
    const driver = typeof e.errstr === 'string' && e.errstr !== '' ? e.errstr : text
    return { code: known.code, message: `${known.words} (SQLite: ${driver})`, write: known.write }
  }
  if (typeof e.code === 'string') {
    if (e.code === '53100')
      return { code: 'disk_full', message: pgWords('the database disk is full', text), write: true }
    if (e.code === '25006') {
      return { code: 'store_read_only', message: pgWords('the database is read-only', text), write: true }
    }
    if (PG_UNREACHABLE_CODES.has(e.code) || /^08/.test(e.code)) return unreachable(text)
    if (PG_TIMEOUT_CODES.has(e.code)) return timedOut(text)
  }
  if (PG_TIMEOUT_MESSAGE.test(text)) return timedOut(text)
  if (PG_UNREACHABLE_MESSAGE.test(text)) return unreachable(text)
  // An AggregateError (one per address a host name resolved to).
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const found = classifyStoreError(inner)
      if (found) return found
    }
  }
  return null
}

function pgWords(words: string, text: string): string {
  return text === '' ? words : `${words} (PostgreSQL: ${text})`
}

function timedOut(text: string): StoreErrorClass {
  return {
    code: 'store_timeout',
    message: pgWords('the database did not answer in time', text),
    write: false,
  }
}

function unreachable(text: string): StoreErrorClass {
  return {
    code: 'store_unreachable',
    message: text === '' ? 'the database cannot be reached' : `the database cannot be reached (${text})`,
    write: false,
  }
}

/**
 * The store did not answer at all (refused, dropped, timed out): health's database probe reports
 * that (`database_unreachable`); it says nothing about writes in particular.
 */
export function isUnanswered(found: StoreErrorClass): boolean {
  return found.code === 'store_unreachable' || found.code === 'store_timeout'
}

/**
 * True when an error means the store cannot be reached or used (not that a query was wrong): the
 * API answers these `503 unavailable`, as health does, never `500`.
 */
export function isStoreUnavailable(error: unknown): boolean {
  return classifyStoreError(error) !== null
}

/** SQLite's "database is locked" (SQLITE_BUSY): another connection holds the write lock. */
export function isSqliteBusy(error: unknown): boolean {
  const e = error as DriverError | null
  return (
    typeof e === 'object' &&
    e !== null &&
    e.code === 'ERR_SQLITE_ERROR' &&
    typeof e.errcode === 'number' &&
    (e.errcode & 0xff) === SQLITE_BUSY
  )
}

/**
 * A store that cannot be opened or written at start-up, naming where it is: one line for the
 * command to print. `classifyStoreError` sees the driver's error through `cause`.
 */
export class StoreStartError extends Error {
  constructor(where: string, cause: unknown) {
    const found = classifyStoreError(cause)
    const reason = found?.message ?? (cause instanceof Error ? cause.message : String(cause))
    super(`cannot use the database ${where}: ${reason}`, { cause })
    this.name = 'StoreStartError'
  }
}

/** How often a repeated store failure is logged again, with the count of repeats left out. */
export const STORE_FAILURE_LOG_INTERVAL_MS = 10_000

interface FailureLogger {
  error(object: object, message: string): void
  warn(object: object, message: string): void
}

/**
 * Logs store failures without flooding: the first of a cause (its code) in full, with the stack;
 * then at most one line per `intervalMs` for that cause, without a stack, saying how many repeats
 * were not logged. A locked database is a warning, every other cause an error.
 */
export function createStoreFailureLog(intervalMs = STORE_FAILURE_LOG_INTERVAL_MS, now = Date.now) {
  const seen = new Map<StoreErrorCode, { loggedAt: number; suppressed: number }>()
  return (logger: FailureLogger, found: StoreErrorClass, error: unknown, what: string): void => {
    const level = found.code === 'store_locked' ? 'warn' : 'error'
    const at = now()
    const earlier = seen.get(found.code)
    if (earlier === undefined) {
      seen.set(found.code, { loggedAt: at, suppressed: 0 })
      logger[level]({ code: found.code, cause: found.message, err: error }, what)
      return
    }
    if (at - earlier.loggedAt < intervalMs) {
      earlier.suppressed++
      return
    }
    logger[level](
      { code: found.code, cause: found.message, repeats_not_logged: earlier.suppressed },
      `${what} (again)`,
    )
    seen.set(found.code, { loggedAt: at, suppressed: 0 })
  }
}
