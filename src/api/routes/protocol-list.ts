import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import { historyComplete } from '../../protocols/kit/coverage.ts'
import { nullableInteger } from '../../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'
import type { App } from '../app-type.ts'
import { invalidCursor, PageCursor, PageLimit, PageMeta, parsePageLimit } from '../params.ts'
import { DATA_SCOPE, sendData } from '../route-helpers.ts'
import { errorResponses } from '../schemas.ts'

const ContractSchema = Type.Object({
  contract_address: Type.String({ description: 'The contract (C…)' }),
  kind: Type.String({
    description: 'What the contract is: `fxdao-vaults`, `blend-pool-v2`, `soroswap-pair`, ...',
  }),
  name: Type.String(),
  version: Type.String(),
  status: Type.String({ description: '`active`, `paused` or `deprecated`' }),
  position_types: Type.Array(Type.String()),
  start_ledger: nullableInteger('First ledger at which the contract existed, when known'),
  history_complete: Type.Boolean({
    description:
      "Whether the store holds the contract's whole history up to the indexed head (false: answers about it are partial_result)",
  }),
})

const ProtocolSchema = Type.Object({
  name: Type.String({ description: 'The path segment of its endpoints' }),
  kind: Type.String({ description: '`vault`, `lending`, `amm` or `yield`' }),
  contracts: Type.Array(ContractSchema),
  indexed_from_ledger: nullableInteger('The first ledger the store ingested (null before the first batch)'),
  indexed_to_ledger: nullableInteger('The indexer checkpoint: the last ledger ingested'),
})

const ListSchema = Type.Object({
  data: Type.Array(ProtocolSchema),
  meta: Type.Object({
    last_indexed_ledger: nullableInteger('The indexer checkpoint'),
    indexed_from_ledger: nullableInteger('The first ledger the store ingested'),
    limit: PageMeta.properties.limit,
    next_cursor: PageMeta.properties.next_cursor,
    response_time_ms: Type.Integer(),
  }),
})

/** Opaque to clients: the position in the registry's order where the next page starts. */
function encodeCursor(next: number): string {
  return Buffer.from(`p1:${next}`).toString('base64url')
}

function decodeCursor(cursor: string): number {
  const match = /^p1:(\d{1,4})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match?.[1] || Number(match[1]) >= PROTOCOLS.length) throw invalidCursor()
  return Number(match[1])
}

/** `GET /v1/protocols`: every registered protocol, its contracts on this network and the indexed range. */
export function registerProtocolListRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v1/protocols',
    {
      config: { auth: 'api_key', scope: DATA_SCOPE },
      schema: {
        summary: 'List protocols',
        description:
          "Every protocol Strata answers for, in a fixed order and paged like every list, with its kind, the network's contracts it reads (contract address, name, version, status, position types, whether their whole history is indexed) and the indexed ledger range. A protocol the network has no contract of is listed with none.",
        tags: ['Protocols & pools'],
        security: [{ apiKey: [] }],
        querystring: Type.Object(
          { limit: Type.Optional(PageLimit), cursor: Type.Optional(PageCursor) },
          { additionalProperties: false },
        ),
        response: {
          200: ListSchema,
          ...errorResponses('invalid_request', 'unauthorized', 'insufficient_scope', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const started = performance.now()
      const limit = parsePageLimit(request.query.limit)
      const start = request.query.cursor === undefined ? 0 : decodeCursor(request.query.cursor)
      const [network, head] = await Promise.all([ctx.caches.network.get(), ctx.reader.head()])
      const from = head.firstIndexedLedger
      const to = head.lastIndexedLedger
      const modules = PROTOCOLS.slice(start, start + limit)
      const data = modules.map((module) => ({
        name: module.name,
        kind: module.kind,
        contracts: (network ? module.contracts(network) : []).map((c) => ({
          contract_address: c.address,
          kind: c.kind,
          name: c.name,
          version: c.version,
          status: c.status,
          position_types: c.position_types,
          start_ledger: c.start_ledger,
          history_complete: to !== null && historyComplete(c, from, to),
        })),
        indexed_from_ledger: from,
        indexed_to_ledger: to,
      }))
      const response = {
        data,
        meta: {
          last_indexed_ledger: to,
          indexed_from_ledger: from,
          limit,
          next_cursor: start + limit < PROTOCOLS.length ? encodeCursor(start + limit) : null,
          response_time_ms: 0,
        },
      }
      return sendData(reply, response, started, false)
    },
  )
}
