import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import type { ProtocolModule } from '../../protocols/protocol-module.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'
import { createNetworkProvider } from '../../store/network.ts'
import type { App } from '../app.ts'
import { stringifyJson } from '../json.ts'
import { AddressParam, LedgerPin, parseLedgerPin, requireAddress } from '../params.ts'
import { errorResponses } from '../schemas.ts'

const DATA_SCOPE = 'data:read'
const DATA_ERRORS = errorResponses(
  'invalid_request',
  'invalid_address',
  'unauthorized',
  'insufficient_scope',
  'rate_limited',
)

/** The snapshot surface and the `/at/{ledger}` surface of every registered protocol. */
export function registerPositionRoutes(app: App, ctx: AppContext): void {
  const networks = createNetworkProvider(ctx.database)

  const answer = async (
    module: ProtocolModule,
    reply: FastifyReply,
    address: string,
    pin: number | bigint | null,
    atPin: boolean,
  ) => {
    const started = performance.now()
    const response = await module.positions.answer(
      {
        reader: ctx.reader,
        network: await networks.get(),
        maxPriceAgeS: ctx.config.maxPriceAgeS,
        nowS: Math.floor(ctx.clock.now() / 1000),
      },
      { address: requireAddress(address), pin, atPin },
    )
    response.meta.response_time_ms = Math.round(performance.now() - started)
    // The schema serializer cannot write a BigInt; a pin beyond 2^53 is echoed exactly by hand.
    if (typeof pin === 'bigint') return reply.type('application/json').send(stringifyJson(response))
    return response
  }

  for (const module of PROTOCOLS) {
    const surface = module.positions
    app.get(
      `/v1/users/:address/positions/${module.name}`,
      {
        config: { auth: 'api_key', scope: DATA_SCOPE },
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
          response: { 200: surface.schema, ...DATA_ERRORS },
        },
      },
      async (request, reply) => {
        const raw = (request.query as { as_of_ledger?: string }).as_of_ledger
        const { address } = request.params as { address: string }
        return answer(
          module,
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
          response: { 200: surface.schema, ...DATA_ERRORS },
        },
      },
      async (request, reply) => {
        const { address, ledger } = request.params as { address: string; ledger: string }
        return answer(module, reply, address, parseLedgerPin(ledger, 'ledger'), true)
      },
    )
  }
}
