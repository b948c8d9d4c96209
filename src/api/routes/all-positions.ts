import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { andThen, sentWhen } from '../../awaitable.ts'
import type { AppContext } from '../../context.ts'
import { allPositionsBody, answerAllPositions } from '../../positions/all-positions.ts'
import type { SurfaceSerializers } from '../../positions/answer-cache.ts'
import { buildAllPositionsSchema, named } from '../../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'
import type { App } from '../app-type.ts'
import { AddressParam, AtLedger, LedgerPin, parseAtLedger, parseLedgerPin } from '../params.ts'
import {
  compileSurfaceSerializers,
  DATA_ERRORS,
  DATA_SCOPE,
  dataDeps,
  seekOfSurface,
  sendJson,
} from '../route-helpers.ts'

/**
 * `GET /v1/users/{address}/positions` ("what did it hold": every protocol's snapshot surface) and
 * `GET /v1/users/{address}/positions/at/{ledger}` ("what is it worth": every protocol valued at
 * one ledger): every registered protocol in one answer.
 */
export function registerAllPositionsRoute(app: App, ctx: AppContext): void {
  const cache = ctx.caches.answers
  let serializers: SurfaceSerializers | undefined
  const schema = named(
    'AllPositionsAnswer',
    buildAllPositionsSchema(
      Object.fromEntries(
        PROTOCOLS.map((m) => [m.name, { kind: m.kind, dataSchema: m.positions.dataSchema }]),
      ),
    ),
  )
  // Both look up every protocol's serving snapshot at their pin.
  const config = {
    auth: 'api_key',
    scope: DATA_SCOPE,
    seek: seekOfSurface(PROTOCOLS.map((m) => m.name)),
  } as const

  /** Answers either surface; with every section kept rendered (SQLite) it is sent in this turn. */
  const answer = (
    request: FastifyRequest,
    reply: FastifyReply,
    pin: number | bigint | null,
    atPin: boolean,
  ): Promise<void> | undefined => {
    const started = performance.now()
    const { address } = request.params as { address: string }
    // The answer, or its sections, from the answer cache, with the checkpoint and the serving
    // snapshots the request's view read.
    serializers ??= compileSurfaceSerializers(reply)
    const kept = serializers
    const sent = andThen(
      andThen(dataDeps(ctx, request), (deps) =>
        answerAllPositions(PROTOCOLS, deps, { address, pin, atPin }, cache, kept),
      ),
      (all) => sendJson(reply, allPositionsBody(all, Math.round(performance.now() - started))),
    )
    return sentWhen(sent)
  }

  app.get(
    '/v1/users/:address/positions',
    {
      config,
      schema: {
        summary: 'Positions in every protocol',
        description:
          "What the account held: every protocol's snapshot surface at `as_of_ledger` (latest when omitted), one section per protocol in that protocol's own shape with its own `as_of_ledger`, `valuation_ledger` (its snapshot's own ledger) and `partial_result`, plus USD totals per section and overall. Values at different ledgers are never added: unless every section that holds something was valued at one ledger, the overall totals are null with `usd_unavailable_reason` `valuation_ledgers_differ` and a hint naming `/v1/users/{address}/positions/at/{ledger}`, which values every protocol at one ledger. A total is also null when any part of it is unpriced, with the reason. `meta.partial_result` is true when any section's is.",
        tags: ['Positions'],
        security: [{ apiKey: [] }],
        params: Type.Object({ address: AddressParam }),
        querystring: Type.Object({ as_of_ledger: Type.Optional(LedgerPin) }, { additionalProperties: false }),
        response: { 200: schema, ...DATA_ERRORS },
      },
    },
    // Not async: see `answer`.
    (request, reply) => {
      const raw = (request.query as { as_of_ledger?: string }).as_of_ledger
      return answer(request, reply, raw === undefined ? null : parseLedgerPin(raw, 'as_of_ledger'), false)
    },
  )

  app.get(
    '/v1/users/:address/positions/at/:ledger',
    {
      config,
      schema: {
        summary: 'Positions in every protocol, valued at a ledger',
        description:
          "What the account's positions are worth at `{ledger}`: every protocol's `/at/{ledger}` surface (the latest snapshot at or before the ledger, its shares converted with the rates and valued with the prices at or before the ledger), one section per protocol in that protocol's own shape, plus USD totals per section and overall. Every section is valued at the one ledger (`meta.valuation_ledger`), so the overall totals are the sums of the sections'. `{ledger}` may be `latest`: the last indexed ledger (what the positions are worth now; `meta.requested_ledger` is then null). A ledger above the indexed head is answered at the head, partial.",
        tags: ['Positions'],
        security: [{ apiKey: [] }],
        params: Type.Object({ address: AddressParam, ledger: AtLedger }),
        querystring: Type.Object({}, { additionalProperties: false }),
        response: { 200: schema, ...DATA_ERRORS },
      },
    },
    (request, reply) => {
      const { ledger } = request.params as { ledger: string }
      return answer(request, reply, parseAtLedger(ledger, 'ledger'), true)
    },
  )
}
