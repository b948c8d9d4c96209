import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import type { TestApp } from '../support/app.ts'
import { apiKey } from '../support/factories.ts'
import { type IndexedDevnet, startIndexedDevnet } from '../support/indexed-devnet.ts'
import { decimal } from './reference-model.ts'

const START = 5000
// The world of cross-amm-yield.test.ts: every protocol active.
const DEVNET = {
  seed: 'cross-amm-yield',
  ledgers: 1200,
  accounts: 50,
  activity: 0.03,
  ammActivity: 0.05,
  yieldActivity: 0.05,
  startLedger: START,
}
const PROTOCOLS = ['vaultprotocol', 'lendingprotocol', 'ammprotocol', 'yieldprotocol']

type Row = { position_type?: string; amount_usd?: string | null }
type Vault = { collateral_usd: string | null; debt_usd: string | null }

/** The USD values of a section's rows, as [side, value] (null: unpriced), read from its `data`. */
function sectionParts(
  protocol: string,
  data: Record<string, unknown>,
): Array<['asset' | 'debt', string | null]> {
  if (protocol === 'vaultprotocol')
    return (data.vaults as Vault[]).flatMap(
      (v): Array<['asset' | 'debt', string | null]> => [
        ['asset', v.collateral_usd],
        ['debt', v.debt_usd],
      ],
    )
  return (data.positions as Row[]).map((r) => [
    r.position_type === 'borrow' ? 'debt' : 'asset',
    r.amount_usd ?? null,
  ])
}

/**
 * "What is it worth now" across all four protocols: for every account holding several of them,
 * `/positions/at/{head}` values each section at the head, as that protocol's own `/at` does, and
 * its totals are the sums of the sections' rows, added up here.
 */
describe('all positions at the head, every protocol: totals are the sum of the sections', () => {
  let world: IndexedDevnet
  let devnet: Devnet
  let t: TestApp
  let key: string

  beforeAll(async () => {
    world = await startIndexedDevnet(DEVNET, { maxPriceAgeS: 3600 })
    devnet = world.devnet
    t = world.t
    key = world.key
  }, 240_000)

  afterAll(async () => {
    await world?.close()
  })

  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: apiKey(key) })
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200)
    return response.json()
  }

  it('adds up every section of every account holding several protocols, at the head and at latest', async () => {
    const head = devnet.latestLedger()
    const rows = await t.database.db
      .selectFrom('snapshots')
      .select(['address', 'protocol'])
      .where('positions', '!=', '[]')
      .distinct()
      .execute()
    const held = new Map<string, Set<string>>()
    for (const r of rows) held.set(r.address, (held.get(r.address) ?? new Set()).add(r.protocol))
    const several = [...held].filter(([, p]) => p.size > 1).map(([a]) => a)
    expect(several.length, 'accounts in several protocols').toBeGreaterThan(3)
    let summed = 0
    const protocolsSeen = new Set<string>()
    for (const address of several) {
      const body = await get(`/v1/users/${address}/positions/at/${head}`)
      let assets: bigint | null = 0n
      let debt: bigint | null = 0n
      let any = false
      for (const protocol of PROTOCOLS) {
        const section = body.data.protocols[protocol]
        const own = await get(`/v1/users/${address}/positions/${protocol}/at/${head}`)
        expect(section.data).toEqual(own.data)
        expect(section.valuation_ledger).toBe(own.meta.valuation_ledger)
        const parts = sectionParts(protocol, section.data)
        if (parts.length > 0) {
          protocolsSeen.add(protocol)
          expect(section.valuation_ledger).toBe(head)
        }
        for (const [side, usd] of parts) {
          any = true
          const value = usd === null ? null : BigInt(usd.replace('.', ''))
          if (side === 'asset') assets = assets === null || value === null ? null : assets + value
          else debt = debt === null || value === null ? null : debt + value
        }
      }
      const a = assets as bigint | null
      const d = debt as bigint | null
      expect(body.data.totals.assets_usd, address).toBe(any && a !== null ? decimal(a, 7) : null)
      expect(body.data.totals.debt_usd, address).toBe(any && d !== null ? decimal(d, 7) : null)
      expect(body.data.totals.net_usd, address).toBe(
        any && a !== null && d !== null ? decimal(a - d, 7) : null,
      )
      expect(body.meta.valuation_ledger).toBe(any ? head : null)
      if (any && a !== null && d !== null) summed++
      // `latest` is the head.
      const latest = await get(`/v1/users/${address}/positions/at/latest`)
      expect(latest.data).toEqual(body.data)
    }
    expect(summed, 'priced totals').toBeGreaterThan(3)
    expect([...protocolsSeen].sort()).toEqual([...PROTOCOLS].sort())
  }, 240_000)
})
