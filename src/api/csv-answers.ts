import type { FastifyReply, FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import type { ActivityItem, ActivityPages } from '../positions/activities.ts'
import type { AnswerCache, SurfaceSerializers } from '../positions/answer-cache.ts'
import {
  activityRecords,
  type CsvTable,
  type CsvTableSpec,
  csvTable,
  type HistoryRecords,
  historyRangePartial,
  historyRecords,
  positionRowsKey,
} from '../positions/csv.ts'
import type { PositionsDeps, ProtocolModule } from '../protocols/kit/protocol-module.ts'
import type { ActivityFilter } from '../store/activities.ts'
import { type CsvMeta, sendCsv } from './csv.ts'
import { HISTORY_LIMIT_MAX, invalid } from './route-helpers.ts'

/**
 * The CSV answer of each table-shaped route. Every table is derived from the JSON schema the route
 * itself declares for its 200 (so the CSV cannot name a field the JSON does not have), and every
 * range is read page by page through the functions its JSON pages are answered by.
 */

type SchemaNode = { properties?: Record<string, SchemaNode>; items?: SchemaNode; anyOf?: SchemaNode[] }

/**
 * The schema of the records at `path` of a route's JSON 200 answer (`data.snapshots`: a list's
 * members; `data`: that object), through a union's branch that has the path.
 */
function recordSchema(request: FastifyRequest, path: readonly string[]): SchemaNode {
  const response = (request.routeOptions.schema?.response as Record<string, unknown> | undefined)?.['200'] as
    | { content?: Record<string, { schema: SchemaNode }> }
    | undefined
  const root = response?.content?.['application/json']?.schema
  const find = (node: SchemaNode | undefined, rest: readonly string[]): SchemaNode | undefined => {
    if (node === undefined) return undefined
    if (node.anyOf) {
      for (const branch of node.anyOf) {
        const found = find(branch, rest)
        if (found) return found
      }
      return undefined
    }
    if (rest.length === 0) return node.items ?? node
    return find(node.properties?.[rest[0]!], rest.slice(1))
  }
  const found = find(root, path)
  if (found === undefined)
    throw new Error(`${request.routeOptions.url}: no ${path.join('.')} in its JSON answer`)
  return found
}

/** Each route's tables, derived once from its schema. */
const tables = new WeakMap<object, Map<string, CsvTable>>()

/** The table of a route's records at `path` (see `recordSchema`), shaped by `spec`. */
function routeTable(
  request: FastifyRequest,
  path: string,
  spec: (schema: SchemaNode) => CsvTableSpec,
): CsvTable {
  const key = request.routeOptions.schema ?? request.routeOptions
  let byPath = tables.get(key)
  if (!byPath) {
    byPath = new Map()
    tables.set(key, byPath)
  }
  let table = byPath.get(path)
  if (!table) {
    const schema = recordSchema(request, path.split('.'))
    table = csvTable(schema as TSchema, spec(schema))
    byPath.set(path, table)
  }
  return table
}

/** The 400 of `limit` on a CSV answer, which holds the whole range. */
export function csvLimit() {
  return invalid(
    'limit',
    'limit does not apply to a CSV answer, which holds every row of the range: narrow the range with from_ledger and to_ledger',
  )
}

/** The batches of one answer read whole (a series): one batch. */
async function* once(records: readonly unknown[]): AsyncGenerator<readonly unknown[]> {
  yield records
}

/**
 * `GET /v1/users/{address}/positions/{protocol}/history` as CSV: every snapshot of the range (from
 * the cursor on, when one is given), newest first, one row per position row of each (a snapshot
 * holding none is one row with the position columns empty). The `strata-partial-result` header
 * says whether the range as a whole is partial; each row's `partial_result` whether its snapshot is.
 */
export function sendHistoryCsv(
  request: FastifyRequest,
  reply: FastifyReply,
  module: ProtocolModule,
  deps: PositionsDeps,
  query: { address: string; from: number | bigint | null; to: number | bigint | null; before: number | null },
  cache: AnswerCache,
  serializers: SurfaceSerializers,
): Promise<FastifyReply> {
  const table = routeTable(request, 'data.snapshots', (item) => ({
    expand: `data.${positionRowsKey(item.properties!.data as TSchema)}`,
    omit: ['enrichment', 'data.groups'],
  }))
  let meta: HistoryRecords['meta'] | undefined
  const pages = historyRecords(module, deps, query, HISTORY_LIMIT_MAX, cache, serializers)
  async function* batches() {
    for await (const page of pages) {
      meta ??= page.meta
      yield page.records
    }
  }
  return sendCsv(reply, table, `${query.address}-${module.name}-history.csv`, batches(), () => ({
    last_indexed_ledger: meta!.last_indexed_ledger,
    indexed_from_ledger: meta!.indexed_from_ledger,
    partial_result: historyRangePartial(module, deps, meta!, query.to),
  }))
}

/**
 * `GET /v1/users/{address}/activities` as CSV: every action of the range and filters (from the
 * cursor on, when one is given) as of one checkpoint, newest first, one row per leg (`leg` its
 * index in `legs`; an action that moved nothing is one row with `leg` empty).
 */
export function sendActivitiesCsv(
  request: FastifyRequest,
  reply: FastifyReply,
  pages: ActivityPages,
  deps: PositionsDeps,
  filter: Omit<ActivityFilter, 'limit'>,
  head: number | null,
  serialize: (item: ActivityItem) => string,
  meta: CsvMeta,
): Promise<FastifyReply> {
  const table = routeTable(request, 'data.activities', () => ({ expand: 'legs', index: 'leg' }))
  const batches = activityRecords(pages, deps, { ...filter, limit: HISTORY_LIMIT_MAX }, head, serialize)
  const name = [filter.account, filter.protocol, 'activities'].filter((p) => p !== null).join('-')
  return sendCsv(reply, table, `${name}.csv`, batches, () => meta)
}

/**
 * A route's answer computed whole (an activity series, a TVL point or series) as CSV: the records
 * at `path` of its JSON answer, each as the route's schema shapes it, a list in them expanded to
 * one row per member when `expand` names one.
 */
export function sendRecordsCsv(
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
  records: readonly unknown[],
  filename: string,
  meta: CsvMeta,
  expand?: string,
): Promise<FastifyReply> {
  const table = routeTable(request, path, () => (expand === undefined ? {} : { expand }))
  return sendCsv(reply, table, filename, once(records), () => meta)
}
