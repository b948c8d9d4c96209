import { existsSync, readdirSync, readFileSync } from 'node:fs'

/**
 * One operation's example, as `npm run openapi:examples` records it from the demo network: the
 * request it asked (path, query and header values as sent, the body) and each status's answer.
 */
export interface OperationExample {
  request: {
    path?: Record<string, string>
    query?: Record<string, string>
    headers?: Record<string, string>
    body?: unknown
  }
  responses: Record<string, unknown>
  /** Other answers of a status worth showing (a series beside a point, a page that follows): by status. */
  variants?: Record<string, Array<{ summary: string; value: unknown }>>
}

const DIRECTORY = new URL('./', import.meta.url)

/** Every operation's example, by operation id (`<operationId>.json` in this directory). */
export function loadOperationExamples(): Record<string, OperationExample> {
  if (!existsSync(DIRECTORY)) return {}
  const out: Record<string, OperationExample> = {}
  for (const file of readdirSync(DIRECTORY)) {
    if (!file.endsWith('.json')) continue
    out[file.slice(0, -'.json'.length)] = JSON.parse(readFileSync(new URL(file, DIRECTORY), 'utf8'))
  }
  return out
}
