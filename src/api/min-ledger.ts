import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { Type } from 'typebox'
import { andThen } from '../awaitable.ts'
import type { AppContext } from '../context.ts'
import { AppError } from '../errors.ts'
import type { IndexerHead } from '../store/positions-read.ts'
import { LedgerPin, parseLedgerPin } from './params.ts'
import { errorResponses } from './schemas.ts'

/** Stellar closes a ledger about every five seconds: when to ask again. */
const LEDGER_CLOSE_S = 5

/**
 * `min_ledger` (The Graph's `number_gte`): the lowest indexed head the client accepts. A client
 * that saw ledger N passes it, and never reads a state older than one it saw: when the index has
 * not reached N the answer is 409 `ledger_not_indexed`, not an older answer.
 */
export const MinLedgerParam = Type.String({
  ...(LedgerPin as unknown as { pattern: string }),
  // Worded to complete "<field> must be …" in a validation error's details.
  description:
    'A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)',
})

/**
 * Gives a data route `min_ledger`: the query parameter (schema and OpenAPI), its error response
 * and the check, which runs after validation and authentication and before the handler. Applied
 * once, to every route that takes an API key, from the app's `onRoute` hook.
 */
export function addMinLedger(route: RouteOptions, ctx: AppContext): void {
  route.schema ??= {}
  const schema = route.schema
  const query = (schema.querystring ?? { type: 'object', properties: {} }) as {
    properties?: Record<string, unknown>
  }
  schema.querystring = { ...query, properties: { ...query.properties, min_ledger: MinLedgerParam } }
  schema.response = { ...(schema.response as object), ...errorResponses('ledger_not_indexed') }
  const refuse = (wanted: number | bigint, head: IndexerHead): void => {
    const last = head.lastIndexedLedger
    if (last === null || BigInt(wanted) > BigInt(last)) {
      const message = `the index has reached ledger ${last ?? 'none yet'}, below min_ledger ${wanted}`
      throw new AppError('ledger_not_indexed', message, {
        details: [{ field: 'min_ledger', message }],
        headers: { 'retry-after': String(LEDGER_CLOSE_S) },
      })
    }
  }
  // A callback hook, so a request without min_ledger spends no promise on it. The checkpoint is
  // the one authentication read with the key's generation, the one the answer is computed at.
  const check = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    const raw = (request.query as { min_ledger?: string } | undefined)?.min_ledger
    if (raw === undefined) {
      done()
      return
    }
    try {
      const wanted = parseLedgerPin(raw, 'min_ledger')
      const checked = andThen(request.view?.head ?? ctx.reader.head(), (head) => refuse(wanted, head))
      if (checked instanceof Promise) checked.then(() => done(), done)
      else done()
    } catch (error) {
      done(error as Error)
    }
  }
  const existing = route.preHandler
  route.preHandler = existing === undefined ? [check] : [...[existing].flat(), check]
}
