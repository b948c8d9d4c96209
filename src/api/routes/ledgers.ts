import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import { named, nullableInteger } from '../../protocols/kit/response-schema.ts'
import { createLedgerTimeReader } from '../../store/ledger-times.ts'
import type { App } from '../app-type.ts'
import { DATA_SCOPE, invalid, sendData } from '../route-helpers.ts'
import { errorResponses, Timestamp, toRfc3339 } from '../schemas.ts'

const LedgerAtTimeSchema = named(
  'LedgerAtTimeAnswer',
  Type.Object({
    data: Type.Union([
      named(
        'LedgerAtTime',
        Type.Object({
          ledger: Type.Integer({ description: 'The latest indexed ledger closed at or before `time`' }),
          closed_at: { ...Timestamp, description: 'Its close time, RFC 3339 in UTC' },
        }),
      ),
      Type.Null(),
    ]),
    meta: Type.Object({
      requested_at: { ...Timestamp, description: '`time` as understood, in UTC' },
      last_indexed_ledger: nullableInteger('The indexer checkpoint'),
      indexed_from_ledger: nullableInteger('The first ledger the store ingested'),
      partial_result: Type.Boolean({
        description:
          "true when the answer may be another ledger than the network's: `time` is after the checkpoint's close time (later ledgers are not indexed yet), before the first indexed ledger's, or nothing is indexed",
      }),
      response_time_ms: Type.Integer(),
    }),
  }),
)

/** `GET /v1/ledgers/at-time`: which indexed ledger was the latest closed at a time. */
export function registerLedgerRoutes(app: App, ctx: AppContext): void {
  const ledgers = createLedgerTimeReader(ctx.database)
  app.get(
    '/v1/ledgers/at-time',
    {
      config: { auth: 'api_key', scope: DATA_SCOPE },
      schema: {
        summary: 'Find the ledger at a time',
        description:
          "The latest indexed ledger closed at or before `time`: the ledger to pin (`as_of_ledger`, `/at/{ledger}`) for an answer as it stood then. `data` is null when `time` is before the first indexed ledger's close time (what closed then is unknown, not nothing). After the checkpoint's close time the answer is the checkpoint, with `partial_result: true`: later ledgers are not indexed yet. Only ledgers at or below the checkpoint are considered.",
        tags: ['Ledgers'],
        security: [{ apiKey: [] }],
        querystring: Type.Object(
          {
            time: Type.String({
              format: 'date-time',
              description: 'An RFC 3339 time with its offset, such as 2026-01-31T12:00:00Z',
            }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: LedgerAtTimeSchema,
          ...errorResponses('invalid_request', 'unauthorized', 'insufficient_scope', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const started = performance.now()
      const ms = Date.parse(request.query.time)
      // The format admits what Date cannot hold (a leap second, a year beyond its range).
      if (Number.isNaN(ms))
        throw invalid('time', 'time must be an RFC 3339 timestamp such as 2026-01-31T00:00:00Z')
      const timeS = Math.floor(ms / 1000)
      const head = request.view?.head ?? (await ctx.reader.head())
      const last = head.lastIndexedLedger
      const found = last === null ? null : await ledgers.ledgerAtTime(timeS, last)
      // Nothing known at that time, or ledgers after the checkpoint (not indexed yet) may have closed by then.
      const partial = found === null || head.lastCloseTime === null || timeS > head.lastCloseTime
      const response = {
        data:
          found === null ? null : { ledger: found.sequence, closed_at: toRfc3339(found.closeTime * 1000) },
        meta: {
          requested_at: toRfc3339(ms),
          last_indexed_ledger: last,
          indexed_from_ledger: head.firstIndexedLedger,
          partial_result: partial,
          response_time_ms: 0,
        },
      }
      return sendData(reply, response, started, false)
    },
  )
}
