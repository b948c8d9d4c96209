import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { andThen, sentWhen } from '../../awaitable.ts'
import type { AppContext } from '../../context.ts'
import { decodeHistoryCursor } from '../../positions/answer.ts'
import type { SurfaceSerializers } from '../../positions/answer-cache.ts'
import { historyBody, positionsBody } from '../../positions/answer-json.ts'
import { answerHistory, answerSurface } from '../../positions/surface-answer.ts'
import type { ProtocolModule } from '../../protocols/kit/protocol-module.ts'
import {
  buildHistorySchema,
  buildPositionsSchema,
  named,
  protocolWord,
} from '../../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'
import type { App } from '../app-type.ts'
import { wantsCsv, withCsv } from '../csv.ts'
import { csvLimit, sendHistoryCsv } from '../csv-answers.ts'
import { AddressParam, AtLedger, HistoryLimit, LedgerPin, parseAtLedger, parseLedgerPin } from '../params.ts'
import {
  compileSurfaceSerializers,
  DATA_ERRORS,
  DATA_SCOPE,
  dataDeps,
  HISTORY_LIMIT_DEFAULT,
  HISTORY_LIMIT_MAX,
  invalid,
  seekOfSurface,
  sendJson,
} from '../route-helpers.ts'

const CursorParam = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  description: 'The next_cursor of a previous page, unchanged',
})

/** What a history's CSV answer holds (the OpenAPI document's words for its text/csv content). */
const HISTORY_CSV =
  'Every snapshot of the range (limit does not apply), one row per position row (vaults or positions), newest first; see "CSV export" in docs/api.md'

