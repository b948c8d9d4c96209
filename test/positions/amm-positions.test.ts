import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'
import {
  type AmmModel,
  ammSnapshotAt,
  buildAmmModel,
  expectAmm,
  expectPair,
  pairStateAt,
  type RefAmmSnapshot,
} from './amm-reference-model.ts'

const MAX_PRICE_AGE_S = 3600
const START = 2000
/** Soroswap pairs with swaps, deposits, withdrawals, LP transfers and sleeping LPs (the devnet's AMM activity). */
const DEVNET = {
  seed: 'amm',
  ledgers: 1800,
  accounts: 120,
  activity: 0.01,
  ammActivity: 0.04,
  lendingActivity: 0,
  yieldActivity: 0,
  startLedger: START,
}

describe('AMM positions at a ledger (Soroswap pairs)', () => {
  let devnet: Devnet
  let model: AmmModel
  let t: TestApp
  let key: string

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    model = buildAmmModel(devnet.chain)
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
    return { status: response.statusCode, body: response.json() }
  }
  const positions = (address: string, query = '') => get(`/v1/users/${address}/positions/ammprotocol${query}`)
  const expected = (address: string, snap: RefAmmSnapshot, at: boolean, ledger: number, askedAt?: number) =>
    expectAmm(model, devnet.chain, address, snap, { at, ledger, maxPriceAgeS: MAX_PRICE_AGE_S, askedAt })
  const pairEvents = (name: string) =>
    model.events.filter((e) => e.topics[0] === 'SoroswapPair' && e.topics[1] === name)
  /** Plain LP transfers between accounts (not the transfer to the pair that starts a withdrawal). */
  const lpTransfers = () =>
    model.events.filter(
      (e) => e.topics[0] === 'transfer' && e.topics[1] !== e.contract && e.topics[2] !== e.contract,
    )

  /** An LP balance held through a stretch in which its pair's reserves moved: [snapshot, next change or head]. */
  const findDormant = (minGap: number) => {
    for (const [address, list] of model.snapshots) {
      for (let i = 0; i < list.length; i++) {
        const snap = list[i]!
        const next = list[i + 1]?.ledger ?? head() + 1
        const lp = snap.balances[0]
        if (!lp || next - snap.ledger < minGap) continue
        const later = pairStateAt(model, lp.pair, next - 1)!
        if (later.ledger > snap.ledger) return { address, snap, next }
      }
    }
    throw new Error('the devnet has no dormant LP')
  }

  it('runs on a devnet with swaps, deposits, withdrawals, LP transfers and dormant LPs', () => {
    expect(pairEvents('swap').length, 'swaps').toBeGreaterThan(20)
    expect(pairEvents('deposit').length, 'deposits').toBeGreaterThan(5)
    expect(pairEvents('withdraw').length, 'withdrawals').toBeGreaterThan(0)
    expect(lpTransfers().length, 'LP transfers').toBeGreaterThan(0)
    const dormant = findDormant(300)
    expect(dormant.next - dormant.snap.ledger).toBeGreaterThanOrEqual(300)
    expect(model.snapshots.size).toBeGreaterThan(10)
    // Some account holds LP tokens of two pairs at once: the rows' order by pair is exercised.
    const holders = [...model.snapshots.values()].flat()
    expect(holders.some((s) => s.balances.length >= 2)).toBe(true)
  })

  it('agrees with the reference model at every change, the ledger before it, mid-stretch and the head, on both surfaces', async () => {
    let compared = 0
    for (const [address, list] of model.snapshots) {
      const pins = new Set<number>([head()])
      for (const [i, snap] of list.entries()) {
        // The change, the ledger before it, and the middle of the quiet stretch after it.
        const next = list[i + 1]?.ledger ?? head() + 1
        for (const pin of [snap.ledger - 1, snap.ledger, Math.floor((snap.ledger + next) / 2)])
          if (pin >= START) pins.add(pin)
      }
      for (const pin of pins) {
        const snap = ammSnapshotAt(model, address, pin)
        for (const at of [false, true]) {
          const { status, body } = at
            ? await get(`/v1/users/${address}/positions/ammprotocol/at/${pin}`)
            : await positions(address, `?as_of_ledger=${pin}`)
          const where = `${address}@${pin}${at ? '/at' : ''}`
          expect(status, where).toBe(200)
          expect(body.meta.as_of_ledger, where).toBe(snap?.ledger ?? null)
          expect(body.meta.partial_result, where).toBe(false)
          if (!snap) {
            expect(body.data, where).toEqual({ address, positions: [], groups: [] })
            continue
          }
          // Staleness is measured from the ledger asked about, whatever the valuation ledger.
          const want = expected(address, snap, at, at ? pin : snap.ledger, pin)
          expect(body.data, where).toEqual(want.data)
          expect(Object.keys(body.enrichment.assets).sort(), where).toEqual(want.assets)
          expect(body.meta.oracle_staleness_seconds, where).toBe(want.oracleStalenessS)
          // The ledger whose prices value it: the snapshot's own, or the pin on /at.
          expect(body.meta.valuation_ledger, where).toBe(
            snap.balances.length === 0 ? null : at ? pin : snap.ledger,
          )
          compared++
        }
      }
    }
    expect(compared).toBeGreaterThan(200)
  }, 180_000)

  it('a swap moves every LP of the pair on /at but writes none of them a snapshot', async () => {
    let checked = 0
    for (const swap of pairEvents('swap')) {
      const before = pairStateAt(model, swap.contract, swap.ledger - 1)
      const after = pairStateAt(model, swap.contract, swap.ledger)!
      if (!before || after.ledger !== swap.ledger) continue
      // LPs of the pair at the swap whose own balance did not change at that ledger.
      for (const [address] of model.snapshots) {
        const snap = ammSnapshotAt(model, address, swap.ledger)
        if (!snap || snap.ledger === swap.ledger || !snap.balances.some((b) => b.pair === swap.contract))
          continue
        const at = (await get(`/v1/users/${address}/positions/ammprotocol/at/${swap.ledger}`)).body
        const atBefore = (await get(`/v1/users/${address}/positions/ammprotocol/at/${swap.ledger - 1}`)).body
        const plain = (await positions(address, `?as_of_ledger=${swap.ledger}`)).body
        expect(at.meta.as_of_ledger).toBe(snap.ledger)
        expect(at.data).toEqual(expected(address, snap, true, swap.ledger).data)
        const row = (body: {
          data: { positions: Array<{ contract_address: string; amount: string; rate_ledger: number }> }
        }) => body.data.positions.find((p) => p.contract_address === swap.contract)!
        expect(row(at).rate_ledger).toBe(swap.ledger)
        // Both reserves moved: both rows of the pair are valued at new rates.
        const rates = (body: { data: { positions: Array<{ contract_address: string; rate: string }> } }) =>
          body.data.positions.filter((p) => p.contract_address === swap.contract).map((p) => p.rate)
        const [now, then] = [rates(at), rates(atBefore)]
        expect(now[0]).not.toBe(then[0])
        expect(now[1]).not.toBe(then[1])
        // No snapshot at the swap: the snapshot surface still serves the LP's own last change.
        expect(plain.meta.as_of_ledger).toBe(snap.ledger)
        expect(row(plain).rate_ledger).toBeLessThanOrEqual(snap.ledger)
        checked++
        if (checked >= 25) return
      }
    }
    expect(checked).toBeGreaterThan(0)
  }, 120_000)

  it('sweeping pins across a dormant LP returns byte-identical data on the snapshot surface', async () => {
    const { address, snap, next } = findDormant(300)
    const pins = [snap.ledger, snap.ledger + 1, Math.floor((snap.ledger + next) / 2), next - 1]
    const bodies = await Promise.all(pins.map((pin) => positions(address, `?as_of_ledger=${pin}`)))
    expect(new Set(bodies.map((b) => JSON.stringify(b.body.data))).size).toBe(1)
    expect(bodies.map((b) => b.body.meta.as_of_ledger)).toEqual(pins.map(() => snap.ledger))
    // Its pair traded meanwhile: /at at the end of the stretch differs.
    const at = await get(`/v1/users/${address}/positions/ammprotocol/at/${next - 1}`)
    expect(at.body.data).toEqual(expected(address, snap, true, next - 1).data)
    expect(JSON.stringify(at.body.data)).not.toBe(JSON.stringify(bodies[0]!.body.data))
  })

  it('the 1,000 locked LP units are nobody position: the pair itself has none', async () => {
    const locked = model.pairSelfBalances.filter((b) => b.balance === 1000n)
    expect(locked.length).toBeGreaterThanOrEqual(model.pairs.length)
    for (const pair of model.pairs) {
      expect(model.snapshots.has(pair)).toBe(false)
      const { body } = await positions(pair)
      expect(body.data).toEqual({ address: pair, positions: [], groups: [] })
      expect(body.meta.as_of_ledger).toBeNull()
    }
  })

  it('an account that only received LP tokens by transfer holds a position', async () => {
    const depositors = new Set(pairEvents('deposit').map((e) => (e.data as { to: string }).to))
    const received = lpTransfers().filter((e) => !depositors.has(e.topics[2] as string))
    expect(received.length).toBeGreaterThan(0)
    for (const transfer of received.slice(0, 10)) {
      const to = transfer.topics[2] as string
      const snap = ammSnapshotAt(model, to, transfer.ledger)!
      const { body } = await positions(to, `?as_of_ledger=${transfer.ledger}`)
      expect(body.data.positions.length).toBeGreaterThanOrEqual(2)
      expect(
        body.data.positions.some(
          (p: { contract_address: string }) => p.contract_address === transfer.contract,
        ),
      ).toBe(true)
      expect(body.data).toEqual(expected(to, snap, false, snap.ledger).data)
    }
  })

  it('an account that sent all its LP tokens away holds none, at the ledger it did', async () => {
    const emptied = lpTransfers().filter((e) => {
      const from = e.topics[1] as string
      const before = ammSnapshotAt(model, from, e.ledger - 1)
      const after = ammSnapshotAt(model, from, e.ledger)
      return (
        before?.balances.some((b) => b.pair === e.contract) &&
        after &&
        !after.balances.some((b) => b.pair === e.contract)
      )
    })
    expect(emptied.length).toBeGreaterThan(0)
    for (const transfer of emptied) {
      const from = transfer.topics[1] as string
      const { body } = await positions(from, `?as_of_ledger=${transfer.ledger}`)
      expect(body.meta.as_of_ledger).toBe(transfer.ledger)
      expect(
        body.data.positions.some(
          (p: { contract_address: string }) => p.contract_address === transfer.contract,
        ),
      ).toBe(false)
      expect(
        body.data.groups.some((g: { contract_address: string }) => g.contract_address === transfer.contract),
      ).toBe(false)
    }
  })

  it('history: every snapshot newest first, each as the snapshot surface answers it', async () => {
    for (const [address, list] of model.snapshots) {
      const seen: number[] = []
      let cursor: string | null = null
      do {
        const query: string = `?limit=4${cursor ? `&cursor=${cursor}` : ''}`
        const { status, body } = await get(`/v1/users/${address}/positions/ammprotocol/history${query}`)
        expect(status).toBe(200)
        for (const item of body.data.snapshots) {
          const snap = list.find((s) => s.ledger === item.ledger)!
          expect(item.data, `${address}@${item.ledger}`).toEqual(
            expected(address, snap, false, snap.ledger).data,
          )
          seen.push(item.ledger)
        }
        cursor = body.meta.next_cursor
      } while (cursor !== null)
      expect(seen).toEqual(list.map((s) => s.ledger).reverse())
    }
  }, 180_000)

  it('pools and reserves agree with the reference model where a pair changed, the ledger before, the head', async () => {
    const changes = [...model.state.values()].flatMap((list) => list.map((s) => s.ledger))
    const pins = new Set<number>([START, head()])
    for (const ledger of changes.filter((_, i) => i % 3 === 0))
      for (const pin of [ledger - 1, ledger]) pins.add(pin)
    expect(pins.size).toBeGreaterThan(50)
    let traded = 0
    for (const pin of [...pins].sort((a, b) => a - b)) {
      const v = { at: true, ledger: pin, maxPriceAgeS: MAX_PRICE_AGE_S }
      const all = []
      let asOf: number | null = null
      for (const pair of model.pairs) {
        const want = expectPair(model, devnet.chain, pair, v)
        const { status, body } = await get(`/v1/protocols/ammprotocol/pools/${pair}?as_of_ledger=${pin}`)
        expect(status).toBe(200)
        expect(body.data, `${pair}@${pin}`).toEqual(want.data)
        if ((want.data.volume_24h.swaps ?? 0) > 0 && want.data.volume_24h.volume_usd !== null) traded++
        expect(body.meta).toMatchObject({ requested_ledger: pin, as_of_ledger: want.asOfLedger })
        all.push(want.data)
        if (want.asOfLedger !== null) asOf = Math.max(asOf ?? 0, want.asOfLedger)
      }
      const reserves = await get(`/v1/protocols/ammprotocol/reserves?as_of_ledger=${pin}`)
      expect(reserves.body.data.pairs, `reserves@${pin}`).toEqual(all)
      expect(reserves.body.meta.as_of_ledger).toBe(asOf)
    }
    // The 24-hour volume was checked where swaps had happened and were priced.
    expect(traded).toBeGreaterThan(20)
  }, 180_000)

  it('answers 404 for a contract that is not a listed pair, 400 for a bad pin', async () => {
    const factory = devnet.network.contracts.ammprotocol.find((c) => c.kind === 'soroswap-factory')!.address
    const notPair = await get(`/v1/protocols/ammprotocol/pools/${factory}`)
    expect(notPair.status).toBe(404)
    expect(notPair.body.error.code).toBe('not_found')
    const badPin = await get('/v1/protocols/ammprotocol/reserves?as_of_ledger=x')
    expect(badPin.status).toBe(400)
    expect(badPin.body.error.details[0].field).toBe('as_of_ledger')
  })
})
