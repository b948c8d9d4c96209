import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { answerState } from '../../positions/answer.ts'
import type { StateSurface } from '../../protocols/kit/protocol-module.ts'
import { buildStateSchema, named, pascalName, protocolWord } from '../../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'
import type { App } from '../app-type.ts'
import { LedgerPin, parseLedgerPin } from '../params.ts'
import { DATA_SCOPE, dataDeps, sendData } from '../route-helpers.ts'
import { errorResponses } from '../schemas.ts'

const STATE_ERRORS = errorResponses('invalid_request', 'unauthorized', 'insufficient_scope', 'rate_limited')
const POOL_ERRORS = errorResponses(
  'invalid_request',
  'unauthorized',
  'insufficient_scope',
  'not_found',
  'rate_limited',
)

const PoolParam = Type.String({
  minLength: 1,
  maxLength: 128,
  description: "A contract (C...) StrKey of one of the protocol's pools",
})
const AsOfQuery = Type.Object({ as_of_ledger: Type.Optional(LedgerPin) }, { additionalProperties: false })
const pinOf = (query: unknown) => {
  const raw = (query as { as_of_ledger?: string }).as_of_ledger
  return raw === undefined ? null : parseLedgerPin(raw, 'as_of_ledger')
}

/**
 * Protocol state at a ledger, for every registered module that has it: one pool (pair, vault), and
 * the protocol-level reserves and emissions. Routes name each module, so an unknown protocol, or a
 * surface a protocol lacks, is the router's 404.
 */
export function registerProtocolRoutes(app: App, ctx: AppContext): void {
  const common = {
    tags: ['Protocols & pools'],
    security: [{ apiKey: [] }],
    querystring: AsOfQuery,
  }

  for (const module of PROTOCOLS) {
    const pools = module.pools
    if (pools) {
      app.get(
        `/v1/protocols/${module.name}/pools/:pool`,
        {
          config: { auth: 'api_key', scope: DATA_SCOPE },
          schema: {
            ...common,
            summary: pools.summary,
            description: pools.description,
            params: Type.Object({ pool: PoolParam }),
            response: {
              200: named(`PoolAnswer${protocolWord(module.name)}`, buildStateSchema(pools.dataSchema)),
              ...POOL_ERRORS,
            },
          },
        },
        async (request, reply) => {
          const started = performance.now()
          const pin = pinOf(request.query)
          const { pool } = request.params as { pool: string }
          const deps = await dataDeps(ctx, request)
          const found = deps.network ? pools.find(deps.network, pool) : null
          if (!found)
            throw new AppError('not_found', `${pool} is not a ${module.name} pool this network lists`)
          const response = await answerState(
            deps,
            pin,
            () => null,
            () => [found],
            (d, network, query) => pools.render(d, network, found, query),
          )
          return sendData(reply, response, started, typeof pin === 'bigint')
        },
      )
    }
    const levels: Array<[string, StateSurface | undefined]> = [
      ['reserves', module.reserves],
      ['emissions', module.emissions],
    ]
    for (const [name, surface] of levels) {
      if (!surface) continue
      app.get(
        `/v1/protocols/${module.name}/${name}`,
        {
          config: { auth: 'api_key', scope: DATA_SCOPE },
          schema: {
            ...common,
            summary: surface.summary,
            description: surface.description,
            response: {
              200: named(
                `${pascalName(name)}Answer${protocolWord(module.name)}`,
                buildStateSchema(surface.dataSchema),
              ),
              ...STATE_ERRORS,
            },
          },
        },
        async (request, reply) => {
          const started = performance.now()
          const pin = pinOf(request.query)
          const response = await answerState(
            await dataDeps(ctx, request),
            pin,
            () => surface.empty(),
            (network) => module.coverage(network),
            (d, network, query) => surface.render(d, network, query),
          )
          return sendData(reply, response, started, typeof pin === 'bigint')
        },
      )
    }
  }
}
