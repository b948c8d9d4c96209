import type { FastifyReply, FastifyRequest } from 'fastify'
import { type Awaitable, andThen } from '../awaitable.ts'
import type { AppContext } from '../context.ts'
import { AppError } from '../errors.ts'
import type { SurfaceSerializers } from '../positions/answer-cache.ts'
import { surfaceSerializers } from '../positions/serializers.ts'
import type { PositionsDeps } from '../protocols/kit/protocol-module.ts'
import { type ContractActivitiesReader, createActivitiesReader } from '../store/activities.ts'
import type { SnapshotSeek } from '../store/request-state.ts'
import { stringifyJson } from './json.ts'
import { errorResponses } from './schemas.ts'

/** The API-key scope every data route takes. */
export const DATA_SCOPE = 'data:read'

/** The refusals every data route about an address documents. */
export const DATA_ERRORS = errorResponses(
  'invalid_request',
  'invalid_address',
  'unauthorized',
  'insufficient_scope',
  'rate_limited',
)

/** Page size of history and activity pages when `limit` is omitted. */
export const HISTORY_LIMIT_DEFAULT = 100
/** The largest `limit` of a history or activity page (and the most buckets of an activity series). */
export const HISTORY_LIMIT_MAX = 500

/** A 400 naming the query or path field at fault. */
export function invalid(field: string, message: string): AppError {
  return new AppError('invalid_request', message, { details: [{ field, message }] })
}

/**
 * The dependencies of a data answer: the network description (in this turn while it is fresh),
 * the price age limit, the time, and the reader. Given the request, the reader is its view's
 * (the checkpoint and the serving snapshots its authentication statement read); without, the
 * process's.
 */
export function dataDeps(ctx: AppContext, request?: FastifyRequest): Awaitable<PositionsDeps> {
  return andThen(ctx.caches.network.get(), (network) => ({
    reader: request?.view?.reader ?? ctx.reader,
    network,
    maxPriceAgeS: ctx.config.maxPriceAgeS,
    nowS: Math.floor(ctx.clock.now() / 1000),
    activities: activitiesOf(ctx.database),
  }))
}

/** One activities reader per database (its statements are prepared once). */
const activityReaders = new WeakMap<AppContext['database'], ContractActivitiesReader>()
function activitiesOf(database: AppContext['database']): ContractActivitiesReader {
  let reader = activityReaders.get(database)
  if (!reader) {
    reader = createActivitiesReader(database)
    activityReaders.set(database, reader)
  }
  return reader
}

/** A pin of 16 to 19 digits, without leading zeros (int64 reaches beyond 2^53): above any checkpoint. */
const BEYOND_SAFE = /^[1-9][0-9]{15,18}$/
/** A pin of 15 digits at most: below 2^53, read as a number. */
const SAFE_PIN = /^[0-9]{1,15}$/

/** The request's pin as sent: the `/at/{ledger}` path parameter, else `as_of_ledger`. */
function pinTextOf(request: FastifyRequest): string | undefined {
  const ledger = (request.params as { ledger?: string } | undefined)?.ledger
  return ledger ?? (request.query as { as_of_ledger?: string } | undefined)?.as_of_ledger
}

/**
 * The request's pin as a number (`as_of_ledger` or `/at/{ledger}`), or null: none, `latest`, or
 * one of 16 digits or more (above any checkpoint). Read before validation: a malformed one is null.
 */
export function numericPinOf(request: FastifyRequest): number | null {
  const raw = pinTextOf(request)
  return raw !== undefined && SAFE_PIN.test(raw) ? Number(raw) : null
}

/**
 * A route's `seek` (see FastifyContextConfig): the serving snapshots of `protocols` for the
 * request's address at its pin (the `ledger` path parameter, else `as_of_ledger`), found by the
 * statement that opens the request's view. Null when the pin is malformed (validation refuses it
 * afterwards). A pin of 16 digits or more is above any checkpoint: it seeks at the checkpoint, as
 * no pin does (the answer uses a seek only when it is the very lookup it needs).
 */
export function seekOfSurface(protocols: readonly string[]) {
  return (request: FastifyRequest): SnapshotSeek | null => {
    const { address } = request.params as { address?: string }
    const raw = pinTextOf(request)
    if (typeof address !== 'string') return null
    if (raw === undefined || raw === 'latest') return { protocols, address, pin: null }
    if (SAFE_PIN.test(raw)) return { protocols, address, pin: Number(raw) }
    return BEYOND_SAFE.test(raw) ? { protocols, address, pin: null } : null
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

/** Sends a body already written as JSON, with the content type the schema serializer's answers carry. */
export function sendJson(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body)
}

/**
 * The response serializers for the parts of a snapshot surface (each module's `data`, an asset,
 * a contract, USD totals), compiled by Fastify's own serializer compiler from the very schemas
 * the routes declare, through a reply of the route, once: they hold no reference to the reply.
 */
export function compileSurfaceSerializers(reply: FastifyReply): SurfaceSerializers {
  type Schema = Parameters<FastifyReply['compileSerializationSchema']>[0]
  return surfaceSerializers((schema) => {
    const serialize = reply.compileSerializationSchema(schema as Schema)
    return (value: unknown) => serialize(value as Record<string, unknown>)
  })
}
