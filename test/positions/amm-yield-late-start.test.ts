import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { type DecodedLedger, decodeLedgers } from '../devnet/decode-ledgers.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'

const START = 3000
/** Where the second store starts: the vaults' and pairs' first entries were written long before. */
const LATE = START + 400
const DEVNET = {
  seed: 'amm-yield-late-start',
  ledgers: 900,
  accounts: 40,
  activity: 0.02,
  ammActivity: 0.03,
  yieldActivity: 0.03,
  startLedger: START,
}

/**
 * Known versus unknown, one rule for Soroswap and DeFindex: the same devnet indexed twice, by a
 * store holding its whole history and by one started at a later ledger. Which entries the late
 * store saw is read here from the devnet's XDR (every write of every entry, by ledger); where it
 * saw every entry a figure needs, it answers what the full store answers; where it never saw one,
 * the figure is null with its reason and the answer is partial, never a confident 0.
 */
describe('a store that starts after the contracts wrote their entries (Soroswap, DeFindex)', () => {
  let devnet: Devnet
  let full: TestApp
  let late: TestApp
  let fullKey: string
  let lateKey: string
  let ledgers: DecodedLedger[]
  /** `contract|entry` -> the ledgers it was written at (instance entries as `contract|instance`). */
  const writes = new Map<string, number[]>()

  const index = async (t: TestApp, fromLedger?: number) => {
    const indexer = createIndexer({
      database: t.database,
      logger: createLogger('silent'),
      rpcUrl: devnet.url,
      network: devnet.network,
      ...(fromLedger === undefined ? {} : { fromLedger }),
    })
    await indexer.syncTo(devnet.latestLedger())
    return (await createKey(t.app)).key
  }

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    ledgers = decodeLedgers(devnet.chain)
    for (const ledger of ledgers)
      for (const tx of ledger.txs) {
        if (!tx.successful) continue
        for (const c of tx.changes) {
          if (c.kind !== 'created' && c.kind !== 'updated' && c.kind !== 'removed') continue
          const name =
            c.key === 'instance'
              ? 'instance'
              : JSON.stringify(c.key, (_, v) => (typeof v === 'bigint' ? v.toString() : v))
          const list = writes.get(`${c.contract}|${name}`) ?? []
          if (list.at(-1) !== ledger.sequence) list.push(ledger.sequence)
          writes.set(`${c.contract}|${name}`, list)
        }
      }
    full = await createTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' })
    late = await createTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' })
    fullKey = await index(full)
    lateKey = await index(late, LATE)
  }, 300_000)

  afterAll(async () => {
    await full?.close()
    await late?.close()
    await devnet?.close()
  })

  const get = async (t: TestApp, key: string, url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: apiKey(key) })
    expect(response.statusCode, url).toBe(200)
    return response.json()
  }
  /** Whether the late store saw an entry written at or before `pin`. */
  const seen = (contract: string, entry: string, pin: number) =>
    (writes.get(`${contract}|${entry}`) ?? []).some((l) => l >= LATE && l <= pin)
  const everWritten = (contract: string, entry: string, pin: number) =>
    (writes.get(`${contract}|${entry}`) ?? []).some((l) => l <= pin)
  const head = () => devnet.latestLedger()
  const pins = () => [LATE, LATE + 1, LATE + 150, head()]

  it('DeFindex: a figure is the full store’s where the late store saw its entries, else null with rate_missing', async () => {
    const vaults = devnet.network.contracts.yieldprotocol.filter((c) => c.kind === 'defindex-vault')
    let unknown = 0
    let known = 0
    for (const vault of vaults)
      for (const pin of pins()) {
        const url = `/v1/protocols/yieldprotocol/pools/${vault.address}?as_of_ledger=${pin}`
        const [a, b] = [await get(full, fullKey, url), await get(late, lateKey, url)]
        const where = `${vault.address}@${pin}`
        // The full store holds the whole history: nothing in it is unknown.
        expect(a.data.unavailable_reason, where).toBeNull()
        expect(a.data.total_supply, where).not.toBeNull()
        expect(b.meta.partial_result, where).toBe(true)
        const instance = seen(vault.address, 'instance', pin)
        expect(b.data.total_supply, where).toBe(instance ? a.data.total_supply : null)
        const asset = vault.assets![0]!
        const strategy = vault.strategies![0]!
        const idleSeen = seen(asset, JSON.stringify(['Balance', vault.address]), pin)
        const posSeen = seen(strategy, JSON.stringify(['VaultPos', vault.address]), pin)
        const reportSeen = seen(vault.address, JSON.stringify(['Report', strategy]), pin)
        const [fa, fb] = [a.data.assets[0], b.data.assets[0]]
        expect(fb.idle, where).toBe(idleSeen ? fa.idle : null)
        expect(fb.strategies[0].shares, where).toBe(posSeen ? fa.strategies[0].shares : null)
        if (!idleSeen || !posSeen || !reportSeen || !instance) {
          // The managed funds need the idle balance, the strategy's shares and its report; the
          // price per share the supply too (the instance entry).
          if (!idleSeen || !posSeen || !reportSeen) expect(fb.total_managed_funds, where).toBeNull()
          expect(fb.price_per_share, where).toBeNull()
          expect(b.data.unavailable_reason, where).toBe('rate_missing')
          unknown++
        } else if (seen(strategy, 'instance', pin) && fa.strategies[0].b_rate_ledger >= LATE) {
          expect(fb.total_managed_funds, where).toBe(fa.total_managed_funds)
          expect(fb.price_per_share, where).toBe(fa.price_per_share)
          expect(b.data.unavailable_reason, where).toBeNull()
          known++
        }
      }
    // Both cases happen: right after the start nothing is known, later most vaults are rewritten.
    expect(unknown).toBeGreaterThan(0)
    expect(known).toBeGreaterThan(0)
  }, 120_000)

  it('DeFindex: the full store reads an entry it saw absent as the contract does (no VaultPos yet: 0 shares)', async () => {
    const vaults = devnet.network.contracts.yieldprotocol.filter((c) => c.kind === 'defindex-vault')
    let checked = 0
    for (const vault of vaults) {
      const strategy = vault.strategies![0]!
      const first = (writes.get(`${strategy}|${JSON.stringify(['VaultPos', vault.address])}`) ?? [])[0]
      for (const pin of [START, START + 1, START + 10, first === undefined ? head() : first - 1]) {
        if (pin < START || (first !== undefined && pin >= first)) continue
        const a = await get(
          full,
          fullKey,
          `/v1/protocols/yieldprotocol/pools/${vault.address}?as_of_ledger=${pin}`,
        )
        expect(a.data.assets[0].strategies[0].shares, `${vault.address}@${pin}`).toBe('0.0000000')
        expect(a.data.unavailable_reason).toBeNull()
        expect(a.meta.partial_result).toBe(false)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(0)
  })

  it('DeFindex: a holder’s rows follow their vault’s funds; unknown funds are rate_missing, never 0', async () => {
    const vaults = new Set(
      devnet.network.contracts.yieldprotocol.filter((c) => c.kind === 'defindex-vault').map((c) => c.address),
    )
    const holders = new Set<string>()
    for (const ledger of ledgers)
      for (const tx of ledger.txs)
        for (const c of tx.changes) {
          const key = c.key as unknown[]
          if (vaults.has(c.contract) && Array.isArray(key) && key[0] === 'Balance' && key[1] !== c.contract)
            holders.add(String(key[1]))
        }
    let rows = 0
    for (const holder of holders) {
      const body = await get(late, lateKey, `/v1/users/${holder}/positions/yieldprotocol/at/${head()}`)
      expect(body.meta.partial_result).toBe(true)
      for (const row of body.data.positions) {
        const pool = await get(
          late,
          lateKey,
          `/v1/protocols/yieldprotocol/pools/${row.contract_address}?as_of_ledger=${head()}`,
        )
        expect(row.total_managed_funds).toBe(pool.data.assets[0].total_managed_funds)
        expect(row.total_supply).toBe(pool.data.total_supply)
        if (row.total_managed_funds === null) {
          expect(row.amount).toBeNull()
          expect(row.usd_unavailable_reason).toBe('rate_missing')
        } else expect(row.amount).not.toBeNull()
        rows++
      }
      expect(body.data.groups.map((g: { contract_address: string }) => g.contract_address)).toEqual([
        ...new Set(body.data.positions.map((r: { contract_address: string }) => r.contract_address)),
      ])
    }
    expect(rows).toBeGreaterThan(0)
  }, 120_000)

  it('Soroswap: a pair the late store never saw is unknown; once seen it answers as the full store', async () => {
    const pairs = devnet.network.contracts.ammprotocol.filter((c) => c.kind === 'soroswap-pair')
    let unknown = 0
    let known = 0
    for (const pair of pairs)
      for (const pin of pins()) {
        const url = `/v1/protocols/ammprotocol/pools/${pair.address}?as_of_ledger=${pin}`
        const [a, b] = [await get(full, fullKey, url), await get(late, lateKey, url)]
        const where = `${pair.address}@${pin}`
        // The late store's ledgers start inside every 24-hour window of this short devnet, after
        // the pair's deployment: it cannot tell the day's swaps.
        expect(b.data.volume_24h, where).toMatchObject({
          from_ledger: null,
          unavailable_reason: 'history_missing',
        })
        expect(a.data.volume_24h.from_ledger, where).toBe(START)
        if (seen(pair.address, 'instance', pin)) {
          expect({ ...b.data, volume_24h: null }, where).toEqual({ ...a.data, volume_24h: null })
          known++
        } else if (everWritten(pair.address, 'instance', pin)) {
          expect(a.data.total_supply, where).not.toBeNull()
          expect(b.data, where).toMatchObject({
            reserve_0: null,
            reserve_1: null,
            total_supply: null,
            tvl_usd: null,
            usd_unavailable_reason: 'reserves_missing',
          })
          expect(b.meta.partial_result, where).toBe(true)
          unknown++
        }
      }
    expect(unknown).toBeGreaterThan(0)
    expect(known).toBeGreaterThan(0)
  }, 120_000)

  it('Soroswap: an instance entry seen without TotalSupply (before the first mint) reads a supply of 0', async () => {
    let checked = 0
    for (const ledger of ledgers)
      for (const tx of ledger.txs) {
        if (!tx.successful) continue
        for (const c of tx.changes) {
          if (c.key !== 'instance' || !devnet.network.ammprotocol.pairs[c.contract]) continue
          const keys = (c.val as [unknown, unknown][]).map(([k]) => JSON.stringify(k))
          // The ledger's last write of the pair's instance must lack the key for the store to show it.
          const last = (writes.get(`${c.contract}|instance`) ?? []).includes(ledger.sequence)
          if (keys.includes('["TotalSupply"]') || !last) continue
          const later = ledger.txs
            .slice(ledger.txs.indexOf(tx) + 1)
            .some(
              (t) => t.successful && t.changes.some((x) => x.contract === c.contract && x.key === 'instance'),
            )
          if (later) continue
          const body = await get(
            full,
            fullKey,
            `/v1/protocols/ammprotocol/pools/${c.contract}?as_of_ledger=${ledger.sequence}`,
          )
          expect(body.data.total_supply).toBe('0.0000000')
          expect(body.data.state_ledger).toBe(ledger.sequence)
          checked++
        }
      }
    expect(checked).toBeGreaterThan(0)
  })
})
