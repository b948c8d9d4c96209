import type { TSchema } from 'typebox'
import type { PositionsDeps, ProtocolModule } from '../protocols/kit/protocol-module.ts'
import type { ActivityFilter } from '../store/activities.ts'
import { type ActivityItem, type ActivityPages, decodeActivityCursor } from './activities.ts'
import { coverageComplete, effectiveLedger, type HistoryQuery, type HistoryResponse } from './answer.ts'
import type { AnswerCache, SurfaceSerializers } from './answer-cache.ts'
import { answerHistory } from './surface-answer.ts'

/**
 * The CSV exports' tables: flat rows derived from the JSON answers' own schemas, so a column is
 * named as its field is (nested names joined with `.`, the `data.` envelope left out) and holds
 * its value exactly as the JSON does (decimal strings unchanged; null an empty cell), and the
 * walks that read a whole range page by page through the readers the JSON pages use, holding one
 * page at a time.
 */

/** A cell: its text, or null for an empty cell (a JSON null, or a field the record lacks). */
export type CsvCell = string | null

/** A table: its header and how one record of the answer becomes its rows. */
export interface CsvTable {
  columns: string[]
  /** One row per member of the record's expanded list; one row with those cells empty when it is empty. */
  rows(record: unknown): CsvCell[][]
}

/** How a record's schema becomes a table. */
export interface CsvTableSpec {
  /**
   * The record's list whose members become rows, as a dotted path (`legs`, `data.positions`);
   * without it a record is one row.
   */
  expand?: string
  /** Dotted paths left out (what is not one row's value: `enrichment`, `data.groups`). */
  omit?: readonly string[]
  /** The column before the expanded list's fields holding each member's index in it (`leg`). */
  index?: string
}

interface Column {
  name: string
  path: readonly string[]
}

type SchemaNode = { type?: unknown; properties?: Record<string, SchemaNode>; items?: SchemaNode }

const isObjectSchema = (s: SchemaNode) => s.type === 'object' && s.properties !== undefined
/** A column's name: its path without the `data` envelope, joined with `.`. */
const columnName = (path: readonly string[]) => (path[0] === 'data' ? path.slice(1) : path).join('.')

/** The scalar fields of an object schema, nested objects flattened, in the schema's order. */
function fieldsOf(schema: SchemaNode, path: string[], omit: ReadonlySet<string>): Column[] {
  const out: Column[] = []
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const at = [...path, key]
    if (omit.has(at.join('.'))) continue
    if (isObjectSchema(child)) out.push(...fieldsOf(child, at, omit))
    else out.push({ name: columnName(at), path: at })
  }
  return out
}

/** The value at a path of a JSON value, undefined where a member is missing. */
function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}

/**
 * A JSON value as a cell: a string as it is (a decimal string keeps every digit), an integer or a
 * boolean as JSON writes it, null or missing as an empty cell, a list or a map (activity `details`)
 * as its JSON text.
 */
export function cellOf(value: unknown): CsvCell {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value)
  return JSON.stringify(value)
}

/**
 * The table of records shaped by `schema` (TypeBox): the record's fields in the schema's order,
 * with the expanded list's fields (named `<list>.<field>`) where the list is. Columns come from the
 * schema, never from the data, so every export of a route has the same header, empty or not.
 */
export function csvTable(schema: TSchema, spec: CsvTableSpec): CsvTable {
  const omit = new Set(spec.omit ?? [])
  const root = schema as SchemaNode
  const expand = spec.expand?.split('.') ?? []
  let item: SchemaNode | undefined
  if (spec.expand !== undefined) {
    let list: SchemaNode | undefined = root
    for (const key of expand) list = list?.properties?.[key]
    item = list?.items
    if (item === undefined || !isObjectSchema(item))
      throw new Error(`csvTable: ${spec.expand} is not a list of objects in the record's schema`)
  }
  // The record's own fields before and after the list, whose members' fields go between them.
  const before: Column[] = []
  const after: Column[] = []
  let seen = false
  const walk = (node: SchemaNode, path: string[]) => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const at = [...path, key]
      const dotted = at.join('.')
      if (dotted === spec.expand) seen = true
      else if (omit.has(dotted)) continue
      else if (spec.expand?.startsWith(`${dotted}.`)) walk(child, at)
      else if (isObjectSchema(child)) (seen ? after : before).push(...fieldsOf(child, at, omit))
      else (seen ? after : before).push({ name: columnName(at), path: at })
    }
  }
  walk(root, [])
  const prefix = columnName(expand)
  const members =
    item === undefined ? [] : fieldsOf(item, [], omit).map((c) => ({ ...c, name: `${prefix}.${c.name}` }))
  const index = spec.index === undefined ? [] : [spec.index]
  const columns = [
    ...before.map((c) => c.name),
    ...index,
    ...members.map((c) => c.name),
    ...after.map((c) => c.name),
  ]
  const blank = [...index.map(() => null), ...members.map(() => null)]
  return {
    columns,
    rows(record) {
      const head = before.map((c) => cellOf(valueAt(record, c.path)))
      const tail = after.map((c) => cellOf(valueAt(record, c.path)))
      const listed = item === undefined ? undefined : valueAt(record, expand)
      const entries = Array.isArray(listed) ? listed : []
      if (entries.length === 0) return [[...head, ...blank, ...tail]]
      return entries.map((entry, i) => [
        ...head,
        ...index.map(() => String(i)),
        ...members.map((c) => cellOf(valueAt(entry, c.path))),
        ...tail,
      ])
    },
  }
}

