import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NetworkConfig } from '../../src/chain/network.ts'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { expectPool } from '../positions/lending-expect.ts'
import { buildLendingModel, type LendingModel, stateAt } from '../positions/lending-reference-model.ts'
import { decimal, latestAtOrBefore } from '../positions/reference-model.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'

const MAX_PRICE_AGE_S = 3600
const START = 2000
/** Pools deployed at the first ledgers, gulped once (every token with a share gets its EmisData), then used. */
const DEVNET = { seed: 'blend-rates', ledgers: 900, accounts: 40, activity: 0.03, startLedger: START }
/** The second store starts here: the pools' deployment (ResConfig, Config, BLNDTkn, ResList) lies before it. */
const LATE_START = START + 300

interface Reserve {
  contract_address: string
  asset: string
  index: number
  utilization: string | null
  borrow_apr: string | null
  rates_unavailable_reason: string | null
  supply_emission_apr: string | null
  supply_emission_apr_unavailable_reason: string | null
  borrow_emission_apr: string | null
  borrow_emission_apr_unavailable_reason: string | null
  rate_ledger: number | null
}

/**
 * Blend reserve rates and BLND emission APRs over the devnet's pools, recomputed from the ledgers
 * by the lending reference model (test/positions/lending-expect.ts), on a store holding the pools'
 * whole history and on one that starts after their deployment.
 */
