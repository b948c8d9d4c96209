import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeLedgerCloseMeta } from '../../src/chain/decode-ledger.ts'
import type { YieldContractInfo } from '../../src/chain/network.ts'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { buildNetworkWatchList } from '../../src/indexer/ledger-pipeline.ts'
import { createLogger } from '../../src/logger.ts'
import type { ContractStateChange } from '../../src/protocols/kit/protocol-module.ts'
import { lendingProtocol } from '../../src/protocols/lendingprotocol/index.ts'
import { pricePerShare, readVaultFunds, type StateReader } from '../../src/protocols/yieldprotocol/funds.ts'
import { yieldProtocol } from '../../src/protocols/yieldprotocol/index.ts'
import { createPositionsReader } from '../../src/store/positions-read.ts'
import { expectedAccrual, type ResData } from '../devnet/blend-reference.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'
import {
  buildYieldModel,
  expectYield,
  stateAt,
  vaultFundsAt,
  type YieldModel,
  yieldSnapshotAt,
} from './yield-reference-model.ts'

const MAX_PRICE_AGE_S = 3600
const START = 2000
/** DeFindex vaults lending through Blend strategies, with holders who sit still while the reserve accrues. */
const DEVNET = {
  seed: 'yield-positions',
  ledgers: 2500,
  accounts: 60,
  activity: 0.03,
  ammActivity: 0,
  startLedger: START,
}

