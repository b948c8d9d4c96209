import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import { getIndexerStatus } from '../../store/indexer-status.ts'
import type { App } from '../app.ts'
import { stringifyJson } from '../json.ts'
import { AddressParam, LedgerPin, parseLedgerPin, requireAddress } from '../params.ts'
import { errorResponses } from '../schemas.ts'

const DATA_SCOPE = 'data:read'

export function registerPositionRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/v1/users/:address/positions/vaultprotocol',
    {
      config: { auth: 'api_key', scope: DATA_SCOPE },
      schema: {
        summary: 'Vault positions',
        tags: ['positions'],
        security: [{ apiKey: [] }],
        params: Type.Object({ address: AddressParam }),
        querystring: Type.Object({ as_of_ledger: Type.Optional(LedgerPin) }, { additionalProperties: false }),
        response: errorResponses(
          'invalid_request',
          'invalid_address',
          'unauthorized',
          'insufficient_scope',
          'rate_limited',
        ),
      },
    },
    async (request, reply) => {
      const started = performance.now()
      const address = requireAddress(request.params.address)
      const pin =
        request.query.as_of_ledger === undefined
          ? null
          : parseLedgerPin(request.query.as_of_ledger, 'as_of_ledger')
      const status = await getIndexerStatus(ctx.database.db)
      const nowS = Math.floor(ctx.clock.now() / 1000)
      const partial =
        pin !== null && (status.lastIndexedLedger === null || BigInt(pin) > BigInt(status.lastIndexedLedger))
      return reply.type('application/json').send(
        stringifyJson({
          data: { address, vaults: [] },
          enrichment: { assets: {}, contracts: {} },
          meta: {
            requested_ledger: pin,
            as_of_ledger: null,
            attribution_confidence: 1,
            data_staleness_seconds:
              status.lastCloseTime === null ? null : Math.max(0, nowS - status.lastCloseTime),
            last_indexed_ledger: status.lastIndexedLedger,
            oracle_staleness_seconds: 0,
            partial_result: partial,
            response_time_ms: Math.round(performance.now() - started),
            sources: [],
          },
        }),
      )
    },
  )
}
