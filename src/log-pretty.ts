import type { DestinationStream } from 'pino'

/** pino's numeric levels, as the readable lines name them. */
const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
}
const LEVEL_COLOURS: Record<number, string> = { 40: '\x1b[33m', 50: '\x1b[31m', 60: '\x1b[31m' }
const DIM = '\x1b[2m'
const RESET = '\x1b[0m'

/** Fields every line has, or that the line's head already shows. */
const SHOWN = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname'])

/**
 * One JSON log line (as pino wrote it, credentials already redacted) as one readable line:
 * `13:24:01 INFO  GET /v1/health 200 1.2ms`, other fields as `key=value`, an error's stack below.
 * A line that is not JSON is passed through as it is.
 */
export function formatLogLine(json: string, colour = false): string {
  let entry: Record<string, unknown>
  try {
    entry = JSON.parse(json) as Record<string, unknown>
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`
  }
  const level = typeof entry.level === 'number' ? entry.level : 30
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 19) : ''
  let name = (LEVEL_NAMES[level] ?? String(level)).padEnd(5)
  if (colour && LEVEL_COLOURS[level]) name = `${LEVEL_COLOURS[level]}${name}${RESET}`
  const fields = { ...entry }
  let head = String(entry.msg ?? '')
  // A request's own line: what was asked and how it went, in the order a reader scans them.
  if (entry.msg === 'request' && typeof entry.method === 'string') {
    head = `${entry.method} ${entry.url} ${entry.status} ${entry.ms}ms`
    for (const key of ['method', 'url', 'status', 'ms']) delete fields[key]
  }
  let stack = ''
  const err = fields.err as { message?: string; stack?: string } | undefined
  if (err && typeof err === 'object') {
    head += `: ${err.message ?? ''}`
    if (level >= 50 && typeof err.stack === 'string') {
      stack = `\n${err.stack
        .split('\n')
        .slice(1)
        .map((l) => `    ${l.trim()}`)
        .join('\n')}`
    }
    delete fields.err
  }
  const rest = Object.entries(fields)
    .filter(([key, value]) => !SHOWN.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
  const tail = rest.length > 0 ? ` ${colour ? DIM : ''}${rest.join(' ')}${colour ? RESET : ''}` : ''
  return `${colour ? DIM : ''}${time}${colour ? RESET : ''} ${name} ${head}${tail}${stack}\n`
}

/** A pino destination that writes each line readable, to a terminal (or any stream). */
export function prettyDestination(out: { write(line: string): unknown; isTTY?: boolean }): DestinationStream {
  const colour = out.isTTY === true
  return {
    write(chunk: string) {
      // pino writes one line per call; a chunk may still carry several when it buffers.
      for (const line of chunk.split('\n')) if (line !== '') out.write(formatLogLine(line, colour))
    },
  }
}
