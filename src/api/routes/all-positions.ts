import { Type } from 'typebox'
import { andThen, sentWhen } from '../../awaitable.ts'
import type { AppContext } from '../../context.ts'
import { allPositionsBody, answerAllPositions } from '../../positions/all-positions.ts'
import type { SurfaceSerializers } from '../../positions/answer-cache.ts'
import { buildAllPositionsSchema } from '../../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'
import type { App } from '../app-type.ts'
import { AddressParam, LedgerPin, parseLedgerPin } from '../params.ts'
import {
  compileSurfaceSerializers,
  DATA_ERRORS,
  DATA_SCOPE,
  dataDeps,
  seekOfSurface,
  sendJson,
} from '../route-helpers.ts'

/** `GET /v1/users/{address}/positions`: every registered protocol in one answer. */
export function registerAllPositionsRoute(app: App, ctx: AppContext): void {
  const cache = ctx.caches.answers
  let serializers: SurfaceSerializers | undefined
  const schema = buildAllPositionsSchema(
    Object.fromEntries(PROTOCOLS.map((m) => [m.name, { kind: m.kind, dataSchema: m.positions.dataSchema }])),
  )
  app.get(
    '/v1/users/:address/positions',
    {
      config: {
        auth: 'api_key',
        scope: DATA_SCOPE,
        seek: seekOfSurface(PROTOCOLS.map((m) => m.name)),
      },
      schema: {
        summary: 'Positions in every protocol',
        description:
          "Every protocol's snapshot surface at `as_of_ledger` (latest when omitted), one section per protocol in that protocol's own shape with its own `as_of_ledger` and `partial_result`, plus USD totals per section and overall. A total is null when any part of it is unpriced, with the reason. `meta.partial_result` is true when any section's is.",
        tags: ['positions'],
        security: [{ apiKey: [] }],
        params: Type.Object({ address: AddressParam }),
        querystring: Type.Object({ as_of_ledger: Type.Optional(LedgerPin) }, { additionalProperties: false }),
        response: { 200: schema, ...DATA_ERRORS },
      },
    },
    // Not async: when every section is kept rendered (SQLite) the answer is sent in this turn.
    (request, reply) => {
      const started = performance.now()
      const raw = (request.query as { as_of_ledger?: string }).as_of_ledger
      const pin = raw === undefined ? null : parseLedgerPin(raw, 'as_of_ledger')
      const { address } = request.params as { address: string }
      // The answer, or its sections, from the answer cache, with the checkpoint and the serving
      // snapshots the request's view read.
      serializers ??= compileSurfaceSerializers(reply)
      const kept = serializers
      const sent = andThen(
        andThen(dataDeps(ctx, request), (deps) =>
          answerAllPositions(PROTOCOLS, deps, { address, pin, atPin: false }, cache, kept),
        ),
        (answer) => sendJson(reply, allPositionsBody(answer, Math.round(performance.now() - started))),
      )
      return sentWhen(sent)
    },
  )
}
