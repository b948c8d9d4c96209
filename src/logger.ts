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

/** LOG_FORMAT as set, else readable lines on a terminal and JSON lines for everything else. */
export function resolveLogFormat(
  format: Config['logFormat'],
  stdout: { isTTY?: boolean } = process.stdout,
): 'json' | 'pretty' {
  return format ?? (stdout.isTTY === true ? 'pretty' : 'json')
}

/**
 * Log lines on stdout (or the given stream), secrets redacted: JSON lines, or with `pretty` one
 * readable line each (the same redacted record, reformatted). Stdout is written asynchronously:
 * lines logged while a write is in flight go out together in the next one, so a busy server makes
 * far fewer write(2) calls than lines, and a quiet process's line still appears at once. Pino
 * flushes what is pending when the process exits.
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
    format === 'pretty'
      ? prettyDestination(destination ?? process.stdout)
      : (destination ?? pino.destination({ dest: 1, sync: false })),
  )
}
