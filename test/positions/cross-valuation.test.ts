import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import type { Indexer } from '../../src/indexer/index.ts'
import { type IndexedDevnet, startIndexedDevnet } from '../support/indexed-devnet.ts'
import { expectLending } from './lending-expect.ts'
import { buildLendingModel, type LendingModel, lendingSnapshotAt } from './lending-reference-model.ts'
import { decimal, expectVault, oldestVaultPriceS, snapshotAt } from './reference-model.ts'

const MAX_PRICE_AGE_S = 3600
const START = 4000
// The world of cross-protocol.test.ts: vault and lending traffic, checked against their reference
// models (the AMM and yield sections stay empty; cross-amm-yield.test.ts covers those).
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

/**
 * All positions on both surfaces: "what did it hold" (each protocol's snapshot, valued at its own
 * ledger, totals only across one valuation ledger) and "what is it worth" (every protocol valued
 * at one ledger, totals the sum of the sections), each checked against the reference models.
 */
describe('all positions: valuation ledgers, staleness and totals', () => {
  let world: IndexedDevnet
  let devnet: Devnet
  let model: LendingModel
  let indexer: Indexer

  beforeAll(async () => {
    world = await startIndexedDevnet(DEVNET, { maxPriceAgeS: MAX_PRICE_AGE_S })
    devnet = world.devnet
    model = buildLendingModel(devnet.chain)
    indexer = world.indexer
  }, 180_000)

  afterAll(async () => {
    await world?.close()
  })

  const get = (url: string) => world.get(url)

  it('all positions: each section is its protocol endpoint at the pin, totals agree with the reference model', async () => {
    await indexer.syncTo(devnet.latestLedger())
    const accounts = [...new Set([...model.base.snapshots.keys(), ...model.snapshots.keys()])]
    const both = accounts.filter((a) => model.base.snapshots.has(a) && model.snapshots.has(a))
    const sample = [...both.slice(0, 4), ...accounts.filter((a) => !both.includes(a)).slice(0, 3)]
    expect(both.length, 'accounts in both protocols').toBeGreaterThan(0)
    const last = devnet.latestLedger()
    let pricedTotals = 0
    let withDebt = 0
    let differing = 0
    for (const address of sample) {
      for (const pin of [START + 300, MID, last - 100, last]) {
        const { status, body } = await get(`/v1/users/${address}/positions?as_of_ledger=${pin}`)
        expect(status).toBe(200)
        let assets: bigint | null = 0n
        let debt: bigint | null = 0n
        let held = false
        // The vault protocol, from the vault reference model.
        const vaultSnap = snapshotAt(model.base, address, pin)
        const vaults = vaultSnap
          ? [...vaultSnap.vaults].map(([denomination, vault]) =>
              expectVault(model.base, devnet.chain, denomination, vault, {
                valuationLedger: vaultSnap.ledger,
                maxPriceAgeS: MAX_PRICE_AGE_S,
                at: false,
              }),
            )
          : []
        const vaultSection = body.data.protocols.vaultprotocol
        expect(vaultSection.as_of_ledger).toBe(vaultSnap?.ledger ?? null)
        expect(vaultSection.data.vaults).toEqual(
          vaults.map((v) => ({
            ...v,
            contract_address: devnet.chain.network.contracts.vaultprotocol.address,
          })),
        )
        for (const v of vaults) {
          held = true
          assets =
            v.collateral_usd === null || assets === null
              ? null
              : assets + BigInt(v.collateral_usd.replace('.', ''))
          debt = v.debt_usd === null || debt === null ? null : debt + BigInt(v.debt_usd.replace('.', ''))
        }
        // The lending protocol, from the lending reference model.
        const lendingSnap = lendingSnapshotAt(model, address, pin)
        const lendingSection = body.data.protocols.lendingprotocol
        expect(lendingSection.as_of_ledger).toBe(lendingSnap?.ledger ?? null)
        if (lendingSnap) {
          const exp = expectLending(model, devnet.chain, address, lendingSnap, {
            at: false,
            ledger: lendingSnap.ledger,
            maxPriceAgeS: MAX_PRICE_AGE_S,
          })
          expect(lendingSection.data).toEqual(exp.data)
          for (const row of exp.data.positions) {
            held = true
            const usd = row.amount_usd === null ? null : BigInt(row.amount_usd.replace('.', ''))
            if (row.position_type === 'borrow') debt = debt === null || usd === null ? null : debt + usd
            else assets = assets === null || usd === null ? null : assets + usd
          }
        }
        // Every section equals its own endpoint's data at the same pin.
        for (const protocol of ['vaultprotocol', 'lendingprotocol']) {
          const own = await get(`/v1/users/${address}/positions/${protocol}?as_of_ledger=${pin}`)
          expect(body.data.protocols[protocol].data).toEqual(own.body.data)
          expect(body.data.protocols[protocol].partial_result).toBe(own.body.meta.partial_result)
        }
        // Each section says the ledger whose prices valued it (its snapshot's), and its staleness
        // is measured from the pin.
        const vaultValued = vaults.length > 0 ? vaultSnap!.ledger : null
        const lendingValued = lendingSnap && lendingSnap.balances.length > 0 ? lendingSnap.ledger : null
        expect(vaultSection.valuation_ledger).toBe(vaultValued)
        expect(lendingSection.valuation_ledger).toBe(lendingValued)
        const vaultOldest = vaultSnap
          ? oldestVaultPriceS(model.base, devnet.chain, vaultSnap, vaultSnap.ledger)
          : null
        expect(vaultSection.oracle_staleness_seconds).toBe(
          vaultOldest === null ? 0 : Math.max(0, model.base.closeTimes.get(pin)! - vaultOldest),
        )
        const lendingStaleness = lendingSnap
          ? expectLending(model, devnet.chain, address, lendingSnap, {
              at: false,
              ledger: lendingSnap.ledger,
              maxPriceAgeS: MAX_PRICE_AGE_S,
              askedAt: pin,
            }).oracleStalenessS
          : 0
        expect(lendingSection.oracle_staleness_seconds).toBe(lendingStaleness)
        expect(body.meta.oracle_staleness_seconds).toBe(
          Math.max(vaultSection.oracle_staleness_seconds, lendingStaleness),
        )
        const f = (v: bigint | null) => (held && v !== null ? decimal(v, 7) : null)
        if (vaultValued !== null && lendingValued !== null && vaultValued !== lendingValued) {
          // Values at different ledgers are never added: null, with the reason and the /at path.
          expect(body.data.totals, `${address} at ${pin}`).toEqual({
            assets_usd: null,
            debt_usd: null,
            net_usd: null,
            usd_unavailable_reason: 'valuation_ledgers_differ',
            usd_unavailable_hint: expect.stringContaining(`/v1/users/${address}/positions/at/{ledger}`),
          })
          expect(body.meta.valuation_ledger).toBeNull()
          differing++
        } else {
          expect(body.data.totals.assets_usd, `${address} at ${pin}`).toBe(f(assets))
          expect(body.data.totals.debt_usd).toBe(f(debt))
          expect(body.data.totals.net_usd).toBe(
            held && assets !== null && debt !== null ? decimal(assets - debt, 7) : null,
          )
          if (held && (assets === null || debt === null))
            expect(body.data.totals.usd_unavailable_reason).not.toBeNull()
          else expect(body.data.totals.usd_unavailable_reason).toBeNull()
          expect(body.data.totals.usd_unavailable_hint).toBeNull()
          expect(body.meta.valuation_ledger).toBe(vaultValued ?? lendingValued)
          if (body.data.totals.net_usd !== null) pricedTotals++
          if (debt !== null && debt > 0n) withDebt++
        }
        expect(body.meta.requested_ledger).toBe(pin)
      }
    }
    expect(pricedTotals, 'answers with priced totals').toBeGreaterThan(5)
    expect(withDebt, 'answers with debt').toBeGreaterThan(0)
    expect(differing, 'answers whose sections were valued at different ledgers').toBeGreaterThan(0)
  }, 120_000)

  it('all positions at a ledger: every protocol valued at the pin, totals the sum of the sections', async () => {
    await indexer.syncTo(devnet.latestLedger())
    const last = devnet.latestLedger()
    const both = [...model.base.snapshots.keys()].filter((a) => model.snapshots.has(a))
    expect(both.length, 'accounts in both protocols').toBeGreaterThan(0)
    let summed = 0
    for (const address of both.slice(0, 6)) {
      for (const pin of [START + 300, MID, last - 100, last]) {
        const { status, body } = await get(`/v1/users/${address}/positions/at/${pin}`)
        expect(status, JSON.stringify(body)).toBe(200)
        // Each section as the reference models value it at the pin, with the rates at the pin.
        const vaultSnap = snapshotAt(model.base, address, pin)
        const vaults = vaultSnap
          ? [...vaultSnap.vaults]
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([denomination, vault]) =>
                expectVault(model.base, devnet.chain, denomination, vault, {
                  valuationLedger: pin,
                  maxPriceAgeS: MAX_PRICE_AGE_S,
                  at: true,
                }),
              )
          : []
        const vaultAddress = devnet.chain.network.contracts.vaultprotocol.address
        expect(body.data.protocols.vaultprotocol.data.vaults).toEqual(
          vaults.map((v) => ({ ...v, contract_address: vaultAddress })),
        )
        const lendingSnap = lendingSnapshotAt(model, address, pin)
        const lending = lendingSnap
          ? expectLending(model, devnet.chain, address, lendingSnap, {
              at: true,
              ledger: pin,
              maxPriceAgeS: MAX_PRICE_AGE_S,
            })
          : null
        expect(body.data.protocols.lendingprotocol.data).toEqual(
          lending?.data ?? { address, positions: [], groups: [] },
        )
        // One valuation ledger for every section that values something: the pin.
        for (const protocol of ['vaultprotocol', 'lendingprotocol', 'ammprotocol', 'yieldprotocol']) {
          const section = body.data.protocols[protocol]
          expect([null, pin], protocol).toContain(section.valuation_ledger)
          const own = await get(`/v1/users/${address}/positions/${protocol}/at/${pin}`)
          expect(section.data).toEqual(own.body.data)
          expect(section.as_of_ledger).toBe(own.body.meta.as_of_ledger)
          expect(section.valuation_ledger).toBe(own.body.meta.valuation_ledger)
          expect(section.oracle_staleness_seconds).toBe(own.body.meta.oracle_staleness_seconds)
        }
        // The totals, added up here from the sections' rows as the reference models give them.
        let assets: bigint | null = 0n
        let debt: bigint | null = 0n
        const add = (side: 'asset' | 'debt', usd: string | null) => {
          const value = usd === null ? null : BigInt(usd.replace('.', ''))
          if (side === 'asset') assets = assets === null || value === null ? null : assets + value
          else debt = debt === null || value === null ? null : debt + value
        }
        for (const v of vaults) {
          add('asset', v.collateral_usd)
          add('debt', v.debt_usd)
        }
        for (const row of lending?.data.positions ?? [])
          add(row.position_type === 'borrow' ? 'debt' : 'asset', row.amount_usd)
        const held = vaults.length > 0 || (lending?.data.positions.length ?? 0) > 0
        const f = (v: bigint | null) => (held && v !== null ? decimal(v, 7) : null)
        expect(body.data.totals.assets_usd, `${address} at ${pin}`).toBe(f(assets))
        expect(body.data.totals.debt_usd).toBe(f(debt))
        const a = assets as bigint | null
        const d = debt as bigint | null
        expect(body.data.totals.net_usd).toBe(held && a !== null && d !== null ? decimal(a - d, 7) : null)
        expect(body.data.totals.usd_unavailable_reason).not.toBe('valuation_ledgers_differ')
        expect(body.meta).toMatchObject({ requested_ledger: pin, valuation_ledger: held ? pin : null })
        if (held && body.data.totals.net_usd !== null) summed++
      }
    }
    expect(summed, 'answers with priced totals over several protocols').toBeGreaterThan(5)

    // `latest` is the checkpoint: the same answer as at the head, but for the echoed pin.
    const [address] = both
    const latest = await get(`/v1/users/${address}/positions/at/latest`)
    const atHead = await get(`/v1/users/${address}/positions/at/${last}`)
    expect(latest.status).toBe(200)
    expect(latest.body.data).toEqual(atHead.body.data)
    expect(latest.body.enrichment).toEqual(atHead.body.enrichment)
    const {
      response_time_ms: _a,
      requested_ledger: r1,
      data_staleness_seconds: _c,
      ...rest1
    } = latest.body.meta
    const {
      response_time_ms: _b,
      requested_ledger: r2,
      data_staleness_seconds: _d,
      ...rest2
    } = atHead.body.meta
    expect([r1, r2]).toEqual([null, last])
    expect(rest1).toEqual(rest2)
    // Above the head: answered at the head, partial.
    const above = await get(`/v1/users/${address}/positions/at/${last + 50}`)
    for (const [name, section] of Object.entries(atHead.body.data.protocols)) {
      const { partial_result: wasPartial, ...rest } = section as { partial_result: boolean }
      expect(wasPartial).toBe(false)
      expect(above.body.data.protocols[name]).toEqual({ ...rest, partial_result: true })
    }
    expect(above.body.data.totals).toEqual(atHead.body.data.totals)
    expect(above.body.meta).toMatchObject({
      partial_result: true,
      valuation_ledger: atHead.body.meta.valuation_ledger,
    })
    // Anything but a ledger number or `latest` is a 400 naming the ledger.
    for (const bad of ['abc', '-1', '1.5', 'LATEST', '9223372036854775808']) {
      const answer = await get(`/v1/users/${address}/positions/at/${bad}`)
      expect(answer.status, bad).toBe(400)
      expect(answer.body.error.code).toBe('invalid_request')
      expect(JSON.stringify(answer.body.error.details), bad).toContain('ledger')
    }
  }, 120_000)
})
