import type { FastifyReply } from 'fastify'
import { type TSchema, Type } from 'typebox'
import type { NetworkConfig } from '../../chain/network.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import {
  type ActivityItem,
  type ActivityPage,
  buildTransactionAnswer,
  decodeActivityCursor,
  type Interval,
} from '../../positions/activities.ts'
import { Action } from '../../positions/activity-schema.ts'
import { coverageComplete } from '../../positions/answer.ts'
import { offerBodyTag, textTag } from '../../positions/answer-tag.ts'
import { nullableInteger, nullableString, nullableTimestamp } from '../../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'
import { type ActivityFilter, createActivitiesReader } from '../../store/activities.ts'
import type { IndexerHead } from '../../store/positions-read.ts'
import type { App } from '../app-type.ts'
import { metaOf, wantsCsv, withCsv } from '../csv.ts'
import { csvLimit, sendActivitiesCsv, sendRecordsCsv } from '../csv-answers.ts'
import { stableText } from '../http-conventions.ts'
import { stringifyJson } from '../json.ts'
import { AddressParam, HistoryLimit, LedgerPin, parseLedgerPin, requireAddress } from '../params.ts'
import {
  DATA_ERRORS,
  DATA_SCOPE,
  dataDeps,
  HISTORY_LIMIT_DEFAULT,
  HISTORY_LIMIT_MAX,
  invalid,
  sendData,
  sendJson,
} from '../route-helpers.ts'
import { errorResponses, Timestamp } from '../schemas.ts'

/** Where a page's rendered items go in its serialized envelope (serialized with an empty list). */
const EMPTY_LIST = '"activities":[]'

/**
 * The page's body and its tag: the hash of the envelope's stable text around the items' kept tag
 * (a few hundred characters hashed, not the page), offered to the caching step with whether the
 * answer is partial, so it neither hashes nor searches the body (answer-tag.ts).
 */
function taggedPage(envelope: string, page: ActivityPage, partial: boolean): string {
  const at = envelope.indexOf(EMPTY_LIST) + EMPTY_LIST.length - 1
  const before = envelope.slice(0, at)
  const after = envelope.slice(at)
  const tag = textTag(`${stableText(before)}\u0000${page.tag}\u0000${stableText(after)}`)
  return offerBodyTag(before + page.items + after, tag, partial)
}

/**
 * The page envelope's serializer: the route's JSON schema (its 200 documents CSV beside JSON, so
 * the serializer is chosen by media type).
 */
function serializeEnvelope(reply: FastifyReply): (value: unknown) => string {
  const serialize = reply.getSerializationFunction('200', 'application/json')
  if (serialize === undefined) return (value) => String(reply.serialize(value))
  return (value) => serialize(value as Record<string, unknown>)
}

/** What the CSV answers hold (the OpenAPI document's words for their text/csv content). */
const ACTIVITIES_CSV =
  'Every action of the range and filters (limit does not apply), newest first, one row per leg; see "CSV export" in docs/api.md'
const SERIES_CSV = 'One row per bucket, oldest first; see "CSV export" in docs/api.md'
/** The `meta` members the CSV answers carry in their headers. */
const CSV_META = ['last_indexed_ledger', 'indexed_from_ledger', 'partial_result']

/** The widest ledger range a series or filter can name (int64 pins above it match nothing more). */
const LEDGER_MAX = Number.MAX_SAFE_INTEGER

const PROTOCOL_NAMES = PROTOCOLS.map((p) => p.name)
const ProtocolFilter = Type.String({
  pattern: `^(${PROTOCOL_NAMES.join('|')})$`,
  description: `One of ${PROTOCOL_NAMES.join(', ')}`,
})
/** Every activity type of the registered modules, each once, in registry order. */
const ACTIVITY_TYPES = [...new Set(PROTOCOLS.flatMap((p) => p.activityTypes))]
const TypeFilter = Type.String({
  pattern: '^[a-z_]{1,40}$',
  description: `An activity type: ${ACTIVITY_TYPES.join(', ')}`,
})

/**
 * The type filter, when given, names a type the chosen protocol (or any registered protocol) can
 * record: anything else is a 400 listing the types allowed, never an empty page.
 */
