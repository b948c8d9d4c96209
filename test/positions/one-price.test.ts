import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { PROTOCOLS } from '../../src/protocols/registry.ts'
import type { TestApp } from '../support/app.ts'
import { type IndexedDevnet, startIndexedDevnet } from '../support/indexed-devnet.ts'
import {
  buildReferenceModel,
  decimal,
  latestAtOrBefore,
  type ReferenceModel,
  roundHalfEven,
} from './reference-model.ts'

/**
 * One pricing path: the same asset at the same ledger has the same USD price in every answer that
 * states one, and FxDAO's stablecoins are priced wherever they appear (AMM pairs and TVL included).
 * Expected prices come from the reference model's own reading of the oracle in the devnet's ledgers:
 * EURx and GBPx at the feed's EUR and GBP quotes, USDx at exactly one dollar (its declared peg),
 * every other asset at the quote of the feed its description entry names.
 */

const MAX_PRICE_AGE_S = 3600
const START = 7000
const DEVNET = {
  seed: 'one-price',
  ledgers: 700,
  accounts: 30,
  activity: 0.03,
  ammActivity: 0.05,
  yieldActivity: 0.05,
  startLedger: START,
}

type Body = {
  data: Record<string, unknown>
  enrichment?: { assets: Record<string, { price_usd: string | null; price_source: string | null }> }
  meta: Record<string, unknown>
}

interface Seen {
  where: string
  asset: string
  ledger: number
  price: string | null
  source: string | null
}

/** `"12.3400000"` in `decimals` digits → 123400000n. */
const units = (text: string) => BigInt(text.replace('.', ''))

