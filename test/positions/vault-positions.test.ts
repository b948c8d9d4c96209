import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'
import {
  buildReferenceModel,
  expectVault,
  oldestVaultPriceS,
  priceOf,
  type ReferenceModel,
  type RefSnapshot,
  snapshotAt,
} from './reference-model.ts'

const MAX_PRICE_AGE_S = 3600
const START = 5000
const LEDGERS = 2500
/** Both LedgerCloseMeta versions and both Reflector forms, each over half of the history. */
const DEVNET = {
  seed: 'positions-test',
  ledgers: LEDGERS,
  accounts: 60,
  startLedger: START,
  protocolSwitchLedger: START + 1200,
  reflectorV3Ledger: START + 1000,
  /** Idle vault entries are archived after 400 ledgers (mainnet: 28 days), so restores happen. */
  vaultTtlLedgers: 400,
}

describe('vault positions at a ledger', () => {
  let devnet: Devnet
  let model: ReferenceModel
  let t: TestApp
  let key: string

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    model = buildReferenceModel(devnet.chain)
    t = await createTestApp({ MAX_PRICE_AGE_S: String(MAX_PRICE_AGE_S), RATE_LIMIT_PER_MINUTE: '100000' })
    key = await indexDevnetInto(t)
  }, 120_000)

  /** Ingests the whole devnet into the app's store through the real indexer; returns a data key. */
  const indexDevnetInto = async (app: TestApp): Promise<string> => {
    const indexer = createIndexer({
      database: app.database,
      logger: createLogger('silent'),
      rpcUrl: devnet.url,
      network: devnet.network,
    })
    await indexer.syncTo(devnet.latestLedger())
    return (await createKey(app.app)).key
  }

  afterAll(async () => {
    await t?.close()
    await devnet?.close()
  })

  const get = async (address: string, query = '') => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/v1/users/${address}/positions/vaultprotocol${query}`,
      headers: apiKey(key),
    })
    return { status: response.statusCode, body: response.json(), raw: response.body }
  }

  const expectedVaults = (snapshot: RefSnapshot, valuationLedger: number, at = false) =>
    [...snapshot.vaults.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([denomination, vault]) => ({
        ...expectVault(model, devnet.chain, denomination, vault, {
          valuationLedger,
          maxPriceAgeS: MAX_PRICE_AGE_S,
          at,
        }),
        contract_address: devnet.network.contracts.vaultprotocol.address,
      }))
  const oracle = () => devnet.network.contracts.oracles[0]!.address

  /** An account that held vaults through a long quiet stretch: [snapshot, next change or head]. */
  const findDormant = (minGap: number) => {
    for (const [address, list] of model.snapshots) {
      for (let i = 0; i < list.length; i++) {
        const snap = list[i]!
        const next = list[i + 1]?.ledger ?? model.last + 1
        const hasDebt = [...snap.vaults.values()].some((v) => v.totalDebt > 0n)
        if (snap.vaults.size > 0 && hasDebt && next - snap.ledger >= minGap) return { address, snap, next }
      }
    }
    throw new Error('the devnet has no dormant vault holder')
  }

  it('rules 1, 2 and 5: serves the latest snapshot at or before the pin, at its own vintage', async () => {
    const { address, snap, next } = findDormant(50)
    const pin = snap.ledger + Math.floor((next - snap.ledger) / 2)
    const { status, body } = await get(address, `?as_of_ledger=${pin}`)
    expect(status).toBe(200)
    expect(body.meta.requested_ledger).toBe(pin)
    expect(body.meta.as_of_ledger).toBe(snap.ledger)
    expect(body.meta.partial_result).toBe(false)
    expect(body.meta.last_indexed_ledger).toBe(model.last)
    expect(body.data.address).toBe(address)
    expect(body.data.vaults).toEqual(expectedVaults(snap, snap.ledger))
  })

  it('rule 3: sweeping pins across a dormant position returns byte-identical data', async () => {
    const { address, snap, next } = findDormant(100)
    const pins = [
      snap.ledger,
      snap.ledger + 1,
      snap.ledger + 37,
      Math.floor((snap.ledger + next) / 2),
      next - 1,
    ]
    const bodies = await Promise.all(pins.map((pin) => get(address, `?as_of_ledger=${pin}`)))
    const data = bodies.map((b) => JSON.stringify(b.body.data))
    expect(new Set(data).size).toBe(1)
    expect(bodies.map((b) => b.body.meta.as_of_ledger)).toEqual(pins.map(() => snap.ledger))
    expect(bodies.map((b) => b.body.meta.requested_ledger)).toEqual(pins)
  })

  it('rule 4: a pin before the first snapshot is empty with as_of_ledger null, never zeros', async () => {
    const [address, list] = [...model.snapshots].find(([, l]) => l[0]!.ledger > model.first + 10)!
    const { body } = await get(address, `?as_of_ledger=${list[0]!.ledger - 1}`)
    expect(body.data).toEqual({ address, vaults: [] })
    expect(body.meta.as_of_ledger).toBeNull()
    expect(body.meta.requested_ledger).toBe(list[0]!.ledger - 1)
    expect(body.meta.partial_result).toBe(false)
    const zero = await get(address, '?as_of_ledger=0')
    expect(zero.body.data.vaults).toEqual([])
    expect(zero.body.meta.as_of_ledger).toBeNull()
  })

  it('omitted pin: the latest state, requested_ledger null', async () => {
    const [address, list] = [...model.snapshots].find(([, l]) => l.at(-1)!.vaults.size > 0)!
    const latest = list.at(-1)!
    const { body } = await get(address)
    expect(body.meta.requested_ledger).toBeNull()
    expect(body.meta.as_of_ledger).toBe(latest.ledger)
    expect(body.data.vaults).toEqual(expectedVaults(latest, latest.ledger))
    expect(Object.keys(body.enrichment.contracts)).toEqual([devnet.network.contracts.vaultprotocol.address])
    expect(body.enrichment.contracts[devnet.network.contracts.vaultprotocol.address]).toMatchObject({
      protocol: 'vaultprotocol',
      status: 'active',
    })
    expect(
      body.enrichment.contracts[devnet.network.contracts.vaultprotocol.address].position_types,
    ).toContain('collateral')
    expect(body.meta.sources).toContain(`oracle:${oracle()}`)
  })

  it('a pin beyond the indexed head is flagged partial and serves the latest indexed state', async () => {
    const [address, list] = [...model.snapshots].find(([, l]) => l.at(-1)!.vaults.size > 0)!
    const { body } = await get(address, `?as_of_ledger=${model.last + 1000}`)
    expect(body.meta.partial_result).toBe(true)
    expect(body.meta.as_of_ledger).toBe(list.at(-1)!.ledger)
    expect(body.meta.requested_ledger).toBe(model.last + 1000)
  })

  it('an account whose vaults all closed answers empty at the ledger of the closing', async () => {
    const found = [...model.snapshots].flatMap(([address, list]) =>
      list.flatMap((snap, i) => (snap.vaults.size === 0 && i > 0 ? [{ address, snap }] : [])),
    )[0]
    expect(found, 'the devnet closes vaults').toBeDefined()
    const { body } = await get(found!.address, `?as_of_ledger=${found!.snap.ledger}`)
    expect(body.data.vaults).toEqual([])
    expect(body.meta.as_of_ledger).toBe(found!.snap.ledger)
    expect(body.enrichment.assets).toEqual({})
  })

  it('values USD at the served snapshot, with prices and staleness of that ledger', async () => {
    const { address, snap, next } = findDormant(150)
    const pin = next - 1
    const { body } = await get(address, `?as_of_ledger=${pin}`)
    const xlm = devnet.network.vaultprotocol.collateral_asset
    const price = priceOf(model, devnet.chain, xlm, snap.ledger)!
    const scale = 10n ** BigInt(price.decimals)
    expect(body.enrichment.assets[xlm]).toEqual({
      decimals: 7,
      price_source: oracle(),
      price_usd: `${price.price / scale}.${(price.price % scale).toString().padStart(price.decimals, '0')}`,
      symbol: 'XLM',
      tags: devnet.network.assets[xlm]!.tags,
    })
    // Valued at the snapshot's ledger, and said so; the staleness is measured from the pin, the
    // ledger asked about, so a valuation far below it reads as old as it is.
    const oldest = oldestVaultPriceS(model, devnet.chain, snap, snap.ledger)!
    expect(oldest).toBeLessThanOrEqual(Math.floor(price.tsMs / 1000))
    expect(body.meta.valuation_ledger).toBe(snap.ledger)
    expect(body.meta.oracle_staleness_seconds).toBe(model.closeTimes.get(pin)! - oldest)
    expect(body.meta.oracle_staleness_seconds).toBeGreaterThanOrEqual(
      model.closeTimes.get(pin)! - model.closeTimes.get(snap.ledger)!,
    )
    // Asked at the snapshot's own ledger, the same valuation is younger by the gap.
    const own = (await get(address, `?as_of_ledger=${snap.ledger}`)).body
    expect(own.data).toEqual(body.data)
    expect(own.meta.valuation_ledger).toBe(snap.ledger)
    expect(own.meta.oracle_staleness_seconds).toBe(Math.max(0, model.closeTimes.get(snap.ledger)! - oldest))
    // On /at the pin is both the valuation ledger and the ledger asked about.
    const at = await t.app.inject({
      url: `/v1/users/${address}/positions/vaultprotocol/at/${pin}`,
      headers: apiKey(key),
    })
    const atOldest = oldestVaultPriceS(model, devnet.chain, snap, pin)!
    expect(at.json().meta.valuation_ledger).toBe(pin)
    expect(at.json().meta.oracle_staleness_seconds).toBe(Math.max(0, model.closeTimes.get(pin)! - atOldest))
  })

  it('rule 6: /at keeps the amounts (FxDAO debt does not accrue), values them at the pin, rate_ledger null', async () => {
    // A dormant vault whose collateral price moved while it slept.
    const xlm = devnet.network.vaultprotocol.collateral_asset
    let pick: { address: string; snap: RefSnapshot; pin: number } | undefined
    for (const [address, list] of model.snapshots) {
      for (let i = 0; i < list.length && !pick; i++) {
        const snap = list[i]!
        const next = list[i + 1]?.ledger ?? model.last + 1
        const then = priceOf(model, devnet.chain, xlm, snap.ledger)
        const later = priceOf(model, devnet.chain, xlm, next - 1)
        if (snap.vaults.size > 0 && then && later && then.price !== later.price)
          pick = { address, snap, pin: next - 1 }
      }
    }
    expect(pick, 'a dormant vault whose collateral price moved').toBeDefined()
    const { address, snap, pin } = pick!
    const at = await t.app.inject({
      method: 'GET',
      url: `/v1/users/${address}/positions/vaultprotocol/at/${pin}`,
      headers: apiKey(key),
    })
    expect(at.statusCode).toBe(200)
    const valued = at.json()
    expect(valued.meta.requested_ledger).toBe(pin)
    expect(valued.meta.as_of_ledger).toBe(snap.ledger)
    expect(valued.data.vaults).toEqual(expectedVaults(snap, pin, true))
    const plain = (await get(address, `?as_of_ledger=${pin}`)).body
    const amounts = (vaults: { collateral: string; debt: string }[]) =>
      vaults.map((v) => [v.collateral, v.debt])
    expect(amounts(valued.data.vaults)).toEqual(amounts(plain.data.vaults))
    expect(valued.data.vaults.map((v: { collateral_usd: string }) => v.collateral_usd)).not.toEqual(
      plain.data.vaults.map((v: { collateral_usd: string }) => v.collateral_usd),
    )
    expect(plain.data.vaults[0].rate_ledger).toBeUndefined()
  })

  it('/at/latest values the latest snapshot at the last indexed ledger, as /at/{that ledger} does', async () => {
    // An account still holding vaults at the head, its last snapshot before it.
    const [address, list] = [...model.snapshots].find(([, l]) => (l.at(-1)?.vaults.size ?? 0) > 0)!
    const last = list.at(-1)!
    const latest = await t.app.inject({
      method: 'GET',
      url: `/v1/users/${address}/positions/vaultprotocol/at/latest`,
      headers: apiKey(key),
    })
    expect(latest.statusCode).toBe(200)
    const body = latest.json()
    expect(body.meta.requested_ledger).toBeNull()
    expect(body.meta.last_indexed_ledger).toBe(model.last)
    expect(body.meta.as_of_ledger).toBe(last.ledger)
    expect(body.data.vaults).toEqual(expectedVaults(last, model.last, true))
    const pinned = await t.app.inject({
      method: 'GET',
      url: `/v1/users/${address}/positions/vaultprotocol/at/${model.last}`,
      headers: apiKey(key),
    })
    expect(pinned.json().data).toEqual(body.data)
    for (const bad of ['Latest', 'latest1', 'now']) {
      const refused = await t.app.inject({
        method: 'GET',
        url: `/v1/users/${address}/positions/vaultprotocol/at/${bad}`,
        headers: apiKey(key),
      })
      expect(refused.statusCode, bad).toBe(400)
      expect(refused.json().error.details[0].message).toBe(
        'ledger must be a ledger number (a whole number from 0 to 2^63-1), or latest (the last indexed ledger)',
      )
    }
  })

  it('agrees with the reference model on every account at every ledger where something changed, and around it', async () => {
    let compared = 0
    for (const [address, list] of model.snapshots) {
      const pins = new Set<number>([model.last])
      for (const snap of list)
        for (const pin of [snap.ledger - 1, snap.ledger]) if (pin >= model.first) pins.add(pin)
      for (const pin of pins) {
        const expected = snapshotAt(model, address, pin)
        const { body } = await get(address, `?as_of_ledger=${pin}`)
        expect(body.meta.as_of_ledger, `${address}@${pin}`).toBe(expected?.ledger ?? null)
        expect(body.data.vaults, `${address}@${pin}`).toEqual(
          expected ? expectedVaults(expected, expected.ledger) : [],
        )
        // Valued at the snapshot's own ledger; staleness measured from the pin asked about.
        const valued = expected && expected.vaults.size > 0 ? expected : null
        expect(body.meta.valuation_ledger, `${address}@${pin}`).toBe(valued?.ledger ?? null)
        const oldest = valued ? oldestVaultPriceS(model, devnet.chain, valued, valued.ledger) : null
        expect(body.meta.oracle_staleness_seconds, `${address}@${pin}`).toBe(
          oldest === null ? 0 : Math.max(0, model.closeTimes.get(pin)! - oldest),
        )
        compared++
      }
    }
    expect(compared).toBeGreaterThan(500)
  })

  it('covers both LedgerCloseMeta versions and both Reflector forms', () => {
    expect(model.metaVersions).toEqual(new Set([1, 2]))
    expect(new Set(model.priceForms.values())).toEqual(new Set(['v2', 'v3']))
  })

  it('writes no snapshot for a neighbour whose entry changed only its next_key', async () => {
    const relinks = model.invocations.flatMap((i) =>
      [...i.relinked].map((account) => ({ account, ledger: i.ledger, i })),
    )
    const quiet = relinks.filter(
      ({ account, ledger }) =>
        !model.invocations.some(
          (o) => o.ledger === ledger && o.written.has(account) && !o.relinked.has(account),
        ),
    )
    expect(quiet.length, 'the devnet rewrites neighbours').toBeGreaterThan(0)
    for (const { account, ledger } of quiet.slice(0, 20)) {
      expect(model.snapshots.get(account)?.some((s) => s.ledger === ledger) ?? false).toBe(false)
      const rows = await t.database.db
        .selectFrom('snapshots')
        .select('ledger')
        .where('protocol', '=', 'vaultprotocol')
        .where('address', '=', account)
        .where('ledger', '=', ledger)
        .execute()
      expect(rows, `${account}@${ledger}`).toEqual([])
    }
  })

  it('treats eviction and restore as no change: the owner gets no snapshot for either', async () => {
    expect(model.evictions.length, 'the devnet archives idle entries').toBeGreaterThan(0)
    const restoredOnly = model.invocations.flatMap((i) =>
      [...i.restored]
        .filter((account) => !model.snapshots.get(account)?.some((s) => s.ledger === i.ledger))
        .map((account) => ({ account, ledger: i.ledger })),
    )
    expect(restoredOnly.length, 'the devnet restores archived entries').toBeGreaterThan(0)
    const rows = await t.database.db
      .selectFrom('snapshots')
      .select(['address', 'ledger'])
      .where('protocol', '=', 'vaultprotocol')
      .execute()
    const stored = new Set(rows.map((r) => `${r.address}@${Number(r.ledger)}`))
    for (const { account, ledger } of restoredOnly) expect(stored.has(`${account}@${ledger}`)).toBe(false)
    // Every stored snapshot is one the reference model makes: none comes from an eviction alone.
    const expected = new Set([...model.snapshots].flatMap(([a, list]) => list.map((s) => `${a}@${s.ledger}`)))
    expect(stored).toEqual(expected)
  })

  it('moves a vault on transfer_debt: the sender holds it before, the receiver from that ledger', async () => {
    const transfers = model.invocations.filter(
      (i) => i.fn === 'transfer_debt' && i.removed.size === 1 && i.created.size === 1,
    )
    expect(transfers.length, 'the devnet transfers debt').toBeGreaterThan(0)
    const { ledger, removed, created } = transfers[0]!
    const [from] = [...removed]
    const [to] = [...created]
    const sender = await get(from!, `?as_of_ledger=${ledger}`)
    const senderBefore = await get(from!, `?as_of_ledger=${ledger - 1}`)
    const receiver = await get(to!, `?as_of_ledger=${ledger}`)
    const moved = senderBefore.body.data.vaults.filter(
      (v: { denomination: string }) =>
        !sender.body.data.vaults.some((w: { denomination: string }) => w.denomination === v.denomination),
    )
    expect(moved).toHaveLength(1)
    const arrived = receiver.body.data.vaults.find(
      (v: { denomination: string }) => v.denomination === moved[0].denomination,
    )
    expect(arrived).toMatchObject({ collateral: moved[0].collateral, debt: moved[0].debt, ledger })
  })

  it('drops a liquidated vault at the ledger of the liquidation', async () => {
    const liquidations = model.invocations.filter((i) => i.fn === 'liquidate' && i.removed.size > 0)
    expect(liquidations.length, 'the devnet liquidates').toBeGreaterThan(0)
    const { ledger, removed } = liquidations[0]!
    for (const owner of removed) {
      const before = snapshotAt(model, owner, ledger - 1)!
      const after = snapshotAt(model, owner, ledger)!
      expect(after.ledger).toBe(ledger)
      expect(after.vaults.size).toBe(before.vaults.size - 1)
      const { body } = await get(owner, `?as_of_ledger=${ledger}`)
      expect(body.data.vaults).toHaveLength(after.vaults.size)
    }
  })

  it('marks USD unavailable as price_stale when the oracle is older than MAX_PRICE_AGE_S', async () => {
    const strict = await createTestApp({ MAX_PRICE_AGE_S: '60' })
    try {
      const strictKey = await indexDevnetInto(strict)
      const xlm = devnet.network.vaultprotocol.collateral_asset
      // A snapshot more than 12 ledgers (60 s) after the last oracle update before it.
      const [address, snap] = [...model.snapshots]
        .flatMap(([a, list]) => list.map((s) => [a, s] as const))
        .find(([, s]) => {
          const p = priceOf(model, devnet.chain, xlm, s.ledger)
          return (
            s.vaults.size > 0 && p != null && model.closeTimes.get(s.ledger)! - Math.floor(p.tsMs / 1000) > 60
          )
        })!
      const response = await strict.app.inject({
        method: 'GET',
        url: `/v1/users/${address}/positions/vaultprotocol?as_of_ledger=${snap.ledger}`,
        headers: apiKey(strictKey),
      })
      const vault = response.json().data.vaults[0]
      expect(vault.usd_unavailable_reason).toBe('price_stale')
      expect(vault).toMatchObject({
        collateral_usd: null,
        debt_usd: null,
        net_usd: null,
        collateralization_ratio: null,
      })
      expect(vault.collateral).toMatch(/^\d+\.\d{7}$/)
    } finally {
      await strict.close()
    }
  })

  it('marks USD unavailable as price_missing before the oracle has published', async () => {
    const xlm = devnet.network.vaultprotocol.collateral_asset
    const feed = devnet.network.assets[xlm]!.price_feed!
    const firstPrice = model.prices.get(`${feed.oracle}|${feed.asset}`)![0]!.ledger
    const early = [...model.snapshots]
      .flatMap(([a, list]) => list.map((s) => [a, s] as const))
      .find(([, s]) => s.ledger < firstPrice && s.vaults.size > 0)
    if (!early) {
      // The oracle publishes in the very first ledger of this devnet: nothing can predate it.
      expect(firstPrice).toBe(model.first)
      return
    }
    const { body } = await get(early[0], `?as_of_ledger=${early[1].ledger}`)
    expect(body.data.vaults[0].usd_unavailable_reason).toBe('price_missing')
    expect(body.data.vaults[0].collateral_usd).toBeNull()
    expect(body.enrichment.assets[xlm].price_usd).toBeNull()
  })

  it('accepts a contract address as subject, and validates address and pin', async () => {
    const contract = await get(devnet.network.contracts.vaultprotocol.address)
    expect(contract.status).toBe(200)
    expect(contract.body.data.vaults).toEqual([])
    for (const bad of [
      'nope',
      'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN8',
      'SBQWY3DNPFWGSZTFNZXW4ZDTMFZXIZLTPFXHG5DQNFXGO3DFNZSWO23TNF4GQ5LSOU5WS5TUKZ2Y',
    ]) {
      const response = await get(bad)
      expect(response.status, bad).toBe(400)
      expect(response.body.error.code).toBe('invalid_address')
    }
    const [address] = [...model.snapshots.keys()]
    for (const pin of ['-1', '1.5', 'abc', '9223372036854775808', '']) {
      const response = await get(address!, `?as_of_ledger=${pin}`)
      expect(response.status, pin).toBe(400)
      expect(response.body.error.code).toBe('invalid_request')
      expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain('as_of_ledger')
    }
    const max = await get(address!, '?as_of_ledger=9223372036854775807')
    expect(max.status).toBe(200)
    expect(max.raw).toContain('"requested_ledger":9223372036854775807')
    expect(max.body.meta.partial_result).toBe(true)
    const badAt = await t.app.inject({
      method: 'GET',
      url: `/v1/users/${address}/positions/vaultprotocol/at/-5`,
      headers: apiKey(key),
    })
    expect(badAt.statusCode).toBe(400)
    expect(badAt.json().error.details[0].field).toBe('ledger')
  })
})

describe('Reflector v2 storage and v3 events', () => {
  /** The same world twice: every price recorded as v2 storage, or every price announced as v3 events. */
  const WORLD = { seed: 'oracle-forms', ledgers: 700, accounts: 40, startLedger: 2000 }
  let v2: Devnet
  let v3: Devnet
  const apps: TestApp[] = []

  beforeAll(async () => {
    v2 = await startDevnet({ ...WORLD, reflectorV3Ledger: Number.MAX_SAFE_INTEGER })
    v3 = await startDevnet({ ...WORLD, reflectorV3Ledger: null })
  }, 120_000)
  afterAll(async () => {
    for (const app of apps) await app.close()
    await v2?.close()
    await v3?.close()
  })

  it('give the same USD values for the same prices', async () => {
    const answers: string[][] = []
    const forms: string[][] = []
    for (const devnet of [v2, v3]) {
      const app = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' })
      apps.push(app)
      const indexer = createIndexer({
        database: app.database,
        logger: createLogger('silent'),
        rpcUrl: devnet.url,
        network: devnet.network,
      })
      await indexer.syncTo(devnet.latestLedger())
      const key = (await createKey(app.app)).key
      const model = buildReferenceModel(devnet.chain)
      forms.push([...new Set(model.priceForms.values())])
      const holders = [...model.snapshots.keys()].slice(0, 15)
      const bodies: string[] = []
      for (const address of holders) {
        for (const pin of [2100, 2350, 2699]) {
          const response = await app.app.inject({
            url: `/v1/users/${address}/positions/vaultprotocol?as_of_ledger=${pin}`,
            headers: apiKey(key),
          })
          bodies.push(JSON.stringify(response.json().data))
        }
      }
      answers.push(bodies)
    }
    expect(forms).toEqual([['v2'], ['v3']])
    expect(answers[0]!.some((b) => b.includes('collateral_usd":"'))).toBe(true)
    expect(answers[0]).toEqual(answers[1])
  })
})