/** The snapshot surface, the `/at/{ledger}` surface and the history of every registered protocol. */
export function registerPositionRoutes(app: App, ctx: AppContext): void {
  const cache = ctx.caches.answers
  let serializers: SurfaceSerializers | undefined

  /**
   * Answers a snapshot or `/at` request. A surface kept rendered, on SQLite, is sent in this turn
   * (the handler then returns nothing); anything that waits returns the promise of the answer.
   */
  const answer = (
    module: ProtocolModule,
    request: FastifyRequest,
    reply: FastifyReply,
    address: string,
    pin: number | bigint | null,
    atPin: boolean,
  ): Promise<void> | undefined => {
    const started = performance.now()
    serializers ??= compileSurfaceSerializers(reply)
    const kept = serializers
    const sent = andThen(
      andThen(dataDeps(ctx, request), (deps) =>
        answerSurface(module, deps, { address, pin, atPin }, cache, kept),
      ),
      (surface) => {
        surface.meta.response_time_ms = Math.round(performance.now() - started)
        return sendJson(reply, positionsBody(surface))
      },
    )
    return sentWhen(sent)
  }

  for (const module of PROTOCOLS) {
    const surface = module.positions
    // The snapshot and `/at` surfaces both look up the module's serving snapshot at their pin.
    const seek = seekOfSurface([module.name])
    const schema = named(
      `PositionsAnswer${protocolWord(module.name)}`,
      buildPositionsSchema(surface.dataSchema),
    )
    app.get(
      `/v1/users/:address/positions/${module.name}`,
      {
        config: { auth: 'api_key', scope: DATA_SCOPE, seek },
        schema: {
          summary: surface.summary,
          description: surface.description,
          tags: ['Positions'],
          security: [{ apiKey: [] }],
          params: Type.Object({ address: AddressParam }),
          querystring: Type.Object(
            { as_of_ledger: Type.Optional(LedgerPin) },
            { additionalProperties: false },
          ),
          response: { 200: schema, ...DATA_ERRORS },
        },
      },
      // Not async: a kept surface is sent in this turn (see `answer`).
      (request, reply) => {
        const raw = (request.query as { as_of_ledger?: string }).as_of_ledger
        const { address } = request.params as { address: string }
        return answer(
          module,
          request,
          reply,
          address,
          raw === undefined ? null : parseLedgerPin(raw, 'as_of_ledger'),
          false,
        )
      },
    )

    app.get(
      `/v1/users/:address/positions/${module.name}/at/:ledger`,
      {
        config: { auth: 'api_key', scope: DATA_SCOPE, seek },
        schema: {
          summary: surface.atSummary,
          description: `${surface.atDescription} \`{ledger}\` may be \`latest\`: the last indexed ledger (what the positions are worth now; \`meta.requested_ledger\` is then null, as with no pin).`,
          tags: ['Positions'],
          security: [{ apiKey: [] }],
          params: Type.Object({ address: AddressParam, ledger: AtLedger }),
          querystring: Type.Object({}, { additionalProperties: false }),
          response: { 200: schema, ...DATA_ERRORS },
        },
      },
      (request, reply) => {
        const { address, ledger } = request.params as { address: string; ledger: string }
        return answer(module, request, reply, address, parseAtLedger(ledger, 'ledger'), true)
      },
    )

    app.get(
      `/v1/users/:address/positions/${module.name}/history`,
      withCsv(HISTORY_CSV, {
        config: { auth: 'api_key', scope: DATA_SCOPE },
        schema: {
          summary: `${surface.summary}: history`,
          description:
            "Every snapshot of the account in this protocol with `from_ledger <= ledger <= to_ledger` (both inclusive, both optional), newest first, a page of `limit` at a time. Each item is the snapshot surface at that ledger (`data` and `enrichment` exactly as `?as_of_ledger=<ledger>` answers them), with the ledger's close time. `meta.next_cursor` continues with older snapshots; it is null on the last page. A cursor stays valid while the indexer keeps ingesting: new snapshots are newer than any page already served.",
          tags: ['History'],
          security: [{ apiKey: [] }],
          params: Type.Object({ address: AddressParam }),
          querystring: Type.Object(
            {
              from_ledger: Type.Optional(LedgerPin),
              to_ledger: Type.Optional(LedgerPin),
              limit: Type.Optional(HistoryLimit),
              cursor: Type.Optional(CursorParam),
            },
            { additionalProperties: false },
          ),
          response: {
            200: named(`HistoryAnswer${protocolWord(module.name)}`, buildHistorySchema(surface.dataSchema)),
            ...DATA_ERRORS,
          },
        },
      }),
      async (request, reply) => {
        const started = performance.now()
        const q = request.query as {
          from_ledger?: string
          to_ledger?: string
          limit?: string
          cursor?: string
        }
        const { address } = request.params as { address: string }
        const csv = wantsCsv(request)
        const from = q.from_ledger === undefined ? null : parseLedgerPin(q.from_ledger, 'from_ledger')
        const to = q.to_ledger === undefined ? null : parseLedgerPin(q.to_ledger, 'to_ledger')
        if (from !== null && to !== null && BigInt(from) > BigInt(to)) {
          throw invalid('from_ledger', 'from_ledger must be at most to_ledger')
        }
        if (csv && q.limit !== undefined) throw csvLimit()
        const limit = q.limit === undefined ? HISTORY_LIMIT_DEFAULT : Number(q.limit)
        if (limit < 1 || limit > HISTORY_LIMIT_MAX) {
          throw invalid('limit', `limit must be a whole number from 1 to ${HISTORY_LIMIT_MAX}`)
        }
        const before = q.cursor === undefined ? null : decodeHistoryCursor(q.cursor)
        if (q.cursor !== undefined && before === null) {
          throw invalid('cursor', 'cursor must be the next_cursor of a previous page, unchanged')
        }
        serializers ??= compileSurfaceSerializers(reply)
        const deps = await dataDeps(ctx, request)
        if (csv)
          return sendHistoryCsv(
            request,
            reply,
            module,
            deps,
            { address, from, to, before },
            cache,
            serializers,
          )
        const page = await answerHistory(
          module,
          deps,
          { address, from, to, limit, before },
          cache,
          serializers,
        )
        page.meta.response_time_ms = Math.round(performance.now() - started)
        return sendJson(reply, historyBody(page))
      },
    )
  }
}