/**
 * The list of a module's positions data that holds its rows (`vaults`, `positions`): its one list
 * of objects besides `groups` (the per-contract summaries of those rows).
 */
export function positionRowsKey(dataSchema: TSchema): string {
  const lists = Object.entries((dataSchema as SchemaNode).properties ?? {}).filter(
    ([key, s]) => key !== 'groups' && s.type === 'array' && s.items !== undefined && isObjectSchema(s.items),
  )
  if (lists.length !== 1)
    throw new Error(`a positions schema has one list of rows besides groups; found ${lists.map(([k]) => k)}`)
  return lists[0]![0]
}

/**
 * A history item as the JSON page writes it, for a table: every member but `enrichment` (the
 * referenced contracts and assets, not a row's values). Its `data` is parsed from the kept JSON:
 * amounts are strings there, so nothing is reformatted.
 */
export interface HistoryRecord {
  ledger: number
  closed_at: string | null
  valuation_ledger: number | null
  data: unknown
  oracle_staleness_seconds: number
  partial_result: boolean
}

/** A history page's records and its `meta`, as the JSON page reports it. */
export interface HistoryRecords {
  records: HistoryRecord[]
  meta: HistoryResponse['meta']
}

/**
 * Every history item of `query`'s range (from its cursor on, when it has one), newest first, a
 * page of `pageSize` at a time through `answerHistory`, the function the JSON pages are answered
 * by: one page is held at a time, and the next is read when the consumer asks for it.
 */
export async function* historyRecords(
  module: ProtocolModule,
  deps: PositionsDeps,
  query: Omit<HistoryQuery, 'limit'>,
  pageSize: number,
  cache: AnswerCache,
  serializers: SurfaceSerializers,
): AsyncGenerator<HistoryRecords> {
  let before = query.before
  for (;;) {
    const page = await answerHistory(module, deps, { ...query, before, limit: pageSize }, cache, serializers)
    const records = page.items.map(({ ledger, closedAt, surface }) => ({
      ledger,
      closed_at: closedAt,
      valuation_ledger: surface.valuationLedger,
      data: JSON.parse(surface.data),
      oracle_staleness_seconds: surface.oracleStalenessS,
      partial_result: surface.partial,
    }))
    yield { records, meta: page.meta }
    const next = page.items.at(-1)
    if (page.meta.next_cursor === null || next === undefined) return
    before = next.ledger
  }
}

/**
 * Whether a history range is partial as a whole, before any item is read: nothing is indexed, its
 * `to` is above the checkpoint, or the store lacks the protocol's contract history before its
 * first ledger. (Each item says whether it is partial itself.)
 */
export function historyRangePartial(
  module: ProtocolModule,
  deps: PositionsDeps,
  meta: { last_indexed_ledger: number | null; indexed_from_ledger: number | null },
  to: number | bigint | null,
): boolean {
  const last = meta.last_indexed_ledger
  if (last === null) return true
  if (to !== null && BigInt(to) > BigInt(last)) return true
  if (deps.network === null) return false
  return !coverageComplete(module.coverage(deps.network), meta.indexed_from_ledger, effectiveLedger(to, last))
}

/**
 * Every activity of `filter`'s range (from its cursor on), newest first, as of checkpoint `head`,
 * a page of `filter.limit` at a time through the activity pages the JSON answer is made of (the
 * same items, rendered and kept once).
 */
export async function* activityRecords(
  pages: ActivityPages,
  deps: PositionsDeps,
  filter: ActivityFilter,
  head: number | null,
  serialize: (item: ActivityItem) => string,
): AsyncGenerator<ActivityItem[]> {
  let before = filter.before
  for (;;) {
    const page = await pages.page(deps, { ...filter, before }, head, serialize)
    yield page.items === '' ? [] : (JSON.parse(`[${page.items}]`) as ActivityItem[])
    if (page.next === null) return
    before = decodeActivityCursor(page.next)
  }
}
