import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'
import { expectEmissions, expectLending, expectPool } from './lending-expect.ts'
import {
  buildLendingModel,
  type LendingModel,
  lendingSnapshotAt,
  type RefLendingSnapshot,
  stateAt,
} from './lending-reference-model.ts'

const MAX_PRICE_AGE_S = 3600
const START = 2000
/** Blend pools with auctions, emissions, claims and sleeping lenders (the devnet's lending activity). */
const DEVNET = { seed: 'blend', ledgers: 2500, accounts: 80, activity: 0.03, startLedger: START }

describe('lending positions at a ledger (Blend v2 pools)', () => {
  let devnet: Devnet
  let model: LendingModel
  let t: TestApp
  let key: string

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    model = buildLendingModel(devnet.chain)
    t = await createTestApp({ MAX_PRICE_AGE_S: String(MAX_PRICE_AGE_S), RATE_LIMIT_PER_MINUTE: '1000000' })
    const indexer = createIndexer({
      database: t.database,
      logger: createLogger('silent'),
      rpcUrl: devnet.url,
      network: devnet.network,
    })
    await indexer.syncTo(devnet.latestLedger())
    key = (await createKey(t.app)).key
  }, 180_000)

  afterAll(async () => {
    await t?.close()
    await devnet?.close()
  })

  const head = () => model.base.last
  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: apiKey(key) })
    return { status: response.statusCode, body: response.json(), raw: response.body }
  }
  const positions = (address: string, query = '') =>
    get(`/v1/users/${address}/positions/lendingprotocol${query}`)
  const expected = (
    address: string,
    snap: RefLendingSnapshot,
    at: boolean,
    ledger: number,
    askedAt?: number,
  ) =>
    expectLending(model, devnet.chain, address, snap, { at, ledger, maxPriceAgeS: MAX_PRICE_AGE_S, askedAt })

  /** A balance held through a quiet stretch whose reserve's rate moved meanwhile: [snapshot, next change or head]. */
  const findDormant = (minGap: number) => {
    for (const [address, list] of model.snapshots) {
      for (let i = 0; i < list.length; i++) {
        const snap = list[i]!
        const next = list[i + 1]?.ledger ?? head() + 1
        const borrowed = snap.balances.find((b) => b.kind === 'liabilities')
        if (!borrowed || next - snap.ledger < minGap) continue
        const asset = stateAt(model, `${borrowed.pool}|ResList`, snap.ledger)!.value[borrowed.index] as string
        const then = stateAt(model, `${borrowed.pool}|ResData|${asset}`, borrowed.changedAt)!
        const later = stateAt(model, `${borrowed.pool}|ResData|${asset}`, next - 1)!
        if (later.ledger > snap.ledger && later.value.d_rate !== then.value.d_rate)
          return { address, snap, next }
      }
    }
    throw new Error('the devnet has no dormant borrower')
  }

  const eventsNamed = (name: string) => model.events.filter((e) => e.topics[0] === name)

  it('runs on a devnet with liquidations, claims, emissions and dormant borrowers', () => {
    expect(eventsNamed('new_auction').length, 'auctions opened').toBeGreaterThan(0)
    expect(eventsNamed('fill_auction').length, 'auctions filled').toBeGreaterThan(0)
    expect(eventsNamed('claim').length, 'claims').toBeGreaterThan(0)
    expect(eventsNamed('gulp_emissions').length, 'emissions distributed').toBeGreaterThan(1)
    expect(findDormant(300).next - findDormant(300).snap.ledger).toBeGreaterThanOrEqual(300)
    expect(model.snapshots.size).toBeGreaterThan(20)
  })

  it('rules 1, 2 and 5: the latest snapshot at or before the pin, each balance at its own vintage', async () => {
    const { address, snap, next } = findDormant(300)
    const pin = snap.ledger + Math.floor((next - snap.ledger) / 2)
    const { status, body } = await positions(address, `?as_of_ledger=${pin}`)
    expect(status).toBe(200)
    expect(body.meta).toMatchObject({
      requested_ledger: pin,
      as_of_ledger: snap.ledger,
      partial_result: false,
    })
    expect(body.data).toEqual(expected(address, snap, false, snap.ledger).data)
    // Rule 5: not accrued forward: each rate is the one written at or before the balance's own ledger.
    for (const row of body.data.positions) {
      expect(row.rate_ledger).toBeLessThanOrEqual(row.ledger)
    }
  })

  it('rule 3: sweeping pins across a dormant account returns byte-identical data', async () => {
    const { address, snap, next } = findDormant(300)
    const pins = [
      snap.ledger,
      snap.ledger + 1,
      snap.ledger + 97,
      Math.floor((snap.ledger + next) / 2),
      next - 1,
    ]
    const bodies = await Promise.all(pins.map((pin) => positions(address, `?as_of_ledger=${pin}`)))
    expect(new Set(bodies.map((b) => JSON.stringify(b.body.data))).size).toBe(1)
    expect(new Set(bodies.map((b) => JSON.stringify(b.body.enrichment))).size).toBe(1)
    expect(bodies.map((b) => b.body.meta.as_of_ledger)).toEqual(pins.map(() => snap.ledger))
    expect(bodies.map((b) => b.body.meta.requested_ledger)).toEqual(pins)
  })

  it('rule 4: a pin before the first snapshot is empty with as_of_ledger null, never zeros', async () => {
    const [address, list] = [...model.snapshots].find(([, l]) => l[0]!.ledger > START + 10)!
    const { body } = await positions(address, `?as_of_ledger=${list[0]!.ledger - 1}`)
    expect(body.data).toEqual({ address, positions: [], groups: [] })
    expect(body.enrichment).toEqual({ assets: {}, contracts: {} })
    expect(body.meta).toMatchObject({
      as_of_ledger: null,
      partial_result: false,
      requested_ledger: list[0]!.ledger - 1,
    })
  })

  it('rule 6: /at converts the same shares at the latest ResData at or before the pin and reports its ledger', async () => {
    const { address, snap, next } = findDormant(300)
    const pin = next - 1
    const at = await get(`/v1/users/${address}/positions/lendingprotocol/at/${pin}`)
    expect(at.status).toBe(200)
    expect(at.body.meta).toMatchObject({ requested_ledger: pin, as_of_ledger: snap.ledger })
    expect(at.body.data).toEqual(expected(address, snap, true, pin).data)
    const plain = (await positions(address, `?as_of_ledger=${pin}`)).body
    const shares = (body: { data: { positions: { shares: string }[] } }) =>
      body.data.positions.map((p) => p.shares)
    expect(shares(at.body)).toEqual(shares(plain))
    const borrow = (body: {
      data: { positions: { position_type: string; amount: string; rate_ledger: number }[] }
    }) => body.data.positions.find((p) => p.position_type === 'borrow')!
    expect(borrow(at.body).amount).not.toBe(borrow(plain).amount)
    expect(borrow(at.body).rate_ledger).toBeGreaterThan(snap.ledger)
    expect(borrow(at.body).rate_ledger).toBeLessThanOrEqual(pin)
  })

  it('omitted pin: the latest state; a pin above the head: the latest state, partial', async () => {
    const [address, list] = [...model.snapshots].find(([, l]) => l.at(-1)!.balances.length > 0)!
    const latest = list.at(-1)!
    const now = await positions(address)
    expect(now.body.meta).toMatchObject({
      requested_ledger: null,
      as_of_ledger: latest.ledger,
      partial_result: false,
    })
    expect(now.body.data).toEqual(expected(address, latest, false, latest.ledger).data)
    const above = await positions(address, `?as_of_ledger=${head() + 1000}`)
    expect(above.body.meta).toMatchObject({ partial_result: true, as_of_ledger: latest.ledger })
  })

  it('agrees with the reference model at every change, the ledger before it and the head, on both surfaces', async () => {
    let compared = 0
    for (const [address, list] of model.snapshots) {
      const pins = new Set<number>([head()])
      for (const snap of list)
        for (const pin of [snap.ledger - 1, snap.ledger]) if (pin >= START) pins.add(pin)
      for (const pin of pins) {
        const snap = lendingSnapshotAt(model, address, pin)
        for (const at of [false, true]) {
          const { body } = at
            ? await get(`/v1/users/${address}/positions/lendingprotocol/at/${pin}`)
            : await positions(address, `?as_of_ledger=${pin}`)
          const where = `${address}@${pin}${at ? '/at' : ''}`
          expect(body.meta.as_of_ledger, where).toBe(snap?.ledger ?? null)
          expect(body.meta.partial_result, where).toBe(false)
          if (!snap) {
            expect(body.data, where).toEqual({ address, positions: [], groups: [] })
            expect(body.meta.valuation_ledger, where).toBeNull()
            continue
          }
          // Valued at the snapshot's own ledger, or at the pin on /at; staleness from the pin either way.
          const want = expected(address, snap, at, at ? pin : snap.ledger, pin)
          expect(body.data, where).toEqual(want.data)
          expect(Object.keys(body.enrichment.assets).sort(), where).toEqual(want.assets)
          expect(body.meta.valuation_ledger, where).toBe(want.valuationLedger)
          expect(body.meta.oracle_staleness_seconds, where).toBe(want.oracleStalenessS)
          compared++
        }
      }
    }
    expect(compared).toBeGreaterThan(500)
  }, 180_000)

  it('history: every snapshot newest first, each as the snapshot surface answers it, page by page', async () => {
    let pages = 0
    for (const [address, list] of model.snapshots) {
      const seen: number[] = []
      let cursor: string | null = null
      do {
        const query: string = `?limit=3${cursor ? `&cursor=${cursor}` : ''}`
        const { status, body } = await get(`/v1/users/${address}/positions/lendingprotocol/history${query}`)
        expect(status).toBe(200)
        for (const item of body.data.snapshots) {
          const snap = list.find((s) => s.ledger === item.ledger)!
          expect(item.data, `${address}@${item.ledger}`).toEqual(
            expected(address, snap, false, snap.ledger).data,
          )
          expect(item.closed_at).toBe(new Date(model.base.closeTimes.get(item.ledger)! * 1000).toISOString())
          expect(item.valuation_ledger).toBe(snap.balances.length === 0 ? null : item.ledger)
          // An item is asked about its own ledger: its staleness is measured from it.
          expect(item.oracle_staleness_seconds).toBe(
            expected(address, snap, false, snap.ledger).oracleStalenessS,
          )
          seen.push(item.ledger)
        }
        expect(body.data.snapshots.length).toBeLessThanOrEqual(3)
        cursor = body.meta.next_cursor
        pages++
      } while (cursor !== null)
      expect(seen).toEqual(list.map((s) => s.ledger).reverse())
    }
    expect(pages).toBeGreaterThan(model.snapshots.size)
  }, 180_000)

  it('history: from_ledger and to_ledger are inclusive; a history item is the snapshot surface at its ledger', async () => {
    const [address, list] = [...model.snapshots].find(([, l]) => l.length >= 5)!
    const [from, to] = [list[1]!.ledger, list[3]!.ledger]
    const { body } = await get(
      `/v1/users/${address}/positions/lendingprotocol/history?from_ledger=${from}&to_ledger=${to}`,
    )
    expect(body.data.snapshots.map((s: { ledger: number }) => s.ledger)).toEqual([to, list[2]!.ledger, from])
    expect(body.meta).toMatchObject({
      from_ledger: from,
      to_ledger: to,
      requested_ledger: to,
      as_of_ledger: to,
    })
    expect(body.meta.next_cursor).toBeNull()
    const surface = await positions(address, `?as_of_ledger=${list[2]!.ledger}`)
    expect(JSON.stringify(body.data.snapshots[1].data)).toBe(JSON.stringify(surface.body.data))
    expect(JSON.stringify(body.data.snapshots[1].enrichment)).toBe(JSON.stringify(surface.body.enrichment))
  })

  it('moves positions on a liquidation fill with no supply or borrow event: both accounts change at that ledger', async () => {
    const fills = eventsNamed('fill_auction')
    for (const fill of fills) {
      const user = fill.topics[2] as string
      const filler = (fill.data as unknown[])[0] as string
      const before = lendingSnapshotAt(model, user, fill.ledger - 1)!
      const after = lendingSnapshotAt(model, user, fill.ledger)!
      expect(after.ledger).toBe(fill.ledger)
      const collateral = (s: RefLendingSnapshot) =>
        s.balances.filter((b) => b.kind === 'collateral').reduce((sum, b) => sum + b.tokens, 0n)
      expect(collateral(after)).toBeLessThan(collateral(before))
      expect(lendingSnapshotAt(model, filler, fill.ledger)!.ledger).toBe(fill.ledger)
      const sameTx = model.events.filter((e) => e.txHash === fill.txHash).map((e) => e.topics[0])
      expect(sameTx).toEqual(['fill_auction'])
      const { body } = await positions(user, `?as_of_ledger=${fill.ledger}`)
      expect(body.data).toEqual(expected(user, after, false, after.ledger).data)
    }
  })

  it('counts a claim as a change of state: the claimant gets a snapshot with its accrued BLND reset', async () => {
    const claim = eventsNamed('claim').find((e) => ((e.data as unknown[])[1] as bigint) > 0n)!
    const account = claim.topics[1] as string
    const snap = lendingSnapshotAt(model, account, claim.ledger)!
    expect(snap.ledger).toBe(claim.ledger)
    const ids = (claim.data as unknown[])[0] as number[]
    for (const id of ids) {
      const emis = snap.emissions.find((e) => e.pool === claim.contract && e.id === id)
      if (emis) expect(emis.accrued).toBe(0n)
    }
    const { body } = await positions(account, `?as_of_ledger=${claim.ledger}`)
    expect(body.data).toEqual(expected(account, snap, false, snap.ledger).data)
  })

  it('pools, reserves and emissions agree with the reference model where pool entries changed, the ledger before, the head', async () => {
    // Where a pool entry changed and the ledger before: every one for the rare entries (config,
    // reserve list, emission shares), every other one for rates and emissions, which move most ledgers.
    const changes = (rare: boolean) =>
      [...model.state]
        .filter(([key]) => /\|(Config|Name|ResList|ResConfig|PoolEmis)/.test(key) === rare)
        .flatMap(([, list]) => list.map((v) => v.ledger))
    const frequent = [...new Set(changes(false))].sort((a, b) => a - b).filter((_, i) => i % 2 === 0)
    const pins = new Set<number>([head()])
    for (const ledger of [...changes(true), ...frequent])
      for (const pin of [ledger - 1, ledger]) pins.add(pin)
    expect(pins.size).toBeGreaterThan(200)
    for (const pin of [...pins].sort((a, b) => a - b)) {
      const v = { at: true, ledger: pin, maxPriceAgeS: MAX_PRICE_AGE_S }
      const all = []
      let asOf: number | null = null
      for (const pool of model.pools) {
        const want = expectPool(model, devnet.chain, pool, v)
        const { status, body } = await get(`/v1/protocols/lendingprotocol/pools/${pool}?as_of_ledger=${pin}`)
        expect(status).toBe(200)
        expect(body.data, `${pool}@${pin}`).toEqual(want.data)
        expect(body.meta).toMatchObject({
          requested_ledger: pin,
          as_of_ledger: want.asOfLedger,
          // Protocol state is valued at the ledger asked about, whatever ledger its entries were written at.
          valuation_ledger: pin,
          partial_result: false,
        })
        all.push(...want.data.reserves)
        if (want.asOfLedger !== null) asOf = Math.max(asOf ?? 0, want.asOfLedger)
      }
      const reserves = await get(`/v1/protocols/lendingprotocol/reserves?as_of_ledger=${pin}`)
      expect(reserves.body.data.reserves, `reserves@${pin}`).toEqual(all)
      expect(reserves.body.meta.as_of_ledger).toBe(asOf)
      expect(reserves.body.meta.valuation_ledger).toBe(pin)
      const emissions = await get(`/v1/protocols/lendingprotocol/emissions?as_of_ledger=${pin}`)
      expect(emissions.body.data.emissions, `emissions@${pin}`).toEqual(expectEmissions(model, pin))
    }
    expect(expectEmissions(model, head()).length).toBeGreaterThan(0)
  }, 180_000)

  it('refuses bad input with the field named, and answers 404 for an unknown pool or protocol', async () => {
    const [address] = [...model.snapshots.keys()]
    const history = `/v1/users/${address}/positions/lendingprotocol/history`
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?limit=abc', 'limit'],
      ['?from_ledger=10&to_ledger=9', 'from_ledger'],
      ['?cursor=bm9wZQ', 'cursor'],
      ['?cursor=%2A', 'cursor'],
      ['?to_ledger=-1', 'to_ledger'],
      ['?as_of_ledger=5', 'as_of_ledger'],
    ] as const) {
      const { status, body } = await get(`${history}${query}`)
      expect(status, query).toBe(400)
      expect(body.error.code).toBe('invalid_request')
      expect(
        body.error.details.map((d: { field: string }) => d.field),
        query,
      ).toContain(field)
    }
    const vault = devnet.network.contracts.vaultprotocol.address
    const unknownPool = await get(`/v1/protocols/lendingprotocol/pools/${vault}`)
    expect(unknownPool.status).toBe(404)
    expect(unknownPool.body.error.code).toBe('not_found')
    expect((await get('/v1/protocols/nosuchprotocol/reserves')).status).toBe(404)
    expect((await get(`/v1/users/${address}/positions/nosuchprotocol/history`)).status).toBe(404)
    expect((await get(`/v1/protocols/vaultprotocol/pools/${vault}`)).status).toBe(404)
    const badPin = await get(`/v1/protocols/lendingprotocol/reserves?as_of_ledger=x`)
    expect(badPin.status).toBe(400)
    expect(badPin.body.error.details[0].field).toBe('as_of_ledger')
  })
})
