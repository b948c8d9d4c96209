import { Keypair } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer, type Indexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'
import { buildLendingModel, type LendingModel } from './lending-reference-model.ts'
import { expectVault } from './reference-model.ts'

const MAX_PRICE_AGE_S = 3600
const START = 3000
const DEVNET = { seed: 'history', ledgers: 1500, accounts: 60, activity: 0.03, startLedger: START }
const MID = START + 700

interface HistoryBody {
  data: {
    address: string
    snapshots: Array<{ ledger: number; data: unknown; enrichment: unknown; oracle_staleness_seconds: number }>
  }
  meta: { next_cursor: string | null; last_indexed_ledger: number; partial_result: boolean }
}
type Page = { ledgers: number[]; cursor: string | null; body: HistoryBody }

describe('position history: every snapshot, newest first, for every protocol', () => {
  let devnet: Devnet
  let model: LendingModel
  let t: TestApp
  let key: string
  let indexer: Indexer

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    model = buildLendingModel(devnet.chain)
    t = await createTestApp({ MAX_PRICE_AGE_S: String(MAX_PRICE_AGE_S), RATE_LIMIT_PER_MINUTE: '1000000' })
    indexer = createIndexer({
      database: t.database,
      logger: createLogger('silent'),
      rpcUrl: devnet.url,
      network: devnet.network,
      batchSize: 50,
    })
    await indexer.syncTo(MID)
    key = (await createKey(t.app)).key
  }, 180_000)

  afterAll(async () => {
    await t?.close()
    await devnet?.close()
  })

  const page = async (protocol: string, address: string, query: string): Promise<Page> => {
    const response = await t.app.inject({
      url: `/v1/users/${address}/positions/${protocol}/history${query}`,
      headers: apiKey(key),
    })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    return {
      ledgers: body.data.snapshots.map((s: { ledger: number }) => s.ledger),
      cursor: body.meta.next_cursor,
      body,
    }
  }

  /** The account of a protocol with the most snapshots on both sides of MID. */
  const busiest = (snapshots: Map<string, { ledger: number }[]>) =>
    [...snapshots].sort(
      ([, a], [, b]) =>
        Math.min(b.filter((s) => s.ledger <= MID).length, b.filter((s) => s.ledger > MID).length) -
        Math.min(a.filter((s) => s.ledger <= MID).length, a.filter((s) => s.ledger > MID).length),
    )[0]!

  it('pages stay consistent while the indexer keeps ingesting: no duplicate, no gap, newest first', async () => {
    const accounts = [
      ['vaultprotocol', busiest(model.base.snapshots)],
      ['lendingprotocol', busiest(model.snapshots)],
    ] as const
    const first = await Promise.all(
      accounts.map(([protocol, [address]]) => page(protocol, address, '?limit=2')),
    )
    // The indexer moves on to the end of the devnet while the next pages are asked for.
    const ingesting = indexer.syncTo(devnet.latestLedger())
    const heads = new Set<number>([MID])
    const seenBy: number[][] = []
    for (const [i, [protocol, [address]]] of accounts.entries()) {
      const seen = [...first[i]!.ledgers]
      let cursor = first[i]!.cursor
      expect(first[i]!.body.meta.last_indexed_ledger).toBe(MID)
      while (cursor !== null) {
        // The next page waits for the indexer to have committed more since the last one.
        const seenHead = Math.max(...heads)
        while (
          (indexer.lastIndexedLedger() ?? 0) <= seenHead &&
          indexer.lastIndexedLedger() !== devnet.latestLedger()
        )
          await new Promise((resolve) => setTimeout(resolve, 5))
        const next = await page(protocol, address, `?limit=1&cursor=${cursor}`)
        heads.add(next.body.meta.last_indexed_ledger)
        seen.push(...next.ledgers)
        cursor = next.cursor
      }
      seenBy.push(seen)
    }
    await ingesting
    expect(heads.size, 'pages were served while the head moved').toBeGreaterThan(2)
    for (const [i, [protocol, [address, list]]] of accounts.entries()) {
      const seen = seenBy[i]!
      const before = list.map((s) => s.ledger).filter((l) => l <= MID)
      expect(before.length, `${protocol} snapshots before the move`).toBeGreaterThan(3)
      expect(seen, protocol).toEqual([...before].reverse())
      // A fresh first page starts with what was ingested since.
      const fresh = await page(protocol, address, '?limit=500')
      expect(fresh.ledgers).toEqual(list.map((s) => s.ledger).reverse())
      expect(fresh.ledgers[0]).toBeGreaterThan(MID)
      expect(fresh.cursor).toBeNull()
    }
  })

  it("the vault protocol's history: each item is the snapshot surface at its ledger", async () => {
    await indexer.syncTo(devnet.latestLedger())
    let items = 0
    for (const [address, list] of model.base.snapshots) {
      const { body } = await page('vaultprotocol', address, '?limit=500')
      expect(body.data.snapshots.map((s: { ledger: number }) => s.ledger)).toEqual(
        list.map((s) => s.ledger).reverse(),
      )
      for (const item of body.data.snapshots) {
        const snap = list.find((s) => s.ledger === item.ledger)!
        const vaults = [...snap.vaults.entries()]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([denomination, vault]) => ({
            ...expectVault(model.base, devnet.chain, denomination, vault, {
              valuationLedger: snap.ledger,
              maxPriceAgeS: MAX_PRICE_AGE_S,
              at: false,
            }),
            contract_address: devnet.network.contracts.vaultprotocol.address,
          }))
        expect(item.data, `${address}@${item.ledger}`).toEqual({ address, vaults })
        items++
      }
      const surface = await t.app.inject({
        url: `/v1/users/${address}/positions/vaultprotocol?as_of_ledger=${list[0]!.ledger}`,
        headers: apiKey(key),
      })
      const oldest = body.data.snapshots.at(-1)!
      expect(JSON.stringify(oldest.data)).toBe(JSON.stringify(surface.json().data))
      expect(JSON.stringify(oldest.enrichment)).toBe(JSON.stringify(surface.json().enrichment))
      expect(oldest.oracle_staleness_seconds).toBe(surface.json().meta.oracle_staleness_seconds)
    }
    expect(items).toBeGreaterThan(100)
  })

  it('an address with no history answers an empty page; a range above the head is partial', async () => {
    const nobody = Keypair.random().publicKey()
    const empty = await page('lendingprotocol', nobody, '')
    expect(empty.body.data).toEqual({ address: nobody, snapshots: [] })
    expect(empty.body.meta).toMatchObject({
      as_of_ledger: null,
      next_cursor: null,
      limit: 100,
      partial_result: false,
      from_ledger: null,
      to_ledger: null,
    })
    const above = await page('vaultprotocol', nobody, `?to_ledger=${devnet.latestLedger() + 10}`)
    expect(above.body.meta.partial_result).toBe(true)
    const huge = await t.app.inject({
      url: `/v1/users/${nobody}/positions/vaultprotocol/history?to_ledger=9223372036854775807`,
      headers: apiKey(key),
    })
    expect(huge.statusCode).toBe(200)
    expect(huge.body).toContain('"to_ledger":9223372036854775807')
  })
})