function requireActivityType(type: string | undefined, protocol: string | undefined): void {
  if (type === undefined) return
  const module = protocol === undefined ? undefined : PROTOCOLS.find((p) => p.name === protocol)
  const allowed = module?.activityTypes ?? ACTIVITY_TYPES
  if (!allowed.includes(type)) {
    const of = module ? ` for protocol ${module.name}` : ''
    throw invalid('type', `type must be one of ${allowed.join(', ')}${of}`)
  }
}
const CursorParam = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,80}$',
  description: 'The next_cursor of a previous page, unchanged',
})
const IntervalParam = Type.Union([Type.Literal('hour'), Type.Literal('day')], {
  description: 'hour or day (UTC buckets by ledger close time)',
})

const listMeta = (extra: Record<string, TSchema>) =>
  Type.Object({
    last_indexed_ledger: nullableInteger('The indexer checkpoint'),
    indexed_from_ledger: nullableInteger(
      'The first ledger the store ingested: actions before it are unknown',
    ),
    partial_result: Type.Boolean({
      description: 'true when the range reaches below indexed_from_ledger or above the indexed head',
    }),
    sources: Type.Array(Type.String()),
    response_time_ms: Type.Integer(),
    ...extra,
  })

const RangeMeta = {
  from_ledger: Type.Unsafe<number | bigint | null>({
    type: ['integer', 'null'],
    description: 'As given (inclusive)',
  }),
  to_ledger: Type.Unsafe<number | bigint | null>({
    type: ['integer', 'null'],
    description: 'As given (inclusive)',
  }),
}

interface RangeQuery {
  from_ledger?: string
  to_ledger?: string
}

function parseRange(q: RangeQuery) {
  const from = q.from_ledger === undefined ? null : parseLedgerPin(q.from_ledger, 'from_ledger')
  const to = q.to_ledger === undefined ? null : parseLedgerPin(q.to_ledger, 'to_ledger')
  if (from !== null && to !== null && BigInt(from) > BigInt(to)) {
    throw invalid('from_ledger', 'from_ledger must be at most to_ledger')
  }
  const clamp = (v: number | bigint) => (BigInt(v) > BigInt(LEDGER_MAX) ? LEDGER_MAX : Number(v))
  return { from, to, lower: from === null ? 0 : clamp(from), upper: to === null ? LEDGER_MAX : clamp(to) }
}

