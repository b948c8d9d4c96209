import type { Transform } from 'node:stream'
import { stringify } from 'csv-stringify'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { type TSchema, Type } from 'typebox'
import type { CsvTable } from '../positions/csv.ts'

/**
 * CSV answers of the table-shaped routes (position history, activities and their series, TVL):
 * which format a request asks for, and the streamed answer itself. The rows come from
 * `positions/csv.ts`; this module only negotiates and writes. docs/api.md "CSV export" is the
 * contract.
 */

/** The `format` query parameter of the routes that answer CSV too. */
export const FormatParam = Type.Union([Type.Literal('json'), Type.Literal('csv')], {
  description:
    'json (the default) or csv: the whole range as one CSV file (RFC 4180, a header row, one row per record). Wins over the Accept header',
  examples: ['csv'],
})

/** The content type of every CSV answer. */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8'

/**
 * A route's 200 response with its JSON schema and its CSV alternative, as OpenAPI documents two
 * media types of one answer. The JSON answers are serialized by the same schema as before.
 */
export function jsonOrCsv(schema: TSchema, csv: string) {
  const header = (description: string, type: 'string' | 'integer' | 'boolean' = 'integer') => ({
    type,
    description: `CSV answers only: ${description}`,
  })
  return {
    description: 'The answer: JSON by default, CSV with `format=csv` or `Accept: text/csv`',
    headers: {
      'content-disposition': header('attachment; filename="<name>.csv"', 'string'),
      'strata-last-indexed-ledger': header(
        "the indexer checkpoint the answer was read at (meta's last_indexed_ledger)",
      ),
      'strata-indexed-from-ledger': header(
        "the first ledger the store ingested (meta's indexed_from_ledger)",
      ),
      'strata-partial-result': header(
        'whether the range as a whole needs what the store does not hold (each row of a history or a TVL says so of itself)',
        'boolean',
      ),
    },
    content: {
      'application/json': { schema },
      'text/csv': { schema: Type.String({ description: csv }) },
    },
  }
}

/**
 * A route's options with its CSV answer declared: `format` joins its query schema, and its 200
 * documents the JSON it declares and CSV beside it. It wraps the options rather than editing
 * them, so the route's schema stays as written.
 */
export function withCsv<T extends { schema?: object }>(csv: string, options: T): T {
  const schema = options.schema as
    | { querystring?: { properties?: Record<string, unknown> }; response?: Record<string, unknown> }
    | undefined
  const query = schema?.querystring
  const ok = schema?.response?.['200']
  if (query?.properties === undefined || ok === undefined)
    throw new Error('withCsv: the route declares no query schema or no 200 answer')
  return {
    ...options,
    schema: {
      ...schema,
      querystring: { ...query, properties: { ...query.properties, format: FormatParam } },
      response: { ...schema!.response, 200: jsonOrCsv(ok as TSchema, csv) },
    },
  }
}

/** The members of an answer's `meta` a CSV answer carries in its headers (see `sendCsv`). */
export function metaOf(meta: object, names: readonly string[]): CsvMeta {
  const out: CsvMeta = {}
  for (const name of names) {
    const value = (meta as Record<string, unknown>)[name]
    out[name] =
      typeof value === 'bigint' ? value.toString() : ((value as CsvMeta[string] | undefined) ?? null)
  }
  return out
}

/** The quality a media range list gives a type, by its most specific matching range; 0 when none matches. */
function quality(accept: string, type: string, subtype: string): { q: number; exact: boolean } {
  let best = { q: 0, exact: false }
  let specificity = -1
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase())
    const [t, s] = range.split('/')
    const level =
      t === type && s === subtype ? 2 : t === type && s === '*' ? 1 : t === '*' && s === '*' ? 0 : -1
    if (level <= specificity) continue
    const qParam = params.find((p) => p.startsWith('q='))
    const q = qParam === undefined ? 1 : Number(qParam.slice(2))
    specificity = level
    best = { q: Number.isFinite(q) ? q : 0, exact: level === 2 }
  }
  return best
}

