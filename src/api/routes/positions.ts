import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { type Awaitable, andThen, sentWhen } from '../../awaitable.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { answerHistory, answerPositions, decodeHistoryCursor } from '../../positions/answer.ts'
import type { SurfaceSerializers } from '../../positions/answer-cache.ts'
import {
  answerHistorySurfaces,
  answerSurface,
  historyBody,
  positionsBody,
} from '../../positions/cached-answer.ts'
import { buildHistorySchema, buildPositionsSchema } from '../../positions/response-schema.ts'
import type { PositionsDeps, ProtocolModule } from '../../protocols/protocol-module.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'
import { createNetworkProvider } from '../../store/network.ts'
import type { IndexerHead, PositionsReader } from '../../store/positions-read.ts'
import type { SeekResult, SnapshotSeek } from '../../store/request-state.ts'
import type { App } from '../app-type.ts'
import { stringifyJson } from '../json.ts'
import { AddressParam, LedgerPin, parseLedgerPin } from '../params.ts'
import { errorResponses } from '../schemas.ts'
import { answerCacheOf, compileSurfaceSerializers, sendJson } from './surface-cache.ts'

export const DATA_SCOPE = 'data:read'
export const DATA_ERRORS = errorResponses(
  'invalid_request',
  'invalid_address',
  'unauthorized',
  'insufficient_scope',
  'rate_limited',
)

export const HISTORY_LIMIT_DEFAULT = 100
export const HISTORY_LIMIT_MAX = 500

const LimitParam = Type.String({
  pattern: '^[0-9]{1,3}$',
  // Worded to complete "<field> must be …" in a validation error's details.
  description: `A whole number from 1 to ${HISTORY_LIMIT_MAX} (default ${HISTORY_LIMIT_DEFAULT})`,
})
const CursorParam = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  description: 'The next_cursor of a previous page, unchanged',
})

/**
 * The request's dependencies for a data answer. Given what authentication's statement read with
 * the key's generation (the checkpoint, and the serving snapshots the route's `seek` asked for),
 * the reader answers `head()` and that same snapshot lookup from it instead of a statement.
 */
export function createDataDeps(ctx: AppContext) {
  const networks = createNetworkProvider(ctx.database)
  const withRead = (head: IndexerHead, found: SeekResult | null): PositionsReader => {
    const reader = Object.create(ctx.reader) as PositionsReader
    reader.head = () => head
    if (found !== null) {
      reader.snapshotLedgersAt = (protocols, address, ledger) =>
        sameSeek(found, protocols, address, ledger)
          ? found.ledgers
          : ctx.reader.snapshotLedgersAt(protocols, address, ledger)
    }
    return reader
  }
  // In the same turn while the network description is cached.
  return (request?: FastifyRequest): Awaitable<PositionsDeps> =>
    andThen(networks.get(), (network) => ({
      reader: request?.indexerHead ? withRead(request.indexerHead, request.servingSnapshots) : ctx.reader,
      network,
      maxPriceAgeS: ctx.config.maxPriceAgeS,
      nowS: Math.floor(ctx.clock.now() / 1000),
    }))
}

/** Whether a lookup is the one the statement of authentication already made. */
function sameSeek(found: SeekResult, protocols: readonly string[], address: string, ledger: number): boolean {
  return (
    found.atLedger === ledger &&
    found.address === address &&
    found.protocols.length === protocols.length &&
    found.protocols.every((protocol, i) => protocol === protocols[i])
  )
}

/**
 * A route's `seek` (see FastifyContextConfig): the serving snapshots of `protocols` for the
 * request's address at its `as_of_ledger`, unless the pin is malformed or beyond 2^53 (those
 * answers take the other path) or the answer cache is off (that path reads whole snapshots).
 */
export function seekOfSurface(protocols: readonly string[], cacheEnabled: boolean) {
  return (request: FastifyRequest): SnapshotSeek | null => {
    if (!cacheEnabled) return null
    const { address } = request.params as { address?: string }
    const raw = (request.query as { as_of_ledger?: string } | undefined)?.as_of_ledger
    if (typeof address !== 'string') return null
    if (raw === undefined) return { protocols, address, pin: null }
    if (!/^[0-9]{1,15}$/.test(raw)) return null
    return { protocols, address, pin: Number(raw) }
  }
}

/**
 * Sends a data answer with its server time, through the route's response schema; a value beyond
 * 2^53 (an echoed pin) is written exactly, by hand.
 */
export function sendData<R extends { meta: { response_time_ms: number } }>(
  reply: FastifyReply,
  response: R,
  started: number,
  exact: boolean,
): FastifyReply {
  response.meta.response_time_ms = Math.round(performance.now() - started)
  // The schema serializer cannot write a BigInt; such an answer is serialized by hand.
  if (exact) return reply.type('application/json').send(stringifyJson(response))
  return reply.send(response)
}

function invalid(field: string, message: string): AppError {
  return new AppError('invalid_request', message, { details: [{ field, message }] })
}

