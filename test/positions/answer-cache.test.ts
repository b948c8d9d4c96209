import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/api/app.ts'
import type { NetworkConfig } from '../../src/chain/network.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer, type Indexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { type CachedSurface, createAnswerCache } from '../../src/positions/answer-cache.ts'
import { NO_TOTALS } from '../../src/protocols/kit/totals.ts'
import { PROTOCOLS } from '../../src/protocols/registry.ts'
import type { IndexerHead } from '../../src/store/positions-read.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { sameTime } from '../support/bodies.ts'
import { apiKey, createKey } from '../support/factories.ts'

const MAX_PRICE_AGE_S = 3600
const START = 7000
// Every protocol active: FxDAO vaults, Blend pools, Soroswap pairs and DeFindex vaults.
const DEVNET = {
  seed: 'answer-cache',
  ledgers: 700,
  accounts: 40,
  activity: 0.03,
  ammActivity: 0.05,
  yieldActivity: 0.05,
  startLedger: START,
}
const MID = START + 400

describe('the answer cache: bodies byte for byte as the uncached path writes them', () => {
  let devnet: Devnet
  let indexer: Indexer
  /** Cache on (the default budget). */
  let t: TestApp
  /** The same store with the cache off (budget 0): the path that renders and serializes every time. */
  let offCtx: AppContext
  let off: App
  /** The same store with a budget a few answers large. */
  let smallCtx: AppContext
  let small: App
  let key: string

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    t = await createTestApp({ MAX_PRICE_AGE_S: String(MAX_PRICE_AGE_S), RATE_LIMIT_PER_MINUTE: '1000000' })
    offCtx = await createContext({ ...t.ctx.config, answerCacheBytes: 0 }, createLogger('silent'), {
      clock: t.clock,
      database: t.database,
    })
    off = await buildApp(offCtx)
    smallCtx = await createContext({ ...t.ctx.config, answerCacheBytes: 40_000 }, createLogger('silent'), {
      clock: t.clock,
      database: t.database,
    })
    small = await buildApp(smallCtx)
    indexer = createIndexer({
      database: t.database,
      logger: createLogger('silent'),
      rpcUrl: devnet.url,
      network: devnet.network,
      batchSize: 50,
    })
    await indexer.syncTo(MID)
    key = (await createKey(t.app)).key
  }, 240_000)

  afterAll(async () => {
    await small?.close()
    await smallCtx?.close()
    await off?.close()
    await offCtx?.close()
    await t?.close()
    await devnet?.close()
  })

  const get = async (app: App, url: string) => {
    const response = await app.inject({ method: 'GET', url, headers: apiKey(key) })
    return { status: response.statusCode, type: response.headers['content-type'], body: response.body }
  }

  /** Every account the store holds a snapshot of, in any protocol. */
  const accounts = async (): Promise<string[]> => {
    const rows = await t.database.db.selectFrom('snapshots').select('address').distinct().execute()
    return rows.map((r) => r.address).sort()
  }

  const urlsFor = (address: string, pins: Array<number | null>) =>
    pins.flatMap((pin) => {
      const query = pin === null ? '' : `?as_of_ledger=${pin}`
      return [
        ...PROTOCOLS.map((m) => `/v1/users/${address}/positions/${m.name}${query}`),
        `/v1/users/${address}/positions${query}`,
      ]
    })

  /** Each URL on the cached app twice (a miss, then a hit) and once uncached: the three bodies are one. */
  const expectSame = async (urls: string[], app: App = t.app) => {
    for (const url of urls) {
      const expected = await get(off, url)
      expect(expected.status, `${url}: ${expected.body}`).toBe(200)
      for (const round of ['first', 'repeated']) {
        const found = await get(app, url)
        expect(found.status, `${url} (${round})`).toBe(200)
        expect(found.type, `${url} (${round})`).toBe(expected.type)
        expect(sameTime(found.body), `${url} (${round})`).toBe(sameTime(expected.body))
      }
    }
  }

  it('answers every account at a spread of pins exactly as without the cache, first and repeated', async () => {
    const all = await accounts()
    expect(all.length).toBeGreaterThan(20)
    // Every protocol has accounts with positions, so no section is only ever empty.
    for (const module of PROTOCOLS) {
      const held = await t.database.db
        .selectFrom('snapshots')
        .select('address')
        .where('protocol', '=', module.name)
        .executeTakeFirst()
      expect(held, module.name).toBeDefined()
    }
    const stats = t.ctx.caches.answers
    const before = stats.stats()
    // Before the first snapshot, inside the history, at the head, above it (partial), and omitted.
    const pins = [START - 1, START + 120, START + 260, MID, MID + 40, null]
    await expectSame(all.flatMap((address) => urlsFor(address, pins)))
    const after = stats.stats()
    expect(after.misses).toBeGreaterThan(before.misses)
    expect(after.hits).toBeGreaterThan(before.hits)
    expect(after.resets).toBe(0)

    // Asked again, every answer is served from memory: not one more rendering, and one lookup per
    // request (a snapshot surface, or the whole all-protocols answer).
    const warm = stats.stats()
    const urls = all.flatMap((address) => urlsFor(address, pins))
    for (const url of urls) expect((await get(t.app, url)).status).toBe(200)
    expect(stats.stats().misses).toBe(warm.misses)
    expect(stats.stats().hits - warm.hits).toBe(urls.length)
  })

  it('stays exact while the indexer moves the checkpoint on, at every snapshot ledger of an account', async () => {
    await indexer.syncTo(devnet.latestLedger())
    const all = await accounts()
    // The pins where something changed for some account, and the ledger before each.
    const rows = await t.database.db
      .selectFrom('snapshots')
      .select(['address', 'ledger'])
      .orderBy('ledger')
      .execute()
    const sample = all.filter((_, i) => i % 3 === 0)
    const urls: string[] = []
    for (const address of sample) {
      const ledgers = [...new Set(rows.filter((r) => r.address === address).map((r) => Number(r.ledger)))]
      urls.push(...urlsFor(address, [...ledgers.slice(0, 6), ...ledgers.slice(0, 6).map((l) => l - 1)]))
    }
    await expectSame(urls)
    expect(t.ctx.caches.answers.stats().resets).toBe(0)
  })

  it('serves history pages from the same entries, byte for byte, page after page', async () => {
    const all = await accounts()
    const urls: string[] = []
    for (const address of all.filter((_, i) => i % 4 === 1)) {
      for (const module of PROTOCOLS) {
        const base = `/v1/users/${address}/positions/${module.name}/history`
        urls.push(
          base,
          `${base}?from_ledger=${START + 100}&to_ledger=${MID}`,
          `${base}?to_ledger=${MID + 9999}`,
        )
        // Every page of a short page size, following the cursors of the uncached answers.
        let cursor: string | null = null
        for (let pages = 0; pages < 4; pages++) {
          const url: string = `${base}?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`
          urls.push(url)
          cursor = JSON.parse((await get(off, url)).body).meta.next_cursor
          if (cursor === null) break
        }
      }
    }
    await expectSame(urls)
    // An item of a page is the snapshot surface at its ledger: asking for that surface is a hit.
    const rows = await t.database.db
      .selectFrom('snapshots')
      .select(['protocol', 'address', 'ledger'])
      .execute()
    const row = rows.find((r) => all.filter((_, i) => i % 4 === 1).includes(r.address))!
    const cache = t.ctx.caches.answers
    const before = cache.stats()
    const found = await get(
      t.app,
      `/v1/users/${row.address}/positions/${row.protocol}?as_of_ledger=${row.ledger}`,
    )
    expect(found.status).toBe(200)
    expect(cache.stats().hits).toBe(before.hits + 1)
    expect(cache.stats().misses).toBe(before.misses)
  })

  it('serves a kept rendering with the staleness of each request’s own ledger, never another’s', async () => {
    // A vault snapshot followed by a quiet stretch: every pin in it is served the same rendering.
    const rows = await t.database.db
      .selectFrom('snapshots')
      .select(['address', 'ledger', 'positions'])
      .where('protocol', '=', 'vaultprotocol')
      .orderBy('address')
      .orderBy('ledger')
      .execute()
    const head = indexer.lastIndexedLedger()!
    const quiet = rows.find(
      (r, i) =>
        r.positions !== '[]' &&
        Number(r.ledger) + 50 <= head &&
        (rows[i + 1]?.address !== r.address || Number(rows[i + 1]!.ledger) - Number(r.ledger) > 60),
    )!
    expect(quiet, 'a vault snapshot with a quiet stretch after it').toBeDefined()
    const snapshot = Number(quiet.ledger)
    const later = snapshot + 50
    const closeTime = async (ledger: number) =>
      Number(
        (
          await t.database.db
            .selectFrom('ledgers')
            .select('close_time')
            .where('sequence', '=', ledger)
            .executeTakeFirstOrThrow()
        ).close_time,
      )
    const cache = t.ctx.caches.answers
    const url = (pin: number) => `/v1/users/${quiet.address}/positions/vaultprotocol?as_of_ledger=${pin}`
    const first = JSON.parse((await get(t.app, url(snapshot))).body)
    const before = cache.stats()
    const kept = JSON.parse((await get(t.app, url(later))).body)
    expect(cache.stats().hits).toBe(before.hits + 1)
    expect(cache.stats().misses).toBe(before.misses)
    expect(kept.data).toEqual(first.data)
    expect(kept.meta.valuation_ledger).toBe(snapshot)
    expect(first.meta.valuation_ledger).toBe(snapshot)
    // The same prices, 50 ledgers later: older by exactly the time between the two ledgers.
    expect(first.meta.oracle_staleness_seconds).toBeGreaterThan(0)
    expect(kept.meta.oracle_staleness_seconds - first.meta.oracle_staleness_seconds).toBe(
      (await closeTime(later)) - (await closeTime(snapshot)),
    )
    // And the pin asked first, asked again after it, is served its own staleness again.
    const again = JSON.parse((await get(t.app, url(snapshot))).body)
    expect(again.meta.oracle_staleness_seconds).toBe(first.meta.oracle_staleness_seconds)
    // The all-protocols answer, kept whole, measures its sections the same way.
    const all = async (pin: number) =>
      JSON.parse((await get(t.app, `/v1/users/${quiet.address}/positions?as_of_ledger=${pin}`)).body)
    await all(later)
    const [atSnapshot, atLater] = [await all(snapshot), await all(later)]
    expect(atLater.data.protocols.vaultprotocol.oracle_staleness_seconds).toBe(
      kept.meta.oracle_staleness_seconds,
    )
    expect(atSnapshot.data.protocols.vaultprotocol.oracle_staleness_seconds).toBe(
      first.meta.oracle_staleness_seconds,
    )
  })

  it('leaves the /at surfaces (one protocol or all) and int64 pins beyond 2^53 to the uncached path', async () => {
    const [address] = await accounts()
    const urls = [
      ...PROTOCOLS.map((m) => `/v1/users/${address}/positions/${m.name}/at/${START + 300}`),
      ...PROTOCOLS.map((m) => `/v1/users/${address}/positions/${m.name}?as_of_ledger=9007199254740993`),
      ...PROTOCOLS.map((m) => `/v1/users/${address}/positions/${m.name}/history?to_ledger=9007199254740993`),
      `/v1/users/${address}/positions?as_of_ledger=9007199254740993`,
      `/v1/users/${address}/positions/at/${START + 300}`,
      `/v1/users/${address}/positions/at/latest`,
    ]
    const stats = t.ctx.caches.answers.stats()
    await expectSame(urls)
    expect(t.ctx.caches.answers.stats().hits).toBe(stats.hits)
    expect(t.ctx.caches.answers.stats().misses).toBe(stats.misses)
  })

  it('keeps an all-protocols answer apart per partiality the request brings: history before the store began', async () => {
    // A store that began after the contracts were deployed: a pin between their deployment and its
    // first ledger is partial, a pin before their deployment is not, and both find no snapshot,
    // so the two answers share their serving snapshots and differ only in partial_result.
    const late = await createTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' })
    const lateOffCtx = await createContext(
      { ...late.ctx.config, answerCacheBytes: 0 },
      createLogger('silent'),
      {
        clock: late.clock,
        database: late.database,
      },
    )
    const lateOff = await buildApp(lateOffCtx)
    try {
      const first = START + 200
      await createIndexer({
        database: late.database,
        logger: createLogger('silent'),
        rpcUrl: devnet.url,
        network: devnet.network,
        batchSize: 50,
        fromLedger: first,
      }).syncTo(MID)
      const lateKey = (await createKey(late.app)).key
      for (const module of PROTOCOLS) {
        for (const contract of module.coverage(devnet.network))
          expect(contract.start_ledger).toBeLessThan(first)
      }
      const [address] = await accounts()
      const bodies: string[] = []
      // Partial first: a key without the partiality would then answer the earlier pin as partial.
      for (const pin of [START + 100, START - 1, START + 100]) {
        const url = `/v1/users/${address}/positions?as_of_ledger=${pin}`
        const expected = await lateOff.inject({ method: 'GET', url, headers: apiKey(lateKey) })
        expect(expected.statusCode, expected.body).toBe(200)
        for (const round of ['first', 'repeated']) {
          const found = await late.app.inject({ method: 'GET', url, headers: apiKey(lateKey) })
          expect(sameTime(found.body), `${url} (${round})`).toBe(sameTime(expected.body))
        }
        bodies.push(expected.body)
      }
      const [partial, whole] = bodies.map((b) => JSON.parse(b))
      expect(partial.meta.partial_result).toBe(true)
      expect(whole.meta.partial_result).toBe(false)
      for (const module of PROTOCOLS) {
        expect(partial.data.protocols[module.name].partial_result).toBe(true)
        expect(whole.data.protocols[module.name].partial_result).toBe(false)
        expect(partial.data.protocols[module.name].as_of_ledger).toBeNull()
      }
      const stats = late.ctx.caches.answers.stats()
      expect(stats.hits).toBeGreaterThan(0)
      expect(stats.resets).toBe(0)
    } finally {
      await lateOff.close()
      await lateOffCtx.close()
      await late.close()
    }
  })

  it('keeps within its budget, evicting the least recently used, and still answers exactly', async () => {
    const all = await accounts()
    const cache = smallCtx.caches.answers
    const urls = all.slice(0, 12).flatMap((address) => urlsFor(address, [START + 200, null]))
    await expectSame(urls, small)
    const stats = cache.stats()
    expect(stats.budget).toBe(40_000)
    expect(stats.bytes).toBeLessThanOrEqual(40_000)
    expect(stats.bytes).toBeGreaterThan(0)
    // More distinct surfaces were rendered than the budget holds.
    expect(stats.misses).toBeGreaterThan(stats.entries)
    // The answer just served is still there: asked again, it is a hit.
    const last = urls.at(-2)!
    const hits = cache.stats().hits
    expect((await get(small, last)).status).toBe(200)
    expect(cache.stats().hits).toBe(hits + 1)
  })
})

