import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer, type Indexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import type { ActivitiesTable } from '../../src/store/schema.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'
import { expectedLegs, valueRefLegs } from './activity-reference.ts'
import { decimal } from './reference-model.ts'

// Short enough that some actions' prices are stale at their ledger, and others are not.
const MAX_PRICE_AGE_S = 60
// Every protocol active, so pages mix FxDAO, Blend, Soroswap and DeFindex actions.
const DEVNET = {
  seed: 'activity-pages',
  ledgers: 700,
  accounts: 30,
  activity: 0.03,
  ammActivity: 0.05,
  yieldActivity: 0.05,
  startLedger: 7000,
}
const MID = 7000 + 350
/** Every reason an action or a leg goes unpriced in this world, and priced ones (null). */
const REASONS_SEEN = [
  'asset_unknown',
  'leg:asset_unknown',
  'leg:null',
  'leg:price_stale',
  'leg:protocol_token',
  'no_amount',
  'null',
  'price_stale',
  'protocol_token',
]

/** An `actions` row as the store holds it. */
type StoredRow = ActivitiesTable

/**
 * The body bytes of activity pages, against a straightforward recomputation: each action read from
 * the store's tables one by one, valued with its own price (the latest at or before its ledger,
 * read by its own statement) and written with `JSON.stringify` in the documented field order. The
 * pages are served from batched reads and a cache of rendered items, which this does not use.
 */
