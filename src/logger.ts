import pino, { type DestinationStream, type Logger } from 'pino'
import type { Config } from './config.ts'
import { prettyDestination } from './log-pretty.ts'

export type { Logger }

/** Paths whose values never reach a log line: credentials, passwords, tokens. */
export const REDACTED_PATHS = [
  'req.headers["x-svc-token"]',
  'req.headers["x-svc-admin-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-svc-token"]',
  'headers["x-svc-admin-token"]',
  'headers.authorization',
  'body.password',
  'body.refresh_token',
  'body.access_token',
  'body.key',
  'key',
  'adminToken',
]

/**
 * Query parameter names that say they hold a credential (`key`, `api_key`, `apiKey`, `token`,
 * `access_token`, `secret`, `password`, `auth`, `signature`...): their values are never logged.
 */
const CREDENTIAL_NAME = /key|token|secret|passw|pwd|auth|credential|signature/i

/**
 * Values that look like a credential whatever the parameter is called: a Strata API key
 * (`strata_` and base62, src/auth/api-key.ts), a generated admin token (`adm_`), a JWT (access
 * and refresh tokens), or an Authorization value (`Bearer …`).
 */
const CREDENTIAL_VALUE = /strata_[0-9A-Za-z]{8,}|^adm_[\w-]{8,}|eyJ[\w-]*\.[\w-]+\.|^(bearer|basic)[\s+]/i

/**
 * The URL as it may be logged: the value of every query parameter named like a credential, or
 * whose value looks like one, replaced by `[redacted]`. The API never takes a credential in the
 * query, but clients put keys there anyway (`?api_key=strata_…`), and a logged URL would keep it.
 * The path and the other parameters are kept as sent.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?')
  if (query < 0) return url
  const params = url.slice(query + 1).split('&')
  let changed = false
  for (let i = 0; i < params.length; i++) {
    const param = params[i] as string
    const equals = param.indexOf('=')
    const name = equals < 0 ? param : param.slice(0, equals)
    const value = equals < 0 ? '' : param.slice(equals + 1)
    if (value === '') continue
    if (CREDENTIAL_NAME.test(decodeLoosely(name)) || CREDENTIAL_VALUE.test(decodeLoosely(value))) {
      params[i] = `${name}=[redacted]`
      changed = true
    }
  }
  return changed ? `${url.slice(0, query + 1)}${params.join('&')}` : url
}

/** A query component percent-decoded (`+` as a space), or as it is when its escapes are malformed. */
function decodeLoosely(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return text
  }
}

/** LOG_FORMAT as set, else readable lines on a terminal and JSON lines for everything else. */
export function resolveLogFormat(
  format: Config['logFormat'],
  stdout: { isTTY?: boolean } = process.stdout,
): 'json' | 'pretty' {
  return format ?? (stdout.isTTY === true ? 'pretty' : 'json')
}

/**
 * Log lines on stdout (or the given stream), secrets redacted: JSON lines, or with `pretty` one
 * readable line each (the same redacted record, reformatted). Stdout gets the lines of one turn of
 * the event loop in one write (see `turnBatched`).
 */
export function createLogger(
  level: Config['logLevel'],
  destination?: DestinationStream,
  format: 'json' | 'pretty' = 'json',
): Logger {
  return pino(
    {
      level,
      base: { service: 'strata' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    format === 'pretty' ? prettyDestination(destination ?? process.stdout) : (destination ?? stdoutLines()),
  )
}

/**
 * The fields of the one log line of a request. None of them can carry a credential: the URL's
 * credential-looking query values are redacted when it is written (`redactUrl`).
 */
export interface RequestLineFields {
  method: string
  url: string
  status: number
  ms: number
  org: string | undefined
}

interface LoggerInternals {
  [pino.symbols.streamSym]: DestinationStream
  [pino.symbols.chindingsSym]: string
  [pino.symbols.levelValSym]: number
}

/**
 * Writes a request's log line, byte for byte the line `logger.info({ method, url, status, ms, org },
 * 'request')` writes, to the logger's own destination, built by one template instead of pino's
 * generic object walk (measured: a third of a request's logging cost). Its fields are fixed, and
 * the one that could carry a credential, the URL's query, is redacted by `redactUrl` here, not by
 * pino's paths; anything else is logged through pino as before.
 */
export function writeRequestLine(logger: object, fields: RequestLineFields): void {
  const internals = logger as LoggerInternals
  // pino's numeric level: info is 30.
  if (internals[pino.symbols.levelValSym] > 30) return
  const org = fields.org === undefined ? '' : `,"org":${JSON.stringify(fields.org)}`
  internals[pino.symbols.streamSym].write(
    `{"level":30,"time":"${isoNow()}"${internals[pino.symbols.chindingsSym]},"method":${JSON.stringify(fields.method)},"url":${JSON.stringify(redactUrl(fields.url))},"status":${fields.status},"ms":${fields.ms}${org},"msg":"request"}\n`,
  )
}

let isoMs = Number.NaN
let iso = ''

/** `new Date().toISOString()`, written once per millisecond (a busy server logs many lines in one). */
function isoNow(): string {
  const ms = Date.now()
  if (ms !== isoMs) {
    isoMs = ms
    iso = new Date(ms).toISOString()
  }
  return iso
}

/** A log destination that can be flushed: pino's `logger.flush(cb)` calls it. */
export interface FlushableDestination extends DestinationStream {
  flush(callback?: (error?: Error) => void): void
}

/**
 * Log lines for `stream`, gathered over one turn of the event loop and handed to it in one write
 * when the turn ends (`setImmediate`), so a busy server makes one write per turn however many
 * requests the turn answered, and a quiet server's line still goes out in the turn it was logged.
 * The stream does the writing in the calling thread: stdout on a pipe or socket writes at once
 * and queues what the reader is not ready for, on a file it writes synchronously. (pino's
 * asynchronous destination hands every write to a thread-pool thread instead; measured on the
 * vault endpoint, that hand-off cost about a tenth of the request's CPU: docs/performance.md.)
 *
 * A stream that fails (stdout's reader gone: EPIPE) takes no more lines and does not take the
 * server down: the lines it cannot take are dropped. Lines still gathered when the process exits
 * are written then.
 */
export function turnBatched(stream: NodeJS.WritableStream): FlushableDestination {
  let pending = ''
  let scheduled = false
  let failed = false
  stream.on('error', () => {
    failed = true
    pending = ''
  })
  const writeOut = (callback?: (error?: Error) => void): void => {
    scheduled = false
    const lines = pending
    pending = ''
    // A flush with nothing gathered still writes (nothing), to call back after the writes before it.
    if (failed || (lines === '' && callback === undefined)) {
      callback?.()
      return
    }
    stream.write(lines, callback && ((error) => callback(error ?? undefined)))
  }
  const onTurnEnd = () => writeOut()
  return {
    write(line: string) {
      if (failed) return
      pending += line
      if (!scheduled) {
        scheduled = true
        setImmediate(onTurnEnd)
      }
    },
    flush: writeOut,
  }
}

let stdout: FlushableDestination | undefined

/** The process's one stdout destination, whose gathered lines are written when the process exits. */
function stdoutLines(): FlushableDestination {
  if (stdout === undefined) {
    const destination = turnBatched(process.stdout)
    process.once('exit', () => destination.flush())
    stdout = destination
  }
  return stdout
}