/**
 * Whether an Accept header prefers CSV to JSON: `text/csv` ranked above `application/json`, or
 * named with the same quality where JSON is only reached through a wildcard (`text/csv, *\/*`).
 * `*\/*`, a missing header and a tie between the two named types stay JSON, the default.
 */
export function prefersCsv(accept: string | undefined): boolean {
  if (accept === undefined || accept === '') return false
  const csv = quality(accept, 'text', 'csv')
  const json = quality(accept, 'application', 'json')
  return csv.q > 0 && (csv.q > json.q || (csv.q === json.q && csv.exact && !json.exact))
}

/**
 * Whether the request asks for CSV: `format` when given (it wins), else its Accept header. The
 * answer varies with Accept either way: the `Vary` of every data answer names it
 * (`DATA_VARY` of http-conventions.ts, set by the app's onSend hook).
 */
export function wantsCsv(request: FastifyRequest): boolean {
  const format = (request.query as { format?: string } | undefined)?.format
  if (format !== undefined) return format === 'csv'
  return prefersCsv(request.headers.accept)
}

/** What a CSV answer's headers carry of its `meta` (`strata-<name>`); a null is left out. */
export type CsvMeta = Record<string, string | number | boolean | null>

/** Resolves when the stream can take more rows, or has closed (the client went away). */
function drained(stream: Transform): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done)
      stream.off('close', done)
      resolve()
    }
    stream.on('drain', done)
    stream.on('close', done)
  })
}

/**
 * Writes each batch of records as rows, reading the next batch only once the rows before it were
 * taken by the connection. Stops reading when the client goes away. A failure after the first
 * batch cuts the connection: the status may have left already, so the client sees a body cut
 * short (no final chunk) or no answer at all, never a file that looks complete.
 */
async function pump(
  stream: Transform,
  table: CsvTable,
  first: IteratorResult<readonly unknown[]>,
  batches: AsyncIterator<readonly unknown[]>,
  reply: FastifyReply,
): Promise<void> {
  try {
    let result = first
    // A HEAD answer has the headers and no body: the range is not read past its first page.
    if (reply.request.method === 'HEAD') {
      await batches.return?.()
      result = { done: true, value: undefined }
    }
    while (!result.done) {
      for (const record of result.value)
        for (const row of table.rows(record)) {
          if (stream.destroyed) return void (await batches.return?.())
          if (!stream.write(row)) await drained(stream)
        }
      if (stream.destroyed) return void (await batches.return?.())
      result = await batches.next()
    }
    stream.end()
  } catch (error) {
    reply.log.error({ err: error }, 'a CSV answer failed after its first rows: its connection is cut')
    stream.destroy(error as Error)
    // Cut whether or not the status line has left: an error answer can no longer be sent in order.
    reply.raw.destroy()
  }
}

/**
 * Sends a CSV answer: `table`'s header row, then the rows of every batch `batches` yields, streamed
 * as the connection takes them. The first batch is read before anything is sent, so a request
 * that fails there is answered with the usual JSON error and its status. `meta(first)` gives the
 * `strata-*` headers from what the first batch was read with.
 */
export async function sendCsv(
  reply: FastifyReply,
  table: CsvTable,
  filename: string,
  batches: AsyncIterator<readonly unknown[]>,
  meta: () => CsvMeta,
): Promise<FastifyReply> {
  const first = await batches.next()
  for (const [name, value] of Object.entries(meta()))
    if (value !== null) reply.header(`strata-${name.replaceAll('_', '-')}`, String(value))
  const stream = stringify({ record_delimiter: 'windows' })
  stream.write(table.columns)
  void pump(stream, table, first, batches, reply)
  return reply
    .type(CSV_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
    .send(stream)
}
