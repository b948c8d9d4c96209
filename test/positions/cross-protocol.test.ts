import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import type { Indexer } from '../../src/indexer/index.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'
import { type IndexedDevnet, startIndexedDevnet } from '../support/indexed-devnet.ts'
import {
  type Activity,
  type ActivityReference,
  accountOf,
  createActivityReference,
  REQUESTS,
} from './cross-protocol-refs.ts'
import { buildLendingModel, type LendingModel } from './lending-reference-model.ts'
import { decimal, latestAtOrBefore } from './reference-model.ts'

const MAX_PRICE_AGE_S = 3600
const START = 4000
// The reference models here cover the vault and lending protocols: the devnet runs no Soroswap or
// DeFindex traffic, so their sections are empty and they add no actions (cross-amm-yield.test.ts
// checks those protocols on a devnet with their traffic).
const DEVNET = {
  seed: 'cross',
  ledgers: 1500,
  accounts: 60,
  activity: 0.03,
  ammActivity: 0,
  yieldActivity: 0,
  startLedger: START,
}
const MID = START + 800

describe('across protocols: all positions, protocols, transactions and activities', () => {
  let world: IndexedDevnet
  let devnet: Devnet
  let model: LendingModel
  let indexer: Indexer
  let refs: ActivityReference

  beforeAll(async () => {
    world = await startIndexedDevnet(DEVNET, { maxPriceAgeS: MAX_PRICE_AGE_S, syncTo: MID })
    devnet = world.devnet
    model = buildLendingModel(devnet.chain)
    refs = createActivityReference(devnet, model, MID, MAX_PRICE_AGE_S)
    indexer = world.indexer
  }, 180_000)

  afterAll(async () => {
    await world?.close()
  })

  const get = (url: string) => world.get(url)

  it('pages every action of an account exactly once, newest first, while the indexer keeps ingesting', async () => {
    const account = refs.busiest()
    const url = (query: string) => `/v1/users/${account}/activities${query}`
    const first = await get(url('?limit=3'))
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.meta.last_indexed_ledger).toBe(MID)
    const seen: Activity[] = [...first.body.data.activities]
    let cursor: string | null = first.body.meta.next_cursor
    const ingesting = indexer.syncTo(devnet.latestLedger())
    const heads = new Set<number>([MID])
    while (cursor !== null) {
      const seenHead = Math.max(...heads)
      while (
        (indexer.lastIndexedLedger() ?? 0) <= seenHead &&
        indexer.lastIndexedLedger() !== devnet.latestLedger()
      )
        await new Promise((resolve) => setTimeout(resolve, 5))
      const next = await get(url(`?limit=2&cursor=${cursor}`))
      expect(next.status).toBe(200)
      heads.add(next.body.meta.last_indexed_ledger)
      seen.push(...next.body.data.activities)
      cursor = next.body.meta.next_cursor
    }
    await ingesting
    expect(heads.size, 'pages were served while the head moved').toBeGreaterThan(2)
    const before = refs.referenceActions(account, MID)
    expect(before.length, 'actions before the move').toBeGreaterThan(4)
    expect(seen.map((a) => `${a.tx_hash}/${a.event_index}`)).toEqual(
      before.map((e) => `${e.txHash}/${e.watchedIndex}`),
    )
    for (const [i, got] of seen.entries()) refs.checkActivity(got, before[i]!)

    // After ingestion, a fresh walk covers everything, with filters applied in the store.
    const all = refs.referenceActions(account, devnet.latestLedger())
    expect(all.length).toBeGreaterThan(before.length)
    const walk = async (query: string) => {
      const out: Activity[] = []
      let c: string | null = null
      do {
        const page = await get(url(`?limit=4${query}${c ? `&cursor=${c}` : ''}`))
        expect(page.status).toBe(200)
        out.push(...page.body.data.activities)
        c = page.body.meta.next_cursor
      } while (c !== null)
      return out
    }
    const everything = await walk('')
    // The devnet's contracts start inside the indexed range: nothing before it is missing.
    expect((await get(url('?limit=1'))).body.meta.partial_result).toBe(false)
    expect((await get(url(`?to_ledger=${devnet.latestLedger() + 10}`))).body.meta.partial_result).toBe(true)
    expect(everything.map((a) => `${a.tx_hash}/${a.event_index}`)).toEqual(
      all.map((e) => `${e.txHash}/${e.watchedIndex}`),
    )
    for (const [i, got] of everything.entries()) refs.checkActivity(got, all[i]!)
    expect(everything.filter((a) => a.amount_usd !== null).length, 'priced actions').toBeGreaterThan(2)
    const type = all[0]!.topics[0] as string
    const from = all.at(-1)!.ledger + 1
    const to = all[0]!.ledger
    const filtered = await walk(`&type=${type}&protocol=lendingprotocol&from_ledger=${from}&to_ledger=${to}`)
    expect(filtered.map((a) => `${a.tx_hash}/${a.event_index}`)).toEqual(
      all
        .filter((e) => e.topics[0] === type && e.ledger >= from && e.ledger <= to)
        .map((e) => `${e.txHash}/${e.watchedIndex}`),
    )
    expect(all.some((e) => e.vault) && all.some((e) => !e.vault), 'actions in both protocols').toBe(true)
    const vaultOnly = await walk('&protocol=vaultprotocol')
    expect(vaultOnly.map((a) => `${a.tx_hash}/${a.event_index}`)).toEqual(
      all.filter((e) => e.vault).map((e) => `${e.txHash}/${e.watchedIndex}`),
    )

    // The series: count and USD volume per UTC hour of the same actions.
    const series = await get(`/v1/users/${account}/activities/series?interval=hour`)
    expect(series.status).toBe(200)
    const buckets = new Map<number, { count: number; volume: bigint; priced: number; unpriced: number }>()
    for (const e of all) {
      const start = model.base.closeTimes.get(e.ledger)! - (model.base.closeTimes.get(e.ledger)! % 3600)
      const b = buckets.get(start) ?? { count: 0, volume: 0n, priced: 0, unpriced: 0 }
      b.count++
      const name = e.topics[0] as string
      const usd = e.vault
        ? e.vault.asset !== null && e.vault.amount !== null
          ? refs.expectedUsd(e.vault.asset, e.vault.amount, e.ledger).usd
          : null
        : REQUESTS.includes(name)
          ? refs.expectedUsd(e.topics[1] as string, (e.data as bigint[])[0]!, e.ledger).usd
          : null
      if (usd === null) b.unpriced++
      else {
        b.priced++
        b.volume += BigInt(usd.replace('.', ''))
      }
      buckets.set(start, b)
    }
    expect(
      series.body.data.buckets.map(
        (b: { starts_at: string; count: number; volume_usd: string | null; unpriced_count: number }) => [
          Date.parse(b.starts_at) / 1000,
          b.count,
          b.volume_usd,
          b.unpriced_count,
        ],
      ),
    ).toEqual(
      [...buckets]
        .sort(([a], [b]) => a - b)
        .map(([start, b]) => [start, b.count, b.priced === 0 ? null : decimal(b.volume, 7), b.unpriced]),
    )
  }, 120_000)

  it('every vault action kind is listed under its account, a liquidation under the liquidator and each owner', async () => {
    await indexer.syncTo(devnet.latestLedger())
    const kinds = new Set(refs.vaultRefs.map((e) => e.topics[0]))
    for (const kind of [
      'new_vault',
      'increase_collateral',
      'withdraw_collateral',
      'increase_debt',
      'pay_debt',
      'redeem',
      'liquidate',
      'liquidated',
      'transfer_debt',
    ])
      expect(kinds.has(kind), kind).toBe(true)
    for (const kind of kinds) {
      const ref = refs.vaultRefs.find((e) => e.topics[0] === kind)!
      const { status, body } = await get(
        `/v1/users/${ref.vault!.account}/activities?type=${kind}&from_ledger=${ref.ledger}&to_ledger=${ref.ledger}`,
      )
      expect(status).toBe(200)
      const got = (body.data.activities as Activity[]).find(
        (a) => a.tx_hash === ref.txHash && a.event_index === ref.watchedIndex,
      )
      expect(got, String(kind)).toBeDefined()
      refs.checkActivity(got!, ref)
    }
  })

  it('a transaction: ledger, close time, success and its actions in event order; unknown is 404', async () => {
    await indexer.syncTo(devnet.latestLedger())
    const ref = model.events.find((e) => e.topics[0] === 'fill_auction') ?? model.events[0]!
    const { status, body } = await get(`/v1/transactions/${ref.txHash}`)
    expect(status).toBe(200)
    expect(body.data).toMatchObject({
      hash: ref.txHash,
      ledger: ref.ledger,
      closed_at: new Date(model.base.closeTimes.get(ref.ledger)! * 1000).toISOString(),
      successful: true,
    })
    expect(body.data.fee_charged).toMatch(/^[0-9]+$/)
    const expected = model.events
      .filter((e) => e.txHash === ref.txHash && accountOf(e) !== null)
      .sort((a, b) => a.watchedIndex - b.watchedIndex)
    expect(body.data.actions.length).toBe(expected.length)
    for (const [i, got] of (body.data.actions as Activity[]).entries()) refs.checkActivity(got, expected[i]!)
    // Source and function come from the envelope, matched to the result by hash.
    const ledgers = decodeLedgers(devnet.chain)
    const refTx = ledgers.flatMap((l) => l.txs).find((x) => x.hash === ref.txHash)!
    expect(body.data).toMatchObject({
      source_account: refTx.source,
      contract_address: refTx.contract,
      function: refTx.fn,
    })
    // A failed invocation of a watched contract: listed, with no actions.
    const watched = new Set([
      ...model.pools,
      devnet.chain.network.contracts.vaultprotocol.address,
      ...devnet.chain.network.contracts.oracles.map((o) => o.address),
    ])
    const failed = ledgers.flatMap((l) => l.txs).filter((x) => !x.successful && watched.has(x.contract))
    expect(failed.length, 'failed invocations on the devnet').toBeGreaterThan(0)
    for (const tx of failed.slice(0, 5)) {
      const answer = await get(`/v1/transactions/${tx.hash}`)
      expect(answer.status).toBe(200)
      expect(answer.body.data).toMatchObject({
        hash: tx.hash,
        ledger: tx.ledger,
        successful: false,
        source_account: tx.source,
        contract_address: tx.contract,
        function: tx.fn,
        actions: [],
      })
    }
    const upper = await get(`/v1/transactions/${ref.txHash.toUpperCase()}`)
    expect(upper.body.data.hash).toBe(ref.txHash)
    const unknown = await get(`/v1/transactions/${'ab'.repeat(32)}`)
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('not_found')
    const malformed = await get('/v1/transactions/xyz')
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.details[0].field).toContain('hash')
  })

  /** FxDAO's `VaultsInfo(denomination)` totals by ledger, read from the vaults contract's instance entries. */
  const vaultsInfo = () => {
    const vault = devnet.chain.network.contracts.vaultprotocol.address
    const byDenomination = new Map<string, Array<{ ledger: number; col: bigint; debt: bigint }>>()
    for (const ledger of decodeLedgers(devnet.chain)) {
      for (const tx of ledger.txs) {
        if (!tx.successful) continue
        for (const change of tx.changes) {
          if (
            change.contract !== vault ||
            change.key !== 'instance' ||
            change.kind === 'state' ||
            change.kind === 'restored' ||
            change.kind === 'removed'
          )
            continue
          for (const [k, v] of change.val as [unknown, { total_col: bigint; total_debt: bigint }][]) {
            if (!Array.isArray(k) || k[0] !== 'VaultsInfo') continue
            const list = byDenomination.get(k[1] as string) ?? []
            if (list.at(-1)?.ledger === ledger.sequence) list.pop()
            list.push({ ledger: ledger.sequence, col: BigInt(v.total_col), debt: BigInt(v.total_debt) })
            byDenomination.set(k[1] as string, list)
          }
        }
      }
    }
    return byDenomination
  }

  /** Each protocol's TVL at a ledger as the reference models compute it: [asset, locked, borrowed] and the USD total. */
  const expectedTvl = (protocol: string, ledger: number, info: ReturnType<typeof vaultsInfo>) => {
    const network = devnet.chain.network
    const rows: Array<[string, bigint | null, bigint | null]> = []
    if (protocol === 'vaultprotocol') {
      let col: bigint | null = null
      for (const [denomination, { debt_asset }] of Object.entries(network.vaultprotocol.denominations)) {
        const at = latestAtOrBefore(info.get(denomination), ledger)
        if (!at) continue
        col = (col ?? 0n) + at.col
        rows.push([debt_asset, null, at.debt])
      }
      if (col !== null) rows.unshift([network.vaultprotocol.collateral_asset, col, null])
    } else {
      const sums = new Map<string, [bigint, bigint]>()
      for (const pool of model.pools) {
        const list = (latestAtOrBefore(model.state.get(`${pool}|ResList`), ledger)?.value ?? []) as string[]
        for (const asset of list) {
          const data = latestAtOrBefore(model.state.get(`${pool}|ResData|${asset}`), ledger)?.value as
            | { b_supply: bigint; b_rate: bigint; d_supply: bigint; d_rate: bigint }
            | undefined
          if (!data) continue
          const supplied = (data.b_supply * data.b_rate) / 10n ** 12n
          const product = data.d_supply * data.d_rate
          const borrowed = product / 10n ** 12n + (product % 10n ** 12n === 0n ? 0n : 1n)
          const sum = sums.get(asset) ?? [0n, 0n]
          sums.set(asset, [sum[0] + supplied, sum[1] + borrowed])
        }
      }
      for (const [asset, [supplied, borrowed]] of [...sums].sort(([a], [b]) => (a < b ? -1 : 1)))
        rows.push([asset, supplied - borrowed, borrowed])
    }
    let total: bigint | null = 0n
    const assets = rows.map(([asset, locked, borrowed]) => {
      const decimals = network.assets[asset]!.decimals
      const usd = locked === null ? null : refs.expectedUsd(asset, locked, ledger).usd
      if (locked !== null)
        total = usd === null || total === null ? null : total + BigInt(usd.replace('.', ''))
      return {
        asset,
        locked: locked === null ? null : decimal(locked, decimals),
        locked_usd: usd,
        borrowed: borrowed === null ? null : decimal(borrowed, decimals),
      }
    })
    return { assets, tvl_usd: rows.length === 0 || total === null ? null : decimal(total, 7) }
  }

  it('TVL at sampled ledgers and every bucket of a series agrees with the reference models', async () => {
    await indexer.syncTo(devnet.latestLedger())
    const info = vaultsInfo()
    expect(info.size, 'VaultsInfo written').toBeGreaterThan(0)
    const last = devnet.latestLedger()
    let priced = 0
    for (const protocol of ['vaultprotocol', 'lendingprotocol']) {
      for (const ledger of [START + 50, START + 400, MID, last - 7, last]) {
        const { status, body } = await get(`/v1/protocols/${protocol}/tvl?as_of_ledger=${ledger}`)
        expect(status, JSON.stringify(body)).toBe(200)
        const expected = expectedTvl(protocol, ledger, info)
        expect(body.data.ledger).toBe(ledger)
        expect(
          body.data.assets.map((a: Record<string, unknown>) => ({
            asset: a.asset,
            locked: a.locked,
            locked_usd: a.locked_usd,
            borrowed: a.borrowed,
          })),
        ).toEqual(expected.assets)
        expect(body.data.tvl_usd, `${protocol} at ${ledger}`).toBe(expected.tvl_usd)
        if (body.data.tvl_usd !== null) priced++
      }
      const series = await get(`/v1/protocols/${protocol}/tvl?interval=hour`)
      expect(series.status).toBe(200)
      const points = series.body.data.points as Array<{
        starts_at: string
        closed_at: string | null
        ledger: number
        tvl_usd: string | null
        assets: unknown[]
      }>
      // Each bucket's point is its last ledger, from the reference model's close times.
      const lastOfBucket = new Map<number, number>()
      for (let l = devnet.chain.oldestLedger(); l <= last; l++) {
        const t = model.base.closeTimes.get(l)!
        lastOfBucket.set(t - (t % 3600), l)
      }
      expect(points.map((p) => [Date.parse(p.starts_at) / 1000, p.ledger])).toEqual([...lastOfBucket])
      for (const p of points)
        expect(p.closed_at).toBe(new Date(model.base.closeTimes.get(p.ledger)! * 1000).toISOString())
      expect(points.length).toBeGreaterThan(1)
      expect(series.body.meta.partial_result).toBe(false)
      for (const point of points) {
        const expected = expectedTvl(protocol, point.ledger, info)
        expect(point.tvl_usd).toBe(expected.tvl_usd)
        expect(
          point.assets.map((a) => {
            const { locked_usd, locked, borrowed, asset } = a as Record<string, unknown>
            return { asset, locked, locked_usd, borrowed }
          }),
        ).toEqual(expected.assets)
      }
    }
    expect(priced, 'priced TVL answers').toBeGreaterThan(3)
    const wrong = await get('/v1/protocols/lendingprotocol/tvl?from_ledger=10')
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.details[0].field).toBe('interval')
    const reversed = await get('/v1/protocols/lendingprotocol/tvl?interval=day&from_ledger=10&to_ledger=9')
    expect(reversed.body.error.details[0].field).toBe('from_ledger')
  }, 120_000)

  it('lists every protocol with its contracts and the indexed range', async () => {
    await indexer.syncTo(devnet.latestLedger())
    const { status, body } = await get('/v1/protocols')
    expect(status).toBe(200)
    const network = devnet.chain.network
    const vault = body.data.find((p: { name: string }) => p.name === 'vaultprotocol')
    expect(vault).toMatchObject({ kind: 'vault', indexed_to_ledger: devnet.latestLedger() })
    expect(vault.contracts.map((c: { contract_address: string }) => c.contract_address)).toEqual([
      network.contracts.vaultprotocol.address,
    ])
    const lending = body.data.find((p: { name: string }) => p.name === 'lendingprotocol')
    expect(lending.kind).toBe('lending')
    expect(lending.contracts.map((c: { contract_address: string }) => c.contract_address).sort()).toEqual(
      network.contracts.lendingprotocol.map((c) => c.address).sort(),
    )
    expect(lending.contracts[0]).toMatchObject({ status: 'active', history_complete: true })
  })

  it('bad cursors, filters and ranges are 400 naming the field; min_ledger ahead of the index is 409', async () => {
    const account = refs.busiest()
    const cases: Array<[string, string]> = [
      ['?cursor=bm90LWEtY3Vyc29y', 'cursor'],
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?from_ledger=10&to_ledger=9', 'from_ledger'],
      ['?protocol=nope', 'protocol'],
      ['?type=Bad-Type', 'type'],
      ['?to_ledger=-1', 'to_ledger'],
    ]
    for (const [query, field] of cases) {
      const { status, body } = await get(`/v1/users/${account}/activities${query}`)
      expect(status, query).toBe(400)
      expect(body.error.code).toBe('invalid_request')
      expect(JSON.stringify(body.error.details), query).toContain(field)
    }
    const series = await get(`/v1/users/${account}/activities/series?interval=week`)
    expect(series.status).toBe(400)
    expect(JSON.stringify(series.body.error.details)).toContain('interval')

    const head = indexer.lastIndexedLedger()!
    for (const url of [
      `/v1/users/${account}/positions`,
      `/v1/users/${account}/positions/lendingprotocol`,
      `/v1/users/${account}/activities`,
      '/v1/protocols',
      '/v1/protocols/lendingprotocol/reserves',
    ]) {
      const ahead = await get(`${url}?min_ledger=${head + 1}`)
      expect(ahead.status, url).toBe(409)
      expect(ahead.body.error.code).toBe('ledger_not_indexed')
      expect(ahead.body.error.details[0].field).toBe('min_ledger')
      const reached = await get(`${url}?min_ledger=${head}`)
      expect(reached.status, url).toBe(200)
    }
    const bad = await get(`/v1/protocols?min_ledger=x`)
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body.error.details)).toContain('min_ledger')
  })
})
