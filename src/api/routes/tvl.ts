import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import { answerState, coverageComplete } from '../../positions/answer.ts'
import { bucketPoints, renderTvl, type TvlInterval } from '../../positions/tvl.ts'
import {
  buildStateSchema,
  named,
  nullableInteger,
  nullableString,
  nullableTimestamp,
} from '../../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'
import type { App } from '../app-type.ts'
import { metaOf, wantsCsv, withCsv } from '../csv.ts'
import { sendRecordsCsv } from '../csv-answers.ts'
import { LedgerPin, parseLedgerPin } from '../params.ts'
import { DATA_SCOPE, dataDeps, invalid, sendData } from '../route-helpers.ts'
import { errorResponses, Timestamp } from '../schemas.ts'

/** A series answers at most this many buckets; a wider range is refused, naming the field. */
export const TVL_SERIES_MAX_POINTS = 1000

const TvlAssetSchema = Type.Object({
  asset: Type.String(),
  locked: nullableString(
    "What the protocol's contracts hold of it, in the asset's units; null when it holds none by design",
  ),
  locked_usd: nullableString('locked × the USD price at the ledger, 7 decimals'),
  borrowed: nullableString('What users owe in it; null when the protocol lends none of it'),
  borrowed_usd: nullableString('borrowed × the USD price at the ledger, 7 decimals'),
  usd_unavailable_reason: nullableString(
    'Why locked_usd or borrowed_usd is null although its amount is known: price_missing, price_stale or asset_unknown; null when every amount of the row is valued',
  ),
})

const TvlPoint = {
  ledger: Type.Integer({ description: 'The ledger the amounts are at' }),
  tvl_usd: nullableString('Σ locked_usd, 7 decimals; null when an asset is unpriced or nothing is known'),
  borrowed_usd: nullableString(
    'Σ borrowed_usd, 7 decimals; null when an asset is unpriced or nothing is known',
  ),
  usd_unavailable_reason: nullableString(
    'Why tvl_usd or borrowed_usd is null: the reason of the first asset whose missing price nulls it; null whenever both are values (or null only because nothing is known or nothing is lent)',
  ),
  assets: Type.Array(TvlAssetSchema),
}

/** What a TVL's CSV answer holds (the OpenAPI document's words for its text/csv content). */
const TVL_CSV =
  'One row per asset of the point, or of each point of a series; see "CSV export" in docs/api.md'
/** The `meta` members a TVL's CSV answer carries in its headers. */
const CSV_META = ['last_indexed_ledger', 'indexed_from_ledger', 'partial_result']

