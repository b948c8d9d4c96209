import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/api/app.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import {
  buildAllPositionsSchema,
  buildHistorySchema,
  buildPositionsSchema,
} from '../../src/protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../../src/protocols/registry.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'

const START = 7000
// Every protocol active, so every module's data schema is met with positions, not only empty.
const DEVNET = {
  seed: 'answer-json',
  ledgers: 500,
  accounts: 30,
  activity: 0.04,
  ammActivity: 0.06,
  yieldActivity: 0.06,
  startLedger: START,
}
const HEAD = START + 350
/** An int64 pin beyond 2^53: the response schemas' serializers cannot write it. */
const BIG = '9007199254740993'
/** What stands for BIG while the schema serializer writes the answer (absent from every body). */
const STAND_IN = '1234567890123'

/**
 * The positions bodies are written from serialized parts (positions/answer-json.ts). Each is
 * compared here, byte for byte, with what Fastify's serializer of the response schema the route
 * declares writes for the same answer: a route of a separate Fastify instance that declares that
 * schema and sends the answer parsed from the body.
 */
describe('positions bodies: byte for byte what the response schemas serialize', () => {
  let devnet: Devnet
  let t: TestApp
  let offCtx: AppContext
  let off: App
  let key: string
  let echo: FastifyInstance
  let value: unknown = null

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    t = await createTestApp({ MAX_PRICE_AGE_S: '3600', RATE_LIMIT_PER_MINUTE: '1000000' })
    offCtx = await createContext({ ...t.ctx.config, answerCacheBytes: 0 }, createLogger('silent'), {
      clock: t.clock,
      database: t.database,
    })
    off = await buildApp(offCtx)
    await createIndexer({
      database: t.database,
      logger: createLogger('silent'),
      rpcUrl: devnet.url,
      network: devnet.network,
      batchSize: 50,
    }).syncTo(HEAD)
    key = (await createKey(t.app)).key

    echo = Fastify()
    const route = (url: string, schema: unknown) =>
      echo.get(url, { schema: { response: { 200: schema } } }, async () => value)
    for (const m of PROTOCOLS) {
      route(`/positions/${m.name}`, buildPositionsSchema(m.positions.dataSchema))
      route(`/history/${m.name}`, buildHistorySchema(m.positions.dataSchema))
    }
    route(
      '/all',
      buildAllPositionsSchema(
        Object.fromEntries(
          PROTOCOLS.map((m) => [m.name, { kind: m.kind, dataSchema: m.positions.dataSchema }]),
        ),
      ),
    )
    await echo.ready()
  }, 240_000)

  afterAll(async () => {
    await echo?.close()
    await off?.close()
    await offCtx?.close()
    await t?.close()
    await devnet?.close()
  })

  /** What the schema declared at `schemaUrl` serializes for the answer `body` states. */
  const serialized = async (schemaUrl: string, body: string): Promise<string> => {
    expect(body.includes(STAND_IN)).toBe(false)
    value = JSON.parse(body.replaceAll(BIG, STAND_IN))
    const response = await echo.inject({ method: 'GET', url: schemaUrl })
    expect(response.statusCode, response.body).toBe(200)
    return response.body.replaceAll(STAND_IN, BIG)
  }

  const accounts = async (): Promise<string[]> => {
    const rows = await t.database.db.selectFrom('snapshots').select('address').distinct().execute()
    return rows.map((r) => r.address).sort()
  }

  /** Each URL on the app with the cache (a miss, then a hit) and without: every body as its schema writes it. */
  const expectSchemaBytes = async (pairs: Array<[url: string, schemaUrl: string]>) => {
    for (const [url, schemaUrl] of pairs) {
      for (const app of [t.app, t.app, off]) {
        const response = await app.inject({ method: 'GET', url, headers: apiKey(key) })
        expect(response.statusCode, `${url}: ${response.body}`).toBe(200)
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
        expect(response.body, url).toBe(await serialized(schemaUrl, response.body))
      }
    }
  }

  it('writes every protocol’s snapshot and /at surfaces, and the all-protocols answer, as their schemas do', async () => {
    const all = await accounts()
    expect(all.length).toBeGreaterThan(10)
    // Positions, not only empty answers, in every protocol.
    for (const module of PROTOCOLS) {
      const held = await t.database.db
        .selectFrom('snapshots')
        .select('address')
        .where('protocol', '=', module.name)
        .where('positions', '!=', '[]')
        .executeTakeFirst()
      expect(held, module.name).toBeDefined()
    }
    const pairs: Array<[string, string]> = []
    for (const address of all.filter((_, i) => i % 3 === 0)) {
      for (const pin of [null, START - 1, START + 120, START + 300, HEAD + 1000]) {
        const query = pin === null ? '' : `?as_of_ledger=${pin}`
        for (const m of PROTOCOLS) {
          pairs.push([`/v1/users/${address}/positions/${m.name}${query}`, `/positions/${m.name}`])
        }
        pairs.push([`/v1/users/${address}/positions${query}`, '/all'])
      }
      for (const m of PROTOCOLS) {
        pairs.push([`/v1/users/${address}/positions/${m.name}/at/${START + 200}`, `/positions/${m.name}`])
      }
      // Every protocol valued at one ledger: the same schema as the snapshot surface's answer.
      for (const ledger of [START + 200, 'latest', HEAD + 1000])
        pairs.push([`/v1/users/${address}/positions/at/${ledger}`, '/all'])
    }
    await expectSchemaBytes(pairs)
  })

  it('writes history pages as their schema does, following their cursors', async () => {
    const all = await accounts()
    for (const address of all.filter((_, i) => i % 4 === 1)) {
      for (const m of PROTOCOLS) {
        let url: string | null = `/v1/users/${address}/positions/${m.name}/history?limit=4`
        for (let page = 0; url !== null && page < 3; page++) {
          await expectSchemaBytes([[url, `/history/${m.name}`]])
          const next: string | null = JSON.parse(
            (await t.app.inject({ method: 'GET', url, headers: apiKey(key) })).body,
          ).meta.next_cursor
          url =
            next === null ? null : `/v1/users/${address}/positions/${m.name}/history?limit=4&cursor=${next}`
        }
        await expectSchemaBytes([
          [
            `/v1/users/${address}/positions/${m.name}/history?from_ledger=${START + 50}&to_ledger=${START + 250}`,
            `/history/${m.name}`,
          ],
        ])
      }
    }
  })

  it('echoes an int64 pin beyond 2^53 exactly, the rest as the schemas write it', async () => {
    const [address] = await accounts()
    const pairs: Array<[string, string]> = [
      ...PROTOCOLS.map((m): [string, string] => [
        `/v1/users/${address}/positions/${m.name}?as_of_ledger=${BIG}`,
        `/positions/${m.name}`,
      ]),
      ...PROTOCOLS.map((m): [string, string] => [
        `/v1/users/${address}/positions/${m.name}/at/${BIG}`,
        `/positions/${m.name}`,
      ]),
      [`/v1/users/${address}/positions?as_of_ledger=${BIG}`, '/all'],
      [`/v1/users/${address}/positions/at/${BIG}`, '/all'],
    ]
    await expectSchemaBytes(pairs)
    for (const [url] of pairs) {
      const body = (await t.app.inject({ method: 'GET', url, headers: apiKey(key) })).body
      expect(body).toContain(`"requested_ledger":${BIG},`)
    }
  })

  it('writes a history page with a bound beyond 2^53 with its range after the common meta, as it always has', async () => {
    const [address] = await accounts()
    for (const m of PROTOCOLS) {
      const url = `/v1/users/${address}/positions/${m.name}/history?from_ledger=${START + 10}&to_ledger=${BIG}&limit=3`
      const body = (await t.app.inject({ method: 'GET', url, headers: apiKey(key) })).body
      const schemaOrder = await serialized(`/history/${m.name}`, body)
      // The body is the schema's, but for `meta`: the page's members (from_ledger, to_ledger,
      // limit, next_cursor) follow `sources` instead of `as_of_ledger`.
      const range = /"from_ledger":[0-9]+,"to_ledger":[0-9]+,"limit":3,"next_cursor":(null|"[^"]*"),/.exec(
        schemaOrder,
      )
      expect(range, schemaOrder).not.toBeNull()
      const moved = schemaOrder.replace(range![0], '').replace(/\]\}\}$/, `],${range![0].slice(0, -1)}}}`)
      expect(body).toBe(moved)
      expect(body).toContain(`"to_ledger":${BIG},`)
    }
  })
})