describe.each([
  ['with', '48'],
  ['without', '0'],
])('activity pages %s the cache: byte for byte against a per-row recomputation', (_name, cacheMb) => {
  let devnet: Devnet
  let t: TestApp
  let key: string
  let indexer: Indexer

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    t = await createTestApp({
      MAX_PRICE_AGE_S: String(MAX_PRICE_AGE_S),
      RATE_LIMIT_PER_MINUTE: '1000000',
      STRATA_ACTIVITY_CACHE_MB: cacheMb,
    })
    indexer = createIndexer({
      database: t.database,
      logger: createLogger('silent'),
      rpcUrl: devnet.url,
      network: devnet.network,
      batchSize: 100,
    })
    await indexer.syncTo(MID)
    key = (await createKey(t.app)).key
  }, 180_000)

  afterAll(async () => {
    await t?.close()
    await devnet?.close()
  })

  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: apiKey(key) })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    return { text: response.body, body: response.json() }
  }

  /** One action as the API must show it, computed row by row. */
  const expectedItem = async (row: StoredRow) => {
    const db = t.database.db
    const ledger = Number(row.ledger)
    const closeRow = await db
      .selectFrom('ledgers')
      .select('close_time')
      .where('sequence', '=', ledger)
      .executeTakeFirst()
    const closeTime = closeRow ? Number(closeRow.close_time) : null
    const network = devnet.network
    const { legs, details } = expectedLegs(
      { ...row, details: JSON.parse(row.details) as Record<string, unknown> },
      network,
    )
    const valued = await valueRefLegs(legs, network, closeTime, MAX_PRICE_AGE_S, async (oracle, asset) => {
      const price = await db
        .selectFrom('prices')
        .selectAll()
        .where('oracle', '=', oracle)
        .where('asset', '=', asset)
        .where('ledger', '<=', ledger)
        .orderBy('ledger', 'desc')
        .limit(1)
        .executeTakeFirst()
      return price === undefined
        ? null
        : {
            price: BigInt(price.price),
            decimals: Number(price.decimals),
            timestampS: Math.floor(Number(price.timestamp_ms) / 1000),
          }
    })
    return {
      protocol: row.protocol,
      type: row.type,
      contract_address: row.contract,
      account: row.account,
      ledger,
      closed_at: closeTime === null ? null : new Date(closeTime * 1000).toISOString(),
      tx_hash: row.tx_hash,
      operation: Number(row.operation),
      event_index: Number(row.event_index),
      ...valued,
      details,
    }
  }

  /** The account's actions newest first, read one by one through account_actions. */
  const expectedActions = async (account: string, protocol?: string) => {
    const db = t.database.db
    let listed = db
      .selectFrom('account_activities')
      .select(['ledger', 'tx_order', 'event_index', 'protocol'])
      .where('account', '=', account)
    if (protocol) listed = listed.where('protocol', '=', protocol)
    const keys = await listed.execute()
    keys.sort(
      (a, b) =>
        Number(b.ledger) - Number(a.ledger) ||
        b.tx_order - a.tx_order ||
        b.event_index - a.event_index ||
        (a.protocol < b.protocol ? 1 : a.protocol > b.protocol ? -1 : 0),
    )
    const items = []
    for (const k of keys) {
      const row = (await db
        .selectFrom('activities')
        .selectAll()
        .where('ledger', '=', k.ledger)
        .where('tx_order', '=', k.tx_order)
        .where('event_index', '=', k.event_index)
        .where('protocol', '=', k.protocol)
        .executeTakeFirstOrThrow()) as unknown as StoredRow
      items.push(await expectedItem(row))
    }
    return items
  }

  /** Every page's body text, walking the cursor. */
  const walk = async (account: string, query: string) => {
    const texts: string[] = []
    let cursor: string | null = null
    do {
      const { text, body } = await get(
        `/v1/users/${account}/activities?${query}${cursor ? `&cursor=${cursor}` : ''}`,
      )
      texts.push(text)
      cursor = body.meta.next_cursor
    } while (cursor !== null)
    return texts
  }

  /** The data part of a page as `JSON.stringify` writes it: the body must start with exactly this. */
  const dataText = (address: string, activities: unknown[]) =>
    `{"data":${JSON.stringify({ address, activities })},"meta":`

  const accounts = async () =>
    (
      await t.database.db
        .selectFrom('account_activities')
        .select('account')
        .distinct()
        .orderBy('account')
        .execute()
    ).map((r) => r.account)

  /** The hourly series of items, computed here: count, priced volume and unpriced count per hour. */
  const expectedSeries = (
    items: Array<{ ledger: number; closed_at: string | null; amount_usd: string | null }>,
  ) => {
    const buckets = new Map<
      number,
      { from: number; to: number; count: number; volume: bigint; priced: number }
    >()
    for (const item of items) {
      if (item.closed_at === null) continue
      const closeTime = new Date(item.closed_at).getTime() / 1000
      const start = closeTime - (closeTime % 3600)
      const b = buckets.get(start) ?? { from: item.ledger, to: item.ledger, count: 0, volume: 0n, priced: 0 }
      b.count++
      b.from = Math.min(b.from, item.ledger)
      b.to = Math.max(b.to, item.ledger)
      if (item.amount_usd !== null) {
        b.priced++
        b.volume += BigInt(item.amount_usd.replace('.', ''))
      }
      buckets.set(start, b)
    }
    return [...buckets]
      .sort(([a], [b]) => a - b)
      .map(([start, b]) => ({
        starts_at: new Date(start * 1000).toISOString(),
        from_ledger: b.from,
        to_ledger: b.to,
        count: b.count,
        volume_usd: b.priced === 0 ? null : decimal(b.volume, 7),
        unpriced_count: b.count - b.priced,
      }))
  }

  it('a page or series served before newer actions were indexed is served with them after', async () => {
    const all = await accounts()
    const before = new Map<string, string>()
    for (const account of all) {
      const expected = (await expectedActions(account)).filter((a) => a.ledger <= MID)
      const { text } = await get(`/v1/users/${account}/activities?limit=7`)
      expect(text.startsWith(dataText(account, expected.slice(0, 7)))).toBe(true)
      before.set(account, text)
      const series = await get(`/v1/users/${account}/activities/series?interval=hour`)
      expect(series.body.data.buckets).toEqual(expectedSeries(expected))
    }
    await indexer.syncTo(devnet.latestLedger())
    for (const account of all) {
      const series = await get(`/v1/users/${account}/activities/series?interval=hour`)
      expect(series.body.data.buckets).toEqual(expectedSeries(await expectedActions(account)))
    }
    let changed = 0
    for (const account of await accounts()) {
      const expected = await expectedActions(account)
      expect(expected.some((a) => a.ledger <= MID) || !before.has(account)).toBe(true)
      const { text, body } = await get(`/v1/users/${account}/activities?limit=7`)
      expect(body.meta.last_indexed_ledger).toBe(devnet.latestLedger())
      expect(text.startsWith(dataText(account, expected.slice(0, 7))), account).toBe(true)
      const data = (page: string) => page.slice(0, page.indexOf(',"meta":'))
      if (before.has(account) && data(text) !== data(before.get(account)!)) changed++
    }
    expect(changed, 'pages that gained newer actions').toBeGreaterThan(5)
  }, 120_000)

  it("every account's pages hold exactly its actions, each item byte for byte as recomputed", async () => {
    const all = await accounts()
    expect(all.length, 'accounts with actions').toBeGreaterThan(10)
    const protocols = new Set<string>()
    const reasons = new Set<string | null>()
    const limit = 7
    for (const account of all) {
      const expected = await expectedActions(account)
      const pages = await walk(account, `limit=${limit}`)
      expect(pages.length).toBe(Math.max(1, Math.ceil(expected.length / limit)))
      for (const [i, text] of pages.entries()) {
        const slice = expected.slice(i * limit, (i + 1) * limit)
        expect(text.startsWith(dataText(account, slice)), `${account} page ${i}`).toBe(true)
      }
      for (const item of expected) {
        protocols.add(item.protocol)
        reasons.add(item.usd_unavailable_reason)
        for (const leg of item.legs) reasons.add(`leg:${leg.usd_unavailable_reason}`)
        // Every AMM and yield action that moves tokens names them, with amounts in their units.
        if (['add_liquidity', 'remove_liquidity', 'swap', 'deposit', 'withdraw'].includes(item.type))
          if (item.protocol === 'ammprotocol' || item.protocol === 'yieldprotocol') {
            expect(item.legs.length, `${item.type} ${item.tx_hash}`).toBeGreaterThan(1)
            for (const leg of item.legs) expect(leg.amount, `${item.type} ${item.tx_hash}`).not.toBeNull()
          }
      }
    }
    expect([...protocols].sort()).toEqual([
      'ammprotocol',
      'lendingprotocol',
      'vaultprotocol',
      'yieldprotocol',
    ])
    // Priced items and every reason an item goes unpriced were compared.
    expect([...reasons].map(String).sort()).toEqual(REASONS_SEEN)
  }, 120_000)

  it('a repeated page (its items from the cache) is the same bytes; a protocol filter and an exact pin too', async () => {
    const all = await accounts()
    for (const account of all.slice(0, 8)) {
      const first = await walk(account, 'limit=5')
      // Each page holds the account's actions as recomputed from the store, five at a time.
      const expected = await expectedActions(account)
      expect(first.length).toBe(Math.max(1, Math.ceil(expected.length / 5)))
      for (const [i, text] of first.entries()) {
        expect(
          text.startsWith(dataText(account, expected.slice(i * 5, i * 5 + 5))),
          `${account} page ${i}`,
        ).toBe(true)
      }
      const again = await walk(account, 'limit=5')
      const strip = (text: string) => text.replace(/"response_time_ms":[0-9]+/, '')
      expect(again.map(strip)).toEqual(first.map(strip))
      // Beyond 2^53 the pin is echoed exactly (another serializer): the items are the same bytes.
      const exact = await walk(account, 'limit=5&to_ledger=9223372036854775807')
      expect(exact.length).toBe(first.length)
      for (const [i, text] of exact.entries()) {
        expect(text.slice(0, text.indexOf(',"meta":'))).toBe(
          first[i]!.slice(0, first[i]!.indexOf(',"meta":')),
        )
        expect(text).toContain('"to_ledger":9223372036854775807')
      }
      const vaultOnly = await expectedActions(account, 'lendingprotocol')
      const pages = await walk(account, 'limit=100&protocol=lendingprotocol')
      expect(pages[0]!.startsWith(dataText(account, vaultOnly.slice(0, 100)))).toBe(true)
    }
  }, 120_000)

  it("a transaction's actions are the same items as in the pages", async () => {
    const rows = (await t.database.db
      .selectFrom('activities')
      .selectAll()
      .orderBy('ledger', 'desc')
      .limit(40)
      .execute()) as unknown as StoredRow[]
    const hashes = [...new Set(rows.map((r) => r.tx_hash))].slice(0, 10)
    expect(hashes.length).toBeGreaterThan(0)
    for (const hash of hashes) {
      const { text } = await get(`/v1/transactions/${hash}`)
      const own = (await t.database.db
        .selectFrom('activities')
        .selectAll()
        .where('tx_hash', '=', hash)
        .execute()) as unknown as StoredRow[]
      own.sort((a, b) => a.event_index - b.event_index || (a.protocol < b.protocol ? -1 : 1))
      const items = []
      for (const row of own) items.push(await expectedItem(row))
      expect(text).toContain(`"actions":${JSON.stringify(items)}}`)
    }
  })
})