describe('yield positions at a ledger (DeFindex vaults)', () => {
  let devnet: Devnet
  let model: YieldModel
  let t: TestApp
  let key: string

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    model = buildYieldModel(devnet.chain)
    t = await createTestApp({ MAX_PRICE_AGE_S: String(MAX_PRICE_AGE_S), RATE_LIMIT_PER_MINUTE: '1000000' })
    const indexer = createIndexer({
      database: t.database,
      logger: createLogger('silent'),
      rpcUrl: devnet.url,
      network: devnet.network,
    })
    await indexer.syncTo(devnet.latestLedger())
    key = (await createKey(t.app)).key
  }, 300_000)

  afterAll(async () => {
    await t?.close()
    await devnet?.close()
  })

  const head = () => model.base.last
  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: apiKey(key) })
    return { status: response.statusCode, body: response.json(), raw: response.body }
  }
  const holders = () => [...model.snapshots].filter(([address]) => address.startsWith('G'))

  /** A holder whose df-tokens sat still for `minGap` ledgers while the vault's price per share rose. */
  const findDormant = (minGap: number) => {
    for (const [address, list] of holders()) {
      for (let i = 0; i < list.length; i++) {
        const snap = list[i]!
        const next = list[i + 1]?.ledger ?? head() + 1
        const item = snap.items[0]
        if (!item || next - snap.ledger < minGap) continue
        const then = vaultFundsAt(model, item.vault, snap.ledger)
        const later = vaultFundsAt(model, item.vault, next - 1)
        if (later.total * then.supply > then.total * later.supply) return { address, snap, next, item }
      }
    }
    throw new Error('the devnet has no dormant holder')
  }

  it('agrees with the reference model at every change, the ledger before it and the head, on both surfaces', async () => {
    let compared = 0
    for (const [address, list] of holders()) {
      const pins = new Set<number>([head()])
      for (const snap of list)
        for (const pin of [snap.ledger - 1, snap.ledger]) if (pin >= START) pins.add(pin)
      for (const pin of pins) {
        const snap = yieldSnapshotAt(model, address, pin)
        for (const at of [false, true]) {
          const { status, body } = await get(
            at
              ? `/v1/users/${address}/positions/yieldprotocol/at/${pin}`
              : `/v1/users/${address}/positions/yieldprotocol?as_of_ledger=${pin}`,
          )
          const where = `${address}@${pin}${at ? '/at' : ''}`
          expect(status, where).toBe(200)
          expect(body.meta.as_of_ledger, where).toBe(snap?.ledger ?? null)
          expect(body.meta.partial_result, where).toBe(false)
          if (!snap) {
            expect(body.data, where).toEqual({ address, positions: [], groups: [] })
            continue
          }
          const want = expectYield(model, devnet.chain, address, snap, {
            at,
            ledger: at ? pin : snap.ledger,
            maxPriceAgeS: MAX_PRICE_AGE_S,
          })
          expect(body.data, where).toEqual(want)
          compared++
        }
      }
    }
    expect(compared).toBeGreaterThan(200)
  }, 300_000)

  it("the 1,000 shares each vault locks to itself are nobody's position", async () => {
    const vaults = devnet.network.contracts.yieldprotocol.filter((c) => c.kind === 'defindex-vault')
    const locked = vaults.filter((v) => model.snapshots.get(v.address)?.at(-1)?.items[0]?.shares === 1000n)
    // The model reads the vault's own Balance entry from the XDR: the lock is there on chain.
    expect(locked.length).toBeGreaterThan(0)
    for (const vault of locked) {
      const { status, body } = await get(`/v1/users/${vault.address}/positions/yieldprotocol`)
      expect(status).toBe(200)
      expect(body.data).toEqual({ address: vault.address, positions: [], groups: [] })
      expect(body.meta.as_of_ledger).toBeNull()
      const history = await get(`/v1/users/${vault.address}/positions/yieldprotocol/history`)
      expect(history.body.data.snapshots).toEqual([])
    }
  })

  it("a dormant holder: the snapshot surface is byte-identical across pins, /at grows with the reserve's stored b_rate", async () => {
    const { address, snap, next, item } = findDormant(300)
    const pins = [snap.ledger, snap.ledger + 1, Math.floor((snap.ledger + next) / 2), next - 1]
    const plain = await Promise.all(
      pins.map((pin) => get(`/v1/users/${address}/positions/yieldprotocol?as_of_ledger=${pin}`)),
    )
    expect(new Set(plain.map((b) => JSON.stringify(b.body.data))).size).toBe(1)
    expect(new Set(plain.map((b) => JSON.stringify(b.body.enrichment))).size).toBe(1)
    const at = await Promise.all(
      pins.map((pin) => get(`/v1/users/${address}/positions/yieldprotocol/at/${pin}`)),
    )
    const rowOf = (b: { body: { data: { positions: Array<Record<string, string | number>> } } }) =>
      b.body.data.positions.find((p) => p.contract_address === item.vault)!
    const first = rowOf(at[0]!)
    const last = rowOf(at.at(-1)!)
    expect(last.shares).toBe(first.shares)
    const units = (s: string | number) => BigInt(String(s).replace('.', ''))
    expect(units(last.price_per_share!)).toBeGreaterThan(units(first.price_per_share!))
    expect(units(last.amount!)).toBeGreaterThanOrEqual(units(first.amount!))
    expect(last.rate_ledger as number).toBeGreaterThan(snap.ledger)
    expect(last.rate_ledger as number).toBeLessThanOrEqual(next - 1)
    // The b_rate behind it was written after the holder's last change.
    const strategy = (
      stateAt(model, `${item.vault}|AssetStrategySet/0`, next - 1)!.value as {
        strategies: { address: string }[]
      }
    ).strategies[0]!.address
    expect(stateAt(model, `${strategy}|Reserves`, next - 1)).toBeDefined()
  })

  it('history lists every snapshot newest first, each as the snapshot surface answers it', async () => {
    const [address, list] = holders().find(([, l]) => l.length >= 3)!
    const { status, body } = await get(`/v1/users/${address}/positions/yieldprotocol/history?limit=100`)
    expect(status).toBe(200)
    const snapshots = body.data.snapshots as Array<{ ledger: number; data: unknown }>
    expect(snapshots.map((e) => e.ledger)).toEqual([...list].reverse().map((s) => s.ledger))
    for (const entry of snapshots) {
      const plain = await get(`/v1/users/${address}/positions/yieldprotocol?as_of_ledger=${entry.ledger}`)
      expect(entry.data).toEqual(plain.body.data)
    }
  })

  it("the vault endpoint answers each vault's funds at a pin as the model computes them", async () => {
    for (const vault of model.vaults) {
      for (const pin of [START + 600, START + 1500, head()]) {
        const { status, body } = await get(`/v1/protocols/yieldprotocol/pools/${vault}?as_of_ledger=${pin}`)
        expect(status).toBe(200)
        const f = vaultFundsAt(model, vault, pin)
        expect(body.data.assets[0].total_managed_funds).toBe(
          `${f.total / 10_000_000n}.${(f.total % 10_000_000n).toString().padStart(7, '0')}`,
        )
        expect(body.data.total_supply).toBe(
          `${f.supply / 10_000_000n}.${(f.supply % 10_000_000n).toString().padStart(7, '0')}`,
        )
        expect(body.data.rate_ledger).toBe(f.rateLedger)
        // The devnet's vaults are hours old: no price per share a week or a month before the pin.
        for (const window of ['apy_7d', 'apy_30d'])
          expect(body.data.assets[0][window]).toEqual({
            apy: null,
            from_ledger: null,
            to_ledger: pin,
            unavailable_reason: 'history_missing',
          })
        expect(body.data.name).toBe(body.enrichment.contracts[vault].name)
      }
    }
  })

  it("the price per share from state equals every deposit's and withdrawal's total_managed_funds_before / total_supply_before", async () => {
    const network = devnet.network
    const store = createPositionsReader(t.database)
    const watch = buildNetworkWatchList(network)
    const vaults = new Map(network.contracts.yieldprotocol.map((c) => [c.address, c as YieldContractInfo]))
    const big = (v: unknown) => BigInt(v as string | number)
    const checked = { deposit: 0, withdraw: 0, accrued: 0, projected: 0 }
    for (const event of model.events) {
      const L = event.ledger
      const decoded = decodeLedgerCloseMeta(devnet.chain.ledgerMetaXdr(L), watch)
      const index = decoded.transactions.findIndex((tx) => tx.hash === event.txHash)
      expect(index, event.txHash).toBeGreaterThanOrEqual(0)
      // The store as it stood before the event's transaction: the ledger before, and what the
      // indexer's own adapters make of the ledger's earlier transactions.
      const factsOf = (transactions: typeof decoded.transactions): ContractStateChange[] =>
        [yieldProtocol, lendingProtocol].flatMap(
          (m) => m.createAdapter(network).adaptLedger({ ...decoded, transactions }).states,
        )
      const overlay = new Map<string, string>()
      for (const st of factsOf(decoded.transactions.slice(0, index)))
        overlay.set(`${st.contract}|${st.key}`, JSON.stringify(st.value))
      const before: StateReader = {
        async stateAt(contract, key) {
          const over = overlay.get(`${contract}|${key}`)
          return over === undefined ? store.stateAt(contract, key, L - 1) : { ledger: L, value: over }
        },
      }
      // The b_rate the pool's get_reserve gave the vault: the ResData the transaction itself wrote
      // when it touched the reserve, else the one before accrued to the ledger's time.
      const vault = vaults.get(event.vault)!
      const strategy = vaults.get(vault.strategies![0]!)!
      const resKey = `ResData/${strategy.asset}`
      const own = factsOf(decoded.transactions.slice(index, index + 1)).find(
        (st) => st.contract === strategy.pool && st.key === resKey,
      )
      if (own) {
        overlay.set(`${strategy.pool}|${resKey}`, JSON.stringify(own.value))
        checked.accrued++
      } else {
        const prev = await before.stateAt(strategy.pool!, resKey, L)
        if (prev) {
          const d = JSON.parse(prev.value) as Record<string, string>
          const config = JSON.parse(
            (await before.stateAt(strategy.pool!, `ResConfig/${strategy.asset}`, L))!.value,
          )
          const pool = JSON.parse((await before.stateAt(strategy.pool!, 'Config', L))!.value)
          const data = Object.fromEntries(Object.entries(d).map(([k, v]) => [k, big(v)])) as ResData
          const accrued = expectedAccrual(data, config, big(pool.bstop_rate), BigInt(decoded.closeTime))
          overlay.set(
            `${strategy.pool}|${resKey}`,
            JSON.stringify({ ...d, b_rate: accrued.b_rate.toString() }),
          )
          checked.projected++
        }
      }
      // The devnet's store holds every vault's whole history: an entry it never saw is absent.
      const funds = await readVaultFunds(before, network, vault, L, true)
      const reported = (event.data.total_managed_funds_before as Array<Record<string, unknown>>)[0]!
      const supply = event.data.total_supply_before as bigint
      const where = `${event.name} ${event.txHash}`
      expect(funds.totalSupply, where).toBe(supply)
      expect(funds.assets[0]!.total, where).toBe(reported.total_amount)
      expect(funds.assets[0]!.idle, where).toBe(reported.idle_amount)
      expect(pricePerShare(funds.assets[0]!.total!, funds.totalSupply!, 7), where).toBe(
        pricePerShare(reported.total_amount as bigint, supply, 7),
      )
      checked[event.name]++
    }
    expect(checked.deposit).toBeGreaterThan(50)
    expect(checked.withdraw).toBeGreaterThan(20)
    expect(checked.accrued).toBeGreaterThan(20)
    expect(checked.projected).toBeGreaterThan(0)
  }, 300_000)
})
