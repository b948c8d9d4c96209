import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import { nullableInteger } from '../../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'
import type { Database } from '../../store/db.ts'
import { type AccountHoldings, accountsHoldingPositions } from '../../store/demo-accounts.ts'
import type { App } from '../app-type.ts'
import { DATA_SCOPE, sendData } from '../route-helpers.ts'
import { errorResponses } from '../schemas.ts'

export interface DemoAccount {
  /** What it is an example of: a protocol (its name, as in its endpoints' paths), or `several`. */
  example_of: string
  address: string
  /** The protocols it holds positions in at the indexed head, in the API's order. */
  protocols: string[]
}

/**
 * One account per protocol (the first by address that holds a position in it at the head and is
 * not already the example of another protocol, so the examples differ where the holders allow)
 * and the account holding the most protocols at once (at least two; the first by address among
 * equals),
 * chosen from the snapshots the indexer wrote, so every account listed answers non-empty positions
 * for the protocols listed with it. People's accounts (G…) are chosen before contracts (C…, such as
 * a yield vault lending into a pool); a protocol no account holds is left out.
 */
export async function chooseDemoAccounts(database: Database): Promise<DemoAccount[]> {
  const holdings = await accountsHoldingPositions(
    database,
    PROTOCOLS.map((p) => p.name),
  )
  const people = holdings.filter((h) => h.address.startsWith('G'))
  const chosen: DemoAccount[] = []
  for (const module of PROTOCOLS) {
    const holds = (h: AccountHoldings) => h.protocols.includes(module.name)
    const fresh = (h: AccountHoldings) => holds(h) && !chosen.some((c) => c.address === h.address)
    const holder = people.find(fresh) ?? people.find(holds) ?? holdings.find(fresh) ?? holdings.find(holds)
    if (holder) chosen.push({ example_of: module.name, ...holder })
  }
  const several = holdingMost(people) ?? holdingMost(holdings)
  if (several) chosen.push({ example_of: 'several', ...several })
  return chosen
}

/** The first account holding the most protocols, if one holds two or more. */
function holdingMost(holdings: readonly AccountHoldings[]): AccountHoldings | undefined {
  let most: AccountHoldings | undefined
  for (const h of holdings) {
    if (h.protocols.length >= 2 && h.protocols.length > (most?.protocols.length ?? 0)) most = h
  }
  return most
}

const DemoAccountSchema = Type.Object({
  example_of: Type.String({
    description:
      'What the account is an example of: a protocol (`vaultprotocol`, `lendingprotocol`, `ammprotocol`, `yieldprotocol`), or `several` for the account holding the most protocols at once',
  }),
  address: Type.String({ description: 'The account (G…)' }),
  protocols: Type.Array(Type.String(), {
    description:
      'The protocols it holds positions in at the indexed head (the path segments of their endpoints)',
  }),
})

const DemoAccountsSchema = Type.Object({
  data: Type.Array(DemoAccountSchema),
  meta: Type.Object({
    last_indexed_ledger: nullableInteger('The indexer checkpoint: the head the holdings are read at'),
    response_time_ms: Type.Integer(),
  }),
})

/**
 * `GET /v1/demo/accounts`, registered only by `strata serve --demo`: accounts of the simulated
 * network worth asking about, with what each holds now.
 */
export function registerDemoRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/v1/demo/accounts',
    {
      config: { auth: 'api_key', scope: DATA_SCOPE },
      schema: {
        summary: 'List demo accounts',
        description:
          'Only on a demo server (`strata serve --demo`, `npm start`): one account of the simulated network for each protocol and one that holds several, each with the protocols it holds positions in at the indexed head, read from the indexed snapshots (so `/v1/users/{address}/positions/{protocol}` answers non-empty positions for each). Chosen afresh at each request: the simulated accounts keep opening and closing positions.',
        tags: ['Demo'],
        security: [{ apiKey: [] }],
        response: {
          200: DemoAccountsSchema,
          ...errorResponses('unauthorized', 'insufficient_scope', 'rate_limited'),
        },
      },
    },
    async (_request, reply) => {
      const started = performance.now()
      const head = await ctx.reader.head()
      const data = await chooseDemoAccounts(ctx.database)
      const response = { data, meta: { last_indexed_ledger: head.lastIndexedLedger, response_time_ms: 0 } }
      return sendData(reply, response, started, false)
    },
  )
}
