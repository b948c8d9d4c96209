import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../src/api/app.ts'
import { demoAccountLines } from '../src/demo.ts'
import { createIdentities } from '../src/devnet/world/identities.ts'
import { PROTOCOLS } from '../src/protocols/registry.ts'
import { apiKey } from './support/factories.ts'
import { type IndexedDevnet, startIndexedDevnet } from './support/indexed-devnet.ts'

/** A smaller world than the demo's, busy enough that every protocol has holders. */
const WORLD = { seed: 'strata-demo', ledgers: 600, accounts: 80 }
const NAMES = PROTOCOLS.map((p) => p.name)

interface Listed {
  example_of: string
  address: string
  protocols: string[]
}

/**
 * Whether the answer about one protocol holds a position: some array in its data is non-empty
 * (vaults, positions, pairs...), read off the answer rather than the code that chose the account.
 */
function holdsSomething(data: Record<string, unknown>): boolean {
  return Object.values(data).some((v) => Array.isArray(v) && v.length > 0)
}

describe('GET /v1/demo/accounts (demo mode only)', () => {
  let w: IndexedDevnet
  let demoApp: App

  beforeAll(async () => {
    w = await startIndexedDevnet(WORLD)
    demoApp = await buildApp(w.t.ctx, { demo: true })
  }, 240_000)

  afterAll(async () => {
    await demoApp?.close()
    await w?.close()
  })

  const list = async () => {
    const response = await demoApp.inject({ method: 'GET', url: '/v1/demo/accounts', headers: apiKey(w.key) })
    expect(response.statusCode, response.body).toBe(200)
    return response.json() as { data: Listed[]; meta: { last_indexed_ledger: number } }
  }

  it('is not served, nor documented, by a server that is not a demo', async () => {
    const response = await w.t.app.inject({ method: 'GET', url: '/v1/demo/accounts', headers: apiKey(w.key) })
    expect(response.statusCode).toBe(404)
    const doc = (await w.t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
    expect(Object.keys(doc.paths)).not.toContain('/v1/demo/accounts')
    const demoDoc = (await demoApp.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
    const operation = demoDoc.paths['/v1/demo/accounts'].get
    // As the document's rules ask of every operation (test/api/openapi.test.ts).
    expect(operation.operationId).toMatch(/^[a-z][A-Za-z0-9]+$/)
    const ids = Object.values(demoDoc.paths).flatMap((methods) =>
      Object.values(methods as Record<string, { operationId: string }>).map((o) => o.operationId),
    )
    expect(new Set(ids).size).toBe(ids.length)
    expect(operation.security).toEqual([{ apiKey: [] }])
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401']))
  })

  it('asks for the API key like every data endpoint', async () => {
    const response = await demoApp.inject({ method: 'GET', url: '/v1/demo/accounts' })
    expect(response.statusCode).toBe(401)
    expect(response.json().error.code).toBe('unauthorized')
  })

  it('names an account for every protocol and one holding several, each answering what is listed', async () => {
    const { data, meta } = await list()
    expect(meta.last_indexed_ledger).toBe(w.devnet.latestLedger())
    expect(data.map((a) => a.example_of)).toEqual([...NAMES, 'several'])
    for (const account of data) {
      if (account.example_of !== 'several') expect(account.protocols).toContain(account.example_of)
    }
    const several = data.find((a) => a.example_of === 'several')!
    expect(several.protocols.length).toBeGreaterThanOrEqual(2)

    // Every protocol, listed or not, asked of every account: non-empty exactly where it is listed.
    for (const account of data) {
      for (const protocol of NAMES) {
        const answer = await w.get(`/v1/users/${account.address}/positions/${protocol}`)
        expect(answer.status, JSON.stringify(answer.body)).toBe(200)
        expect(holdsSomething(answer.body.data), `${account.address} ${protocol}`).toBe(
          account.protocols.includes(protocol),
        )
      }
    }
  })

  it("chooses each protocol's first holder by address not already listed, and the account holding the most: people's accounts", async () => {
    const { data } = await list()
    for (const account of data) expect(account.address).toMatch(/^G[A-Z2-7]{55}$/)
    // Independently: the holdings of every person of the world (contracts hold too, but are not
    // listed while a person does), as the API answers them.
    const holders = new Map<string, string[]>()
    const ids = createIdentities(WORLD.seed)
    const population = Array.from({ length: WORLD.accounts }, (_, i) => ids.accountAddress(i))
    for (const address of population.sort()) {
      const held: string[] = []
      for (const protocol of NAMES) {
        const answer = await w.get(`/v1/users/${address}/positions/${protocol}`)
        if (answer.status === 200 && holdsSomething(answer.body.data)) held.push(protocol)
      }
      if (held.length > 0) holders.set(address, held)
    }
    const listed: string[] = []
    for (const protocol of NAMES) {
      const candidates = [...holders].filter(([, held]) => held.includes(protocol)).map(([a]) => a)
      const first = candidates.find((a) => !listed.includes(a)) ?? candidates[0]!
      expect(data.find((a) => a.example_of === protocol)?.address, protocol).toBe(first)
      listed.push(first)
    }
    // In this world every protocol has a holder of its own.
    expect(new Set(listed).size).toBe(NAMES.length)
    const most = Math.max(...[...holders.values()].map((h) => h.length))
    const several = data.find((a) => a.example_of === 'several')!
    expect(several.protocols).toHaveLength(most)
    expect(several.address).toBe([...holders].find(([, held]) => held.length === most)?.[0])
  })

  it("the banner's lines: each account with a curl line the API answers, and the list's own", async () => {
    const { data } = await list()
    const lines = demoAccountLines('http://127.0.0.1:3000', w.key, data)
    const curls = lines.filter((l) => l.trimStart().startsWith('curl '))
    expect(curls).toHaveLength(data.length + 1)
    for (const line of curls) {
      expect(line).toContain(`-H 'x-svc-token: ${w.key}'`)
      const url = /'http:\/\/127\.0\.0\.1:3000([^']+)'$/.exec(line)?.[1]
      const response = await demoApp.inject({ method: 'GET', url: url!, headers: apiKey(w.key) })
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200)
    }
    for (const account of data) {
      expect(lines.some((l) => l.includes(account.address) && l.includes(account.protocols.join(', ')))).toBe(
        true,
      )
    }
    const several = data.find((a) => a.example_of === 'several')!
    expect(curls.some((l) => l.includes(`/v1/users/${several.address}/positions/at/latest'`))).toBe(true)
  })
})
