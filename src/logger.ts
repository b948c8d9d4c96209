import pino, { type DestinationStream, type Logger } from 'pino'
import type { Config } from './config.ts'

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
 * JSON lines on stdout (or the given stream), secrets redacted. Stdout is written asynchronously
 * in 4 KiB chunks: a write(2) per request line costs more than the rest of the request's logging.
 * Pino flushes what is buffered when the process exits.
 */
export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'strata' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }),
  )
}