/** The snapshot surface, the `/at/{ledger}` surface and the history of every registered protocol. */
export function registerPositionRoutes(app: App, ctx: AppContext): void {
  const depsOf = createDataDeps(ctx)
  const cache = answerCacheOf(ctx)
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
    // The snapshot surface of an ordinary pin is kept rendered; an int64 pin beyond 2^53 (written
    // by hand, below) and the /at surface, valued at the pin, are rendered every time.
    if (cache.enabled && !atPin && typeof pin !== 'bigint') {
      serializers ??= compileSurfaceSerializers(reply)
      const kept = serializers
      const sent = andThen(
        andThen(depsOf(request), (deps) => answerSurface(module, deps, { address, pin }, cache, kept)),
        (surface) => {
          surface.meta.response_time_ms = Math.round(performance.now() - started)
          return sendJson(reply, positionsBody(surface))
        },
      )
      return sentWhen(sent)
    }
    return (async () => {
      const response = await answerPositions(module, await depsOf(request), { address, pin, atPin })
      sendData(reply, response, started, typeof pin === 'bigint')
    })()
  }

  for (const module of PROTOCOLS) {
    const surface = module.positions
    const schema = buildPositionsSchema(surface.dataSchema)
    app.get(
      `/v1/users/:address/positions/${module.name}`,
      {
        config: { auth: 'api_key', scope: DATA_SCOPE, seek: seekOfSurface([module.name], cache.enabled) },
        schema: {
          summary: surface.summary,
          description: surface.description,
          tags: ['positions'],
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
        config: { auth: 'api_key', scope: DATA_SCOPE },
        schema: {
          summary: surface.atSummary,
          description: surface.atDescription,
          tags: ['positions'],
          security: [{ apiKey: [] }],
          params: Type.Object({ address: AddressParam, ledger: LedgerPin }),
          querystring: Type.Object({}, { additionalProperties: false }),
          response: { 200: schema, ...DATA_ERRORS },
        },
      },
      (request, reply) => {
        const { address, ledger } = request.params as { address: string; ledger: string }
        return answer(module, request, reply, address, parseLedgerPin(ledger, 'ledger'), true)
      },
    )

    app.get(
      `/v1/users/:address/positions/${module.name}/history`,
      {
        config: { auth: 'api_key', scope: DATA_SCOPE },
        schema: {
          summary: `${surface.summary}: history`,
          description:
            "Every snapshot of the account in this protocol with `from_ledger <= ledger <= to_ledger` (both inclusive, both optional), newest first, a page of `limit` at a time. Each item is the snapshot surface at that ledger (`data` and `enrichment` exactly as `?as_of_ledger=<ledger>` answers them), with the ledger's close time. `meta.next_cursor` continues with older snapshots; it is null on the last page. A cursor stays valid while the indexer keeps ingesting: new snapshots are newer than any page already served.",
          tags: ['positions'],
          security: [{ apiKey: [] }],
          params: Type.Object({ address: AddressParam }),
          querystring: Type.Object(
            {
              from_ledger: Type.Optional(LedgerPin),
              to_ledger: Type.Optional(LedgerPin),
              limit: Type.Optional(LimitParam),
              cursor: Type.Optional(CursorParam),
            },
            { additionalProperties: false },
          ),
          response: { 200: buildHistorySchema(surface.dataSchema), ...DATA_ERRORS },
        },
      },
      async (request, reply) => {
        const started = performance.now()
        const q = request.query as {
          from_ledger?: string
          to_ledger?: string
          limit?: string
          cursor?: string
        }
        const { address } = request.params as { address: string }
        const from = q.from_ledger === undefined ? null : parseLedgerPin(q.from_ledger, 'from_ledger')
        const to = q.to_ledger === undefined ? null : parseLedgerPin(q.to_ledger, 'to_ledger')
        if (from !== null && to !== null && BigInt(from) > BigInt(to)) {
          throw invalid('from_ledger', 'from_ledger must be at most to_ledger')
        }
        const limit = q.limit === undefined ? HISTORY_LIMIT_DEFAULT : Number(q.limit)
        if (limit < 1 || limit > HISTORY_LIMIT_MAX) {
          throw invalid('limit', `limit must be a whole number from 1 to ${HISTORY_LIMIT_MAX}`)
        }
        const before = q.cursor === undefined ? null : decodeHistoryCursor(q.cursor)
        if (q.cursor !== undefined && before === null) {
          throw invalid('cursor', 'cursor must be the next_cursor of a previous page, unchanged')
        }
        // Each item is a snapshot surface, kept rendered; bounds beyond 2^53 are written by hand below.
        if (cache.enabled && typeof from !== 'bigint' && typeof to !== 'bigint') {
          serializers ??= compileSurfaceSerializers(reply)
          const page = await answerHistorySurfaces(
            module,
            await depsOf(request),
            { address, from, to, limit, before },
            cache,
            serializers,
          )
          page.meta.response_time_ms = Math.round(performance.now() - started)
          return sendJson(reply, historyBody(page))
        }
        const response = await answerHistory(module, await depsOf(request), {
          address,
          from,
          to,
          limit,
          before,
        })
        return sendData(reply, response, started, typeof from === 'bigint' || typeof to === 'bigint')
      },
    )
  }
}