describe('one pricing path: one asset, one ledger, one USD price in every answer', () => {
  let world: IndexedDevnet
  let devnet: Devnet
  let model: ReferenceModel
  let t: TestApp
  let ledgers: number[]
  const seen: Seen[] = []

  beforeAll(async () => {
    world = await startIndexedDevnet(DEVNET, { maxPriceAgeS: MAX_PRICE_AGE_S, batchSize: 100 })
    devnet = world.devnet
    model = buildReferenceModel(devnet.chain)
    t = world.t
    ledgers = [START + 250, START + 480, devnet.latestLedger()]
  }, 240_000)

  afterAll(async () => {
    await world?.close()
  })

  const get = (url: string) => world.get<Body>(url)

  const network = () => devnet.chain.network
  const stablecoin = (denomination: string) => network().vaultprotocol.denominations[denomination]!.debt_asset
  const oracle = () => network().contracts.oracles[0]!.address

  /** The oracle quote a price comes from, as the reference model read it, or null: a peg (no quote). */
  const quoteOf = (asset: string): { oracle: string; asset: string } | 'peg' | undefined => {
    // FxDAO's stablecoins are worth their currency: the forex quotes, and USD exactly.
    if (asset === stablecoin('USD')) return 'peg'
    if (asset === stablecoin('EUR')) return { oracle: oracle(), asset: 'EUR' }
    if (asset === stablecoin('GBP')) return { oracle: oracle(), asset: 'GBP' }
    return network().assets[asset]?.price_feed ?? undefined
  }

  /** The USD price (integer and decimals) of an asset at a ledger, and whether it is too old to use. */
  const expectedPrice = (asset: string, ledger: number) => {
    const quote = quoteOf(asset)
    if (quote === 'peg') return { price: 1n, decimals: 0, stale: false, text: '1', source: 'peg:USD' }
    if (!quote) return null
    const row = latestAtOrBefore(model.prices.get(`${quote.oracle}|${quote.asset}`), ledger)
    if (!row) return null
    const stale = model.closeTimes.get(ledger)! - Math.floor(row.tsMs / 1000) > MAX_PRICE_AGE_S
    return {
      price: row.price,
      decimals: row.decimals,
      stale,
      text: decimal(row.price, row.decimals),
      source: quote.oracle,
    }
  }

  /** Keeps every price an answer's enrichment states, as valued at `ledger`. */
  const record = (where: string, body: Body, ledger: number) => {
    for (const [asset, info] of Object.entries(body.enrichment?.assets ?? {}))
      seen.push({ where, asset, ledger, price: info.price_usd, source: info.price_source })
  }

  /** Accounts with a snapshot in a protocol at or before a ledger, a few per protocol. */
  const holders = async (protocol: string, ledger: number) => {
    const rows = await t.database.db
      .selectFrom('snapshots')
      .select('address')
      .distinct()
      .where('protocol', '=', protocol)
      .where('ledger', '<=', ledger)
      .orderBy('address')
      .execute()
    return rows.map((r) => r.address as string).filter((_, i) => i % 4 === 0)
  }

  it('walks every answer that prices an asset at sampled ledgers: one price per asset and ledger, the oracle quote or the peg', async () => {
    for (const ledger of ledgers) {
      const accounts = new Set<string>()
      for (const module of PROTOCOLS) {
        const p = module.name
        for (const address of await holders(p, ledger)) {
          accounts.add(address)
          const at = await get(`/v1/users/${address}/positions/${p}/at/${ledger}`)
          expect(at.status, JSON.stringify(at.body)).toBe(200)
          record(`${p} positions /at`, at.body, ledger)
        }
        if (module.pools) {
          for (const contract of module.contracts(network())) {
            if (!module.pools.find(network(), contract.address)) continue
            const pool = await get(`/v1/protocols/${p}/pools/${contract.address}?as_of_ledger=${ledger}`)
            expect(pool.status, JSON.stringify(pool.body)).toBe(200)
            record(`${p} pool`, pool.body, ledger)
          }
        }
        for (const level of ['reserves', 'emissions'] as const) {
          if (!module[level]) continue
          const answer = await get(`/v1/protocols/${p}/${level}?as_of_ledger=${ledger}`)
          expect(answer.status).toBe(200)
          record(`${p} ${level}`, answer.body, ledger)
        }
        if (module.tvl) {
          const tvl = await get(`/v1/protocols/${p}/tvl?as_of_ledger=${ledger}`)
          expect(tvl.status).toBe(200)
          record(`${p} tvl`, tvl.body, ledger)
        }
      }
      for (const address of accounts) {
        // The all-protocols answer at a pin values each section at its own snapshot's ledger: a
        // price it states is the quote at one of those ledgers.
        const all = await get(`/v1/users/${address}/positions?as_of_ledger=${ledger}`)
        expect(all.status).toBe(200)
        const sections = Object.values(
          all.body.data.protocols as Record<string, { as_of_ledger: number | null }>,
        )
        const valuedAt = sections.flatMap((s) => (s.as_of_ledger === null ? [] : [s.as_of_ledger]))
        for (const [asset, info] of Object.entries(all.body.enrichment?.assets ?? {})) {
          const candidates = valuedAt.map((l) => expectedPrice(asset, l)?.text ?? null)
          expect(candidates, `${asset} in all positions of ${address} at ${ledger}`).toContain(info.price_usd)
        }
        // Every protocol valued at one ledger.
        const atAll = await get(`/v1/users/${address}/positions/at/${ledger}`)
        expect(atAll.status).toBe(200)
        record('all positions /at', atAll.body, ledger)
      }
    }

    expect(new Set(seen.map((s) => s.where)).size, 'kinds of answers walked').toBeGreaterThanOrEqual(10)
    for (const s of seen) {
      const expected = expectedPrice(s.asset, s.ledger)
      expect(
        { price: s.price, source: s.price === null ? null : s.source },
        `${s.asset} in ${s.where} at ${s.ledger}`,
      ).toEqual({ price: expected?.text ?? null, source: expected?.source ?? null })
    }
    // The stablecoins are priced in the AMM pools and in TVL, at every sampled ledger.
    for (const denomination of ['USD', 'EUR', 'GBP']) {
      const asset = stablecoin(denomination)
      for (const where of ['ammprotocol pool', 'ammprotocol tvl', 'vaultprotocol tvl']) {
        const found = seen.filter((s) => s.asset === asset && s.where === where)
        expect(found.length, `${denomination}x in ${where}`).toBeGreaterThanOrEqual(ledgers.length)
        expect(found.every((s) => s.price !== null)).toBe(true)
      }
    }
  }, 240_000)

  it("values every activity's asset legs at the asset's one price at the action's own ledger", async () => {
    type Leg = {
      role: string
      asset: string | null
      amount: string | null
      amount_usd: string | null
      usd_unavailable_reason: string | null
    }
    const accounts = new Set<string>()
    for (const module of PROTOCOLS)
      for (const a of await holders(module.name, devnet.latestLedger())) accounts.add(a)
    let priced = 0
    const pricedAssets = new Set<string>()
    for (const address of accounts) {
      let cursor: string | null = null
      do {
        const page = await get(
          `/v1/users/${address}/activities?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        )
        expect(page.status).toBe(200)
        const items = (page.body.data as { activities: Array<{ ledger: number; legs: Leg[] }> }).activities
        for (const item of items) {
          for (const leg of item.legs) {
            if (leg.role !== 'asset' || leg.asset === null || leg.amount === null) continue
            if (network().assets[leg.asset] === undefined) continue
            const expected = expectedPrice(leg.asset, item.ledger)
            const decimals = network().assets[leg.asset]!.decimals
            const where = `${leg.asset} in an activity of ${address} at ${item.ledger}`
            if (!expected)
              expect([leg.amount_usd, leg.usd_unavailable_reason], where).toEqual([null, 'price_missing'])
            else if (expected.stale)
              expect([leg.amount_usd, leg.usd_unavailable_reason], where).toEqual([null, 'price_stale'])
            else {
              const usd = roundHalfEven(
                units(leg.amount) * expected.price,
                10n ** BigInt(decimals + expected.decimals - 7),
              )
              expect([leg.amount_usd, leg.usd_unavailable_reason], where).toEqual([decimal(usd, 7), null])
              priced++
              pricedAssets.add(leg.asset)
            }
          }
        }
        cursor = (page.body.meta.next_cursor as string | null) ?? null
      } while (cursor !== null)
    }
    expect(priced, 'priced activity legs').toBeGreaterThan(20)
    // The stablecoins an action moves are priced there as everywhere else.
    expect(
      [...pricedAssets].filter((a) => ['USD', 'EUR', 'GBP'].map(stablecoin).includes(a)).length,
    ).toBeGreaterThan(0)
  }, 240_000)

  it("values each TVL row and series point at the asset's one price; a top-level reason only beside a null total", async () => {
    let stablecoinRows = 0
    for (const ledger of ledgers) {
      for (const module of PROTOCOLS) {
        if (!module.tvl) continue
        const p = module.name
        const single = await get(`/v1/protocols/${p}/tvl?as_of_ledger=${ledger}`)
        const series = await get(
          `/v1/protocols/${p}/tvl?interval=hour&from_ledger=${START}&to_ledger=${ledger}`,
        )
        expect(series.status).toBe(200)
        const points = series.body.data.points as Array<Record<string, unknown>>
        // The last bucket of a series ending at the ledger is valued at that ledger.
        const point = points.at(-1)!
        expect(point.ledger).toBe(ledger)
        for (const answer of [single.body.data, point]) {
          const rows = answer.assets as Array<Record<string, string | null> & { asset: string }>
          expect(rows.length, `${p} holds something at ${ledger}`).toBeGreaterThan(0)
          for (const row of rows) {
            const expected = expectedPrice(row.asset, ledger)
            const decimals = network().assets[row.asset]!.decimals
            const usd = (amount: string | null) =>
              amount === null || !expected || expected.stale
                ? null
                : decimal(
                    roundHalfEven(
                      units(amount) * expected.price,
                      10n ** BigInt(decimals + expected.decimals - 7),
                    ),
                    7,
                  )
            expect([row.locked_usd, row.borrowed_usd], `${p} ${row.asset} at ${ledger}`).toEqual([
              usd(row.locked ?? null),
              usd(row.borrowed ?? null),
            ])
            if (
              row.locked_usd !== null || row.borrowed_usd !== null
                ? [stablecoin('USD'), stablecoin('EUR'), stablecoin('GBP')].includes(row.asset)
                : false
            )
              stablecoinRows++
          }
          const lends = rows.some((r) => r.borrowed !== null)
          const totalsKnown = answer.tvl_usd !== null && (!lends || answer.borrowed_usd !== null)
          expect(answer.usd_unavailable_reason === null, `${p} reason at ${ledger}`).toBe(totalsKnown)
        }
        expect(point.tvl_usd).toBe(single.body.data.tvl_usd)
        expect(point.assets).toEqual(single.body.data.assets)
      }
    }
    expect(stablecoinRows, 'stablecoin rows valued').toBeGreaterThan(6)
  }, 120_000)
})