describe('the answer cache: what it keeps and when it lets go', () => {
  const network = { name: 'test', passphrase: 'Test', contracts: {}, assets: {} } as unknown as NetworkConfig
  const head = (first: number | null, last: number | null): IndexerHead => ({
    firstIndexedLedger: first,
    lastIndexedLedger: last,
    lastCloseTime: null,
  })
  const surface = (ledger: number | null, data = '{}'): CachedSurface => ({
    ledger,
    data,
    enrichment: '{"assets":{},"contracts":{}}',
    assets: [],
    contracts: [],
    oracleStalenessS: 0,
    valuedAt: ledger,
    valuedCloseTime: null,
    valuationLedger: null,
    oldestPriceS: null,
    sources: [],
    partial: false,
    totals: NO_TOTALS,
    totalsJson: '{}',
  })

  it('is off with a budget of 0 and keeps nothing', () => {
    const cache = createAnswerCache(0)
    expect(cache.enabled).toBe(false)
    const epoch = cache.observe(head(1, 10), network, 3600)
    cache.set('vaultprotocol', 'GA', surface(5), epoch)
    expect(cache.get('vaultprotocol', 'GA', 5)).toBeUndefined()
    expect(cache.stats().entries).toBe(0)
  })

  it('counts bytes and evicts the least recently used beyond the budget', () => {
    const big = 'x'.repeat(1000)
    const cache = createAnswerCache(3000)
    const epoch = cache.observe(head(1, 100), network, 3600)
    cache.set('m', 'A', surface(1, big), epoch)
    cache.set('m', 'B', surface(2, big), epoch)
    expect(cache.stats().entries).toBe(2)
    expect(cache.get('m', 'A', 1)?.data).toBe(big) // A is now the most recent
    cache.set('m', 'C', surface(3, big), epoch)
    expect(cache.stats().bytes).toBeLessThanOrEqual(3000)
    expect(cache.get('m', 'B', 2)).toBeUndefined()
    expect(cache.get('m', 'A', 1)).toBeDefined()
    expect(cache.get('m', 'C', 3)).toBeDefined()
    // An entry larger than the whole budget is not kept.
    cache.set('m', 'D', surface(4, 'x'.repeat(5000)), epoch)
    expect(cache.get('m', 'D', 4)).toBeUndefined()
    // Keys are module + address + snapshot ledger: none of them alone.
    expect(cache.get('m', 'A', 2)).toBeUndefined()
    expect(cache.get('other', 'A', 1)).toBeUndefined()
    expect(cache.get('m', 'a', 1)).toBeUndefined()
  })

  it('empties when the checkpoint falls below a kept snapshot, the first ledger, the price age or the network change', () => {
    const cache = createAnswerCache(1_000_000)
    let epoch = 0
    const fill = () => {
      cache.set('m', 'A', surface(50), epoch)
      cache.set('m', 'B', surface(null), epoch)
      expect(cache.stats().entries).toBe(2)
    }
    epoch = cache.observe(head(1, 100), network, 3600)
    fill()
    // The head moving on, or a re-read network description of the same content, keeps everything.
    cache.observe(head(1, 180), structuredClone(network), 3600)
    cache.observe(head(1, 60), network, 3600)
    expect(cache.stats().entries).toBe(2)
    // A store wiped and re-indexing: its checkpoint is below a ledger rendered before.
    epoch = cache.observe(head(1, 49), network, 3600)
    expect(cache.stats().entries).toBe(0)
    fill()
    // No checkpoint at all (the same first ledger): nothing indexed is left to serve.
    cache.observe(head(1, null), network, 3600)
    expect(cache.stats().entries).toBe(0)
    epoch = cache.observe(head(1, 100), network, 3600)
    fill()
    // Re-indexed from another first ledger, or backfilled below the first one.
    epoch = cache.observe(head(0, 100), network, 3600)
    expect(cache.stats().entries).toBe(0)
    fill()
    epoch = cache.observe(head(0, 100), network, 60)
    expect(cache.stats().entries).toBe(0)
    fill()
    cache.observe(head(0, 100), { ...network, assets: { X: {} } } as unknown as NetworkConfig, 60)
    expect(cache.stats().entries).toBe(0)
    expect(cache.stats().resets).toBe(5)
  })

  it('does not keep a rendering made before the cache was emptied', () => {
    const cache = createAnswerCache(1_000_000)
    const before = cache.observe(head(1, 100), network, 3600)
    cache.set('m', 'A', surface(50), before)
    // Another request reads a changed network description while the first one still renders.
    const after = cache.observe(
      head(1, 100),
      { ...network, assets: { X: {} } } as unknown as NetworkConfig,
      3600,
    )
    expect(after).not.toBe(before)
    cache.set('m', 'B', surface(60), before)
    expect(cache.get('m', 'B', 60)).toBeUndefined()
    cache.set('m', 'B', surface(60), after)
    expect(cache.get('m', 'B', 60)).toBeDefined()
  })
})