/** `GET /v1/protocols/{name}/tvl` for every registered module that defines how its TVL is computed. */
export function registerTvlRoutes(app: App, ctx: AppContext): void {
  for (const module of PROTOCOLS) {
    const tvl = module.tvl
    if (!tvl) continue
    const pointSchema = named(
      'TvlAnswer',
      buildStateSchema(Type.Object({ protocol: Type.String(), ...TvlPoint })),
    )
    const seriesSchema = Type.Object({
      data: Type.Object({
        protocol: Type.String(),
        interval: Type.String(),
        points: Type.Array(
          Type.Object({
            starts_at: Timestamp,
            closed_at: nullableTimestamp(
              "Close time of the bucket's last ledger, RFC 3339; null when unknown",
            ),
            as_of_ledger: nullableInteger('The newest state entry used at that ledger'),
            partial_result: Type.Boolean(),
            ...TvlPoint,
          }),
          { description: 'Oldest first; each bucket valued at its last ledger' },
        ),
      }),
      meta: Type.Object({
        from_ledger: nullableInteger('First ledger of the range (inclusive)'),
        to_ledger: nullableInteger('Last ledger of the range (inclusive)'),
        last_indexed_ledger: nullableInteger('The indexer checkpoint'),
        indexed_from_ledger: nullableInteger('The first ledger the store ingested'),
        partial_result: Type.Boolean({
          description: 'true when any point is partial or the range passes the head',
        }),
        sources: Type.Array(Type.String()),
        response_time_ms: Type.Integer(),
      }),
    })
    named('TvlSeriesAnswer', seriesSchema)
    app.get(
      `/v1/protocols/${module.name}/tvl`,
      withCsv(TVL_CSV, {
        config: { auth: 'api_key', scope: DATA_SCOPE },
        schema: {
          summary: `${module.name} TVL`,
          description: `${tvl.description} Without \`interval\`: the TVL at \`as_of_ledger\` (the head when omitted; an answer in the state shape). With \`interval=hour|day\`: a series over \`from_ledger\`..\`to_ledger\` (inclusive; the indexed range when omitted), one point per UTC bucket of ledger close times, each valued at the bucket's last ledger (at most ${TVL_SERIES_MAX_POINTS} buckets). USD uses the prices at or before each point's ledger, each asset through the source the network description names for it (as in every answer).`,
          tags: ['TVL'],
          security: [{ apiKey: [] }],
          querystring: Type.Object(
            {
              as_of_ledger: Type.Optional(LedgerPin),
              from_ledger: Type.Optional(LedgerPin),
              to_ledger: Type.Optional(LedgerPin),
              interval: Type.Optional(
                Type.Union([Type.Literal('hour'), Type.Literal('day')], { description: 'hour or day' }),
              ),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Union([pointSchema, seriesSchema]),
            ...errorResponses('invalid_request', 'unauthorized', 'insufficient_scope', 'rate_limited'),
          },
        },
      }),
      async (request, reply) => {
        const started = performance.now()
        const q = request.query as {
          as_of_ledger?: string
          from_ledger?: string
          to_ledger?: string
          interval?: TvlInterval
        }
        const csv = wantsCsv(request)
        const deps = await dataDeps(ctx)
        if (q.interval === undefined) {
          if (q.from_ledger !== undefined || q.to_ledger !== undefined)
            throw invalid('interval', 'interval (hour or day) is required with from_ledger or to_ledger')
          const pin = q.as_of_ledger === undefined ? null : parseLedgerPin(q.as_of_ledger, 'as_of_ledger')
          const response = await answerState(
            deps,
            pin,
            () => ({
              protocol: module.name,
              ledger: 0,
              tvl_usd: null,
              borrowed_usd: null,
              usd_unavailable_reason: null,
              assets: [],
            }),
            (network) => module.coverage(network),
            async (d, network, query) => {
              const rendered = await renderTvl(tvl, d, network, query.ledger, query.closeTime)
              return { ...rendered, data: { protocol: module.name, ...rendered.data } }
            },
          )
          if (csv) {
            const meta = metaOf(response.meta, [...CSV_META, 'as_of_ledger', 'valuation_ledger'])
            const file = `${module.name}-tvl.csv`
            return sendRecordsCsv(request, reply, 'data', [response.data], file, meta, 'assets')
          }
          return sendData(reply, response, started, typeof pin === 'bigint')
        }
        if (q.as_of_ledger !== undefined)
          throw invalid('as_of_ledger', 'as_of_ledger does not apply to a series')
        const head = await ctx.reader.head()
        const network = deps.network
        const first = head.firstIndexedLedger
        const last = head.lastIndexedLedger
        const from = q.from_ledger === undefined ? first : parseLedgerPin(q.from_ledger, 'from_ledger')
        const to = q.to_ledger === undefined ? last : parseLedgerPin(q.to_ledger, 'to_ledger')
        if (from !== null && to !== null && BigInt(from) > BigInt(to))
          throw invalid('from_ledger', 'from_ledger must be at most to_ledger')
        const points = []
        let partial = last === null || (to !== null && last !== null && BigInt(to) > BigInt(last))
        const sources = new Set<string>(network ? [`ledgers:${network.name}`] : [])
        if (network && first !== null && last !== null && from !== null && to !== null) {
          const lo = Math.max(first, Number(BigInt(from) < BigInt(first) ? first : from))
          const hi = BigInt(to) > BigInt(last) ? last : Number(to)
          if (lo <= hi) {
            const [loTime, hiTime] = await Promise.all([ctx.reader.closeTime(lo), ctx.reader.closeTime(hi)])
            const length = q.interval === 'hour' ? 3600 : 86_400
            if (loTime !== null && hiTime !== null && (hiTime - loTime) / length + 1 > TVL_SERIES_MAX_POINTS)
              throw invalid(
                'interval',
                `the range holds more than ${TVL_SERIES_MAX_POINTS} ${q.interval} buckets`,
              )
            for (const { start, ledger } of await bucketPoints(
              async (l) => ctx.reader.closeTime(l),
              lo,
              hi,
              q.interval,
            )) {
              const closeTime = await ctx.reader.closeTime(ledger)
              const rendered = await renderTvl(tvl, deps, network, ledger, closeTime)
              for (const s of rendered.sources) sources.add(s)
              // As at a single ledger: a contract's history before the store's first ledger is unknown.
              const pointPartial =
                rendered.partial || !coverageComplete(module.coverage(network), first, ledger)
              partial ||= pointPartial
              points.push({
                starts_at: new Date(start * 1000).toISOString(),
                closed_at: closeTime === null ? null : new Date(closeTime * 1000).toISOString(),
                as_of_ledger: rendered.asOfLedger,
                partial_result: pointPartial,
                ...rendered.data,
              })
            }
          }
        }
        const response = {
          data: { protocol: module.name, interval: q.interval, points },
          meta: {
            from_ledger: from === null ? null : Number(from),
            to_ledger: to === null ? null : Number(to),
            last_indexed_ledger: last,
            indexed_from_ledger: first,
            partial_result: partial,
            sources: [...sources],
            response_time_ms: 0,
          },
        }
        if (csv) {
          const file = `${module.name}-tvl-${q.interval}.csv`
          const meta = metaOf(response.meta, CSV_META)
          return sendRecordsCsv(request, reply, 'data.points', points, file, meta, 'assets')
        }
        return sendData(reply, response, started, false)
      },
    )
  }
}