describe('Blend reserve rates and emission APR', () => {
  let devnet: Devnet
  let model: LendingModel
  let network: NetworkConfig
  let blnd: string
  const stores: Record<'whole' | 'late', { t: TestApp; key: string }> = {} as never

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    model = buildLendingModel(devnet.chain)
    blnd = String(stateAt(model, `${model.pools[0]}|BLNDTkn`, model.base.last)!.value)
    // The devnet's oracle quotes no BLND. This description prices it through the XLM feed, so that
    // an emission APR has both of its prices; the rule is the description's, whatever the feed.
    const base = devnet.network
    const xlmFeed = base.assets[base.vaultprotocol.collateral_asset]!.price_feed!
    network = {
      ...base,
      assets: {
        ...base.assets,
        [blnd]: { id: blnd, symbol: 'BLND', decimals: 7, tags: [], price_feed: xlmFeed },
      },
    }
    // The late store knows each pool's reserve list from its description, as the pubnet one does.
    const late: NetworkConfig = {
      ...network,
      contracts: {
        ...network.contracts,
        lendingprotocol: network.contracts.lendingprotocol.map((pool) => ({
          ...pool,
          reserves: Object.fromEntries(
            (stateAt(model, `${pool.address}|ResList`, model.base.last)!.value as string[]).map((a, i) => [
              String(i),
              a,
            ]),
          ),
        })),
      },
    }
    for (const [name, description, fromLedger] of [
      ['whole', network, undefined],
      ['late', late, LATE_START],
    ] as const) {
      const t = await createTestApp({ MAX_PRICE_AGE_S: String(MAX_PRICE_AGE_S) })
      const indexer = createIndexer({
        database: t.database,
        logger: createLogger('silent'),
        rpcUrl: devnet.url,
        network: description,
        fromLedger,
      })
      await indexer.syncTo(devnet.latestLedger())
      stores[name] = { t, key: (await createKey(t.app)).key }
    }
  }, 180_000)

  afterAll(async () => {
    for (const store of Object.values(stores)) await store.t.close()
    await devnet?.close()
  })

  const get = async (store: 'whole' | 'late', url: string) => {
    const { t, key } = stores[store]
    const response = await t.app.inject({ method: 'GET', url, headers: apiKey(key) })
    expect(response.statusCode, url).toBe(200)
    return response.json()
  }

  it('answers every reserve as the reference model recomputes it, emission APRs priced, at pins across the run', async () => {
    const pins = new Set<number>([model.base.last])
    for (let pin = START + 1; pin < model.base.last; pin += 97) pins.add(pin)
    let priced = 0
    let zero = 0
    for (const pin of [...pins].sort((a, b) => a - b)) {
      const v = { at: true, ledger: pin, maxPriceAgeS: MAX_PRICE_AGE_S }
      const chain = { ...devnet.chain, network }
      const want = model.pools.flatMap((pool) => expectPool(model, chain, pool, v).data.reserves)
      const body = await get('whole', `/v1/protocols/lendingprotocol/reserves?as_of_ledger=${pin}`)
      expect(body.data.reserves, `reserves@${pin}`).toEqual(want)
      expect(body.meta.partial_result).toBe(false)
      for (const r of body.data.reserves as Reserve[]) {
        for (const apr of [r.supply_emission_apr, r.borrow_emission_apr]) {
          if (apr !== null && apr !== '0.0000000') priced++
          if (apr === '0.0000000') zero++
        }
      }
      // The BLND price used is the one the description names, at the pin.
      const feed = network.assets[blnd]!.price_feed!
      const row = latestAtOrBefore(model.base.prices.get(`${feed.oracle}|${feed.asset}`), pin)
      if (row && body.enrichment.assets[blnd])
        expect(body.enrichment.assets[blnd].price_usd).toBe(decimal(row.price, row.decimals))
    }
    // Both kinds of answer occur: tokens with emissions, and tokens the pools give no share.
    expect(priced).toBeGreaterThan(10)
    expect(zero).toBeGreaterThan(0)
  }, 120_000)

  it('reads an entry the store never saw as unknown, never as zero', async () => {
    const head = model.base.last
    const whole = (await get('whole', `/v1/protocols/lendingprotocol/reserves`)) as {
      data: { reserves: Reserve[] }
    }
    const late = await get('late', `/v1/protocols/lendingprotocol/reserves`)
    expect(late.meta.partial_result).toBe(true)
    const seen = (key: string) => (stateAt(model, key, head)?.ledger ?? -1) >= LATE_START
    const cases = { noEmissions: 0, configMissing: 0, tokenMissing: 0 }
    for (const r of late.data.reserves as Reserve[]) {
      const w = whole.data.reserves.find(
        (x) => x.contract_address === r.contract_address && x.asset === r.asset,
      )!
      const pool = r.contract_address
      // ResConfig was written at deployment, before this store: the curve's rates are unknown.
      expect(seen(`${pool}|ResConfig|${r.asset}`)).toBe(false)
      expect(r.borrow_apr).toBeNull()
      expect(r.rates_unavailable_reason).toBe('config_missing')
      cases.configMissing++
      // Utilization needs only the ResData: the same as the whole store's where this store saw it.
      if (seen(`${pool}|ResData|${r.asset}`)) expect(r.utilization).toBe(w.utilization)
      for (const [side, id] of [
        ['supply', r.index * 2 + 1],
        ['borrow', r.index * 2],
      ] as const) {
        const apr = r[`${side}_emission_apr`]
        const reason = r[`${side}_emission_apr_unavailable_reason`]
        if (!seen(`${pool}|EmisData|${id}`)) {
          // Emitting nothing on the whole store is a fact; on this one it is unknown.
          expect([apr, reason], `${pool} ${id}`).toEqual([null, 'emissions_missing'])
          if (stateAt(model, `${pool}|EmisData|${id}`, head) === undefined) {
            expect(w[`${side}_emission_apr`]).toBe('0.0000000')
            expect(w[`${side}_emission_apr_unavailable_reason`]).toBeNull()
            cases.noEmissions++
          }
        } else if (
          !seen(`${pool}|BLNDTkn`) &&
          seen(`${pool}|ResData|${r.asset}`) &&
          ![null, '0.0000000'].includes(w[`${side}_emission_apr`])
        ) {
          // Emitting, with holders, on the whole store: here the token emitted is unknown.
          expect([apr, reason], `${pool} ${id}`).toEqual([null, 'emission_token_missing'])
          cases.tokenMissing++
        }
      }
    }
    expect(cases.noEmissions).toBeGreaterThan(0)
    expect(cases.configMissing).toBeGreaterThan(0)
    expect(cases.tokenMissing).toBeGreaterThan(0)
  })

  it('states the ledger the figures are computed at, and timestamps as RFC 3339', async () => {
    const pin = START + 450
    const pool = model.pools[0]!
    const body = await get('whole', `/v1/protocols/lendingprotocol/pools/${pool}?as_of_ledger=${pin}`)
    expect(body.data.contract_address).toBe(pool)
    for (const r of body.data.reserves) {
      expect(r.computed_ledger).toBe(pin)
      expect(r.last_accrued_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    }
    const emissions = await get('whole', `/v1/protocols/lendingprotocol/emissions?as_of_ledger=${pin}`)
    expect(emissions.data.emissions.length).toBeGreaterThan(0)
    for (const e of emissions.data.emissions) {
      expect(model.pools).toContain(e.contract_address)
      expect(Date.parse(e.expires_at)).toBeGreaterThan(Date.parse(e.index_updated_at))
    }
  })
})
