import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import { getVaultPositions } from '../../positions/vault-positions.ts'
import { createNetworkProvider } from '../../store/network.ts'
import type { App } from '../app.ts'
import { stringifyJson } from '../json.ts'
import { AddressParam, LedgerPin, parseLedgerPin, requireAddress } from '../params.ts'
import { errorResponses } from '../schemas.ts'
import { VaultPositionsSchema } from './positions-schema.ts'

const DATA_SCOPE = 'data:read'
const DATA_ERRORS = errorResponses(
  'invalid_request',
  'invalid_address',
  'unauthorized',
  'insufficient_scope',
  'rate_limited',
)

export function registerPositionRoutes(app: App, ctx: AppContext): void {
  const networks = createNetworkProvider(ctx.database)

  const answer = async (
    reply: FastifyReply,
    address: string,
    pin: number | bigint | null,
    atPin: boolean,
  ) => {
    const started = performance.now()
    const response = await getVaultPositions(
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

  app.get(
    '/v1/users/:address/positions/vaultprotocol',
    {
      config: { auth: 'api_key', scope: DATA_SCOPE },
      schema: {
        summary: 'Vault positions',
        description:
          'The latest snapshot at or before `as_of_ledger` (latest state when omitted). Amounts are at the vintage of the snapshot served and are not carried to the pin; `meta.as_of_ledger` is the ledger of that snapshot, null when the pin predates the first one.',
        tags: ['positions'],
        security: [{ apiKey: [] }],
        params: Type.Object({ address: AddressParam }),
        querystring: Type.Object({ as_of_ledger: Type.Optional(LedgerPin) }, { additionalProperties: false }),
        response: { 200: VaultPositionsSchema, ...DATA_ERRORS },
      },
    },
    async (request, reply) => {
      const raw = request.query.as_of_ledger
      return answer(
        reply,
        request.params.address,
        raw === undefined ? null : parseLedgerPin(raw, 'as_of_ledger'),
        false,
      )
    },
  )

  app.get(
    '/v1/users/:address/positions/vaultprotocol/at/:ledger',
    {
      config: { auth: 'api_key', scope: DATA_SCOPE },
      schema: {
        summary: 'Vault positions valued at a ledger',
        description:
          'The same vaults as the snapshot surface, valued at the ledger: FxDAO stores debt plainly (no rate, no accrual), so amounts are those of the latest snapshot at or before the ledger and `rate_ledger` is null; USD uses prices at or before the ledger. For a position far below the ledger the USD values of the two surfaces differ by design.',
        tags: ['positions'],
        security: [{ apiKey: [] }],
        params: Type.Object({ address: AddressParam, ledger: LedgerPin }),
        response: { 200: VaultPositionsSchema, ...DATA_ERRORS },
      },
    },
    async (request, reply) =>
      answer(reply, request.params.address, parseLedgerPin(request.params.ledger, 'ledger'), true),
  )
}