/** `GET /v1/transactions/{hash}`, `GET /v1/users/{address}/activities` and its series. */
export function registerActivityRoutes(app: App, ctx: AppContext): void {
  const actions = createActivitiesReader(ctx.database)
  const pages = ctx.caches.activityPages

  // An item's JSON as the response serializer writes it inside the page (compiled on first use).
  let serializeItem: ((item: unknown) => string) | null = null
  const itemSerializer = (reply: FastifyReply) => {
    serializeItem ??= reply.compileSerializationSchema(Action as unknown as Record<string, unknown>) as (
      item: unknown,
    ) => string
    return serializeItem
  }
  const common = { tags: ['Activities'], security: [{ apiKey: [] }] }

  /**
   * Partial when the range reaches above the head, or a watched contract of the protocols asked
   * about has history before the store's first ledger (its actions there were never read).
   */
  const rangeMeta = async (
    protocol: string | null,
    upper: number | null,
    network: NetworkConfig | null,
    known?: IndexerHead | null,
  ) => {
    const head = known ?? (await ctx.reader.head())
    const last = head.lastIndexedLedger
    const first = head.firstIndexedLedger
    const modules = PROTOCOLS.filter((p) => protocol === null || p.name === protocol)
    const contracts = network ? modules.flatMap((m) => m.coverage(network)) : []
    const ledger = last === null ? null : upper === null ? last : Math.min(upper, last)
    return {
      last_indexed_ledger: last,
      indexed_from_ledger: first,
      partial_result:
        last === null ||
        (upper !== null && upper > last) ||
        (ledger !== null && !coverageComplete(contracts, first, ledger)),
    }
  }

  app.get(
    '/v1/transactions/:hash',
    {
      config: { auth: 'api_key', scope: DATA_SCOPE },
      schema: {
        ...common,
        summary: 'Get transaction',
        description:
          'A transaction that touched a watched contract: its ledger, close time, success, fee and fee account, and the protocol actions decoded from it (none for a failed transaction: nothing it did took effect). 404 for a transaction that touched no watched contract, or one the store has not ingested.',
        params: Type.Object({
          hash: Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'Transaction hash, 64 hex digits' }),
        }),
        querystring: Type.Object({}, { additionalProperties: false }),
        response: {
          200: Type.Object({
            data: Type.Object({
              hash: Type.String(),
              ledger: Type.Integer(),
              closed_at: nullableTimestamp('Close time of its ledger (RFC 3339, UTC); null when unknown'),
              successful: Type.Boolean(),
              fee_charged: Type.String({ description: 'Fee charged, in stroops', pattern: '^[0-9]+$' }),
              fee_account: nullableString(
                "The account that paid the fee (the transaction's source unless fee-bumped); null when the ledger's fee processing does not name it",
              ),
              source_account: nullableString(
                "The transaction's source account (the inner transaction's for a fee bump), from its envelope; null when it invokes no watched contract (it only touched one's data or events)",
              ),
              contract_address: nullableString('The watched contract it invoked, from its envelope'),
              function: nullableString('The contract function it invoked, from its envelope'),
              actions: Type.Array(Action, { description: 'In event order' }),
            }),
            meta: listMeta({}),
          }),
          ...errorResponses(
            'invalid_request',
            'unauthorized',
            'insufficient_scope',
            'not_found',
            'rate_limited',
          ),
        },
      },
    },
    async (request, reply) => {
      const started = performance.now()
      const hash = (request.params as { hash: string }).hash.toLowerCase()
      const tx = await actions.transaction(hash)
      if (!tx)
        throw new AppError('not_found', `transaction ${hash} touched no watched contract (or is not indexed)`)
      const deps = await dataDeps(ctx)
      const data = await buildTransactionAnswer(deps, actions, tx)
      const head = await ctx.reader.head()
      const meta = {
        last_indexed_ledger: head.lastIndexedLedger,
        indexed_from_ledger: head.firstIndexedLedger,
        partial_result: false,
        sources: deps.network ? [`ledgers:${deps.network.name}`] : [],
        response_time_ms: 0,
      }
      return sendData(reply, { data, meta }, started, false)
    },
  )

  app.get(
    '/v1/users/:address/activities',
    withCsv(ACTIVITIES_CSV, {
      config: { auth: 'api_key', scope: DATA_SCOPE },
      schema: {
        ...common,
        summary: 'Get activities',
        description:
          "The account's decoded protocol actions with `from_ledger <= ledger <= to_ledger` (inclusive, optional), of one `protocol` and one `type` when given, newest first (by ledger, transaction order, event order), a page of `limit` at a time. Each names what it moved (`legs`: assets and protocol tokens, in their own units) and its USD value at its own ledger. `meta.next_cursor` continues with older actions (null on the last page); a cursor stays valid while the indexer keeps ingesting, since new actions are newer than any page served.",
        params: Type.Object({ address: AddressParam }),
        querystring: Type.Object(
          {
            protocol: Type.Optional(ProtocolFilter),
            type: Type.Optional(TypeFilter),
            from_ledger: Type.Optional(LedgerPin),
            to_ledger: Type.Optional(LedgerPin),
            limit: Type.Optional(HistoryLimit),
            cursor: Type.Optional(CursorParam),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            data: Type.Object({ address: Type.String(), activities: Type.Array(Action) }),
            meta: listMeta({
              ...RangeMeta,
              limit: Type.Integer(),
              next_cursor: nullableString('Pass as `cursor` for the next (older) page; null at the end'),
            }),
          }),
          ...DATA_ERRORS,
        },
      },
    }),
    async (request, reply) => {
      const started = performance.now()
      const q = request.query as RangeQuery & {
        protocol?: string
        type?: string
        limit?: string
        cursor?: string
      }
      const address = requireAddress((request.params as { address: string }).address)
      const csv = wantsCsv(request)
      requireActivityType(q.type, q.protocol)
      const range = parseRange(q)
      if (csv && q.limit !== undefined) throw csvLimit()
      const limit = q.limit === undefined ? HISTORY_LIMIT_DEFAULT : Number(q.limit)
      if (limit < 1 || limit > HISTORY_LIMIT_MAX) {
        throw invalid('limit', `limit must be a whole number from 1 to ${HISTORY_LIMIT_MAX}`)
      }
      const before = q.cursor === undefined ? null : decodeActivityCursor(q.cursor)
      if (q.cursor !== undefined && before === null) {
        throw invalid('cursor', 'cursor must be the next_cursor of a previous page, unchanged')
      }
      const deps = await dataDeps(ctx)
      const filter: ActivityFilter = {
        account: address,
        protocol: q.protocol ?? null,
        type: q.type ?? null,
        from: range.lower,
        to: range.upper,
        before,
        limit,
      }
      // One checkpoint for the whole answer (the one authentication read): the page stops at it.
      const head = request.view?.head ?? (await ctx.reader.head())
      const upper = range.to === null ? null : range.upper
      const known = await rangeMeta(q.protocol ?? null, upper, deps.network, head)
      if (csv) {
        const serialize = itemSerializer(reply)
        const meta = metaOf(known, CSV_META)
        return sendActivitiesCsv(request, reply, pages, deps, filter, head.lastIndexedLedger, serialize, meta)
      }
      const page = await pages.page(deps, filter, head.lastIndexedLedger, itemSerializer(reply))
      const next = page.next
      const response = {
        data: { address, activities: [] as ActivityItem[] },
        meta: {
          ...known,
          sources: deps.network ? [`ledgers:${deps.network.name}`] : [],
          from_ledger: range.from,
          to_ledger: range.to,
          limit,
          next_cursor: next,
          response_time_ms: 0,
        },
      }
      response.meta.response_time_ms = Math.round(performance.now() - started)
      // The schema serializer cannot write a BigInt; such an answer is serialized by hand.
      const exact = typeof range.from === 'bigint' || typeof range.to === 'bigint'
      const envelope = exact ? stringifyJson(response) : serializeEnvelope(reply)(response)
      return sendJson(reply as FastifyReply, taggedPage(envelope, page, known.partial_result))
    },
  )

  app.get(
    '/v1/users/:address/activities/series',
    withCsv(SERIES_CSV, {
      config: { auth: 'api_key', scope: DATA_SCOPE },
      schema: {
        ...common,
        summary: 'Get activity series',
        description:
          "The account's actions with `from_ledger <= ledger <= to_ledger` (of one `protocol` when given) counted per UTC hour or day of their ledgers' close times, oldest bucket first, with the USD volume of the priced ones (each at its own ledger's prices). Buckets without an action are left out.",
        params: Type.Object({ address: AddressParam }),
        querystring: Type.Object(
          {
            interval: IntervalParam,
            protocol: Type.Optional(ProtocolFilter),
            from_ledger: Type.Optional(LedgerPin),
            to_ledger: Type.Optional(LedgerPin),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            data: Type.Object({
              address: Type.String(),
              interval: Type.String(),
              buckets: Type.Array(
                Type.Object({
                  starts_at: Timestamp,
                  from_ledger: Type.Integer({ description: "Ledger of the bucket's oldest action" }),
                  to_ledger: Type.Integer({ description: "Ledger of the bucket's newest action" }),
                  count: Type.Integer(),
                  volume_usd: nullableString(
                    'Σ amount_usd of the priced actions, 7 decimals; null when none was priced',
                  ),
                  unpriced_count: Type.Integer({ description: 'Actions of the bucket without a USD value' }),
                }),
              ),
            }),
            meta: listMeta(RangeMeta),
          }),
          ...DATA_ERRORS,
        },
      },
    }),
    async (request, reply) => {
      const started = performance.now()
      const q = request.query as RangeQuery & { interval: Interval; protocol?: string }
      const address = requireAddress((request.params as { address: string }).address)
      const csv = wantsCsv(request)
      const range = parseRange(q)
      const deps = await dataDeps(ctx)
      // One checkpoint for the whole answer (the one authentication read): the series stops at it.
      const head = request.view?.head ?? (await ctx.reader.head())
      const buckets = await pages.seriesOf(
        deps,
        { account: address, protocol: q.protocol ?? null, from: range.lower, to: range.upper },
        q.interval,
        head.lastIndexedLedger,
        HISTORY_LIMIT_MAX,
      )
      const response = {
        data: { address, interval: q.interval, buckets },
        meta: {
          ...(await rangeMeta(
            q.protocol ?? null,
            range.to === null ? null : range.upper,
            deps.network,
            head,
          )),
          sources: deps.network ? [`ledgers:${deps.network.name}`] : [],
          from_ledger: range.from,
          to_ledger: range.to,
          response_time_ms: 0,
        },
      }
      if (csv) {
        const file = `${[address, q.protocol, 'activities', q.interval].filter(Boolean).join('-')}.csv`
        const meta = metaOf(response.meta, CSV_META)
        return sendRecordsCsv(request, reply, 'data.buckets', buckets, file, meta)
      }
      return sendData(
        reply,
        response,
        started,
        typeof range.from === 'bigint' || typeof range.to === 'bigint',
      )
    },
  )
}
