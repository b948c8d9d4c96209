import { StrKey } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { createDevnetChain, type DevnetChain } from '../../src/devnet/devnet.ts'
import { type DecodedChange, type DecodedLedger, type DecodedTx, decodeLedgers } from './decode-ledgers.ts'

// FxDAO vaults 0.6.0 and Reflector, checked on the decoded XDR rather than on the generator's values.
const VAULT_FIELDS = ['account', 'denomination', 'index', 'next_key', 'total_collateral', 'total_debt']
const INFO_FIELDS = [
  'denomination',
  'lowest_key',
  'min_col_rate',
  'min_debt_creation',
  'opening_col_rate',
  'total_col',
  'total_debt',
  'total_vaults',
]
const SWITCH = 1_700
const V3 = 1_600
const START = 1_000

type Vault = {
  account: string
  denomination: string
  index: bigint
  next_key: ['None'] | ['Some', { account: string; denomination: string; index: bigint }]
  total_collateral: bigint
  total_debt: bigint
}
type Info = { lowest_key: Vault['next_key']; total_col: bigint; total_debt: bigint; total_vaults: bigint }

let chain: DevnetChain
let ledgers: DecodedLedger[]
let txs: DecodedTx[]
let vault: string

const isVault = (c: DecodedChange) => c.contract === vault && Array.isArray(c.key) && c.key[0] === 'Vault'
/** The invoked function of each transaction, by hash. */
const functions = new Map<string, string>()

beforeAll(() => {
  chain = createDevnetChain({
    seed: 'layout',
    ledgers: 1_500,
    accounts: 150,
    activity: 0.05,
    startLedger: START,
    protocolSwitchLedger: SWITCH,
    reflectorV3Ledger: V3,
    vaultTtlLedgers: 300,
  })
  ledgers = decodeLedgers(chain)
  txs = ledgers.flatMap((l) => l.txs)
  vault = chain.network.contracts.vaultprotocol.address
  for (const l of ledgers) for (const tx of l.txs) functions.set(tx.hash, tx.fn)
})

/** The vault contract's state after each ledger, replayed from the meta: Vault entries and the instance. */
function replay(upTo: number): {
  vaults: Map<string, Vault>
  info: Map<string, Info>
  instanceKeys: unknown[]
} {
  const vaults = new Map<string, Vault>()
  let instance: [unknown, unknown][] = []
  for (const l of ledgers) {
    if (l.sequence > upTo) break
    for (const tx of l.txs) {
      for (const c of tx.changes) {
        if (c.contract !== vault) continue
        if (c.key === 'instance' && (c.kind === 'created' || c.kind === 'updated'))
          instance = c.val as [unknown, unknown][]
        if (!isVault(c)) continue
        const id = JSON.stringify(c.key)
        if (c.kind === 'removed') vaults.delete(id)
        else if (c.kind === 'created' || c.kind === 'updated') vaults.set(id, c.val as Vault)
      }
    }
  }
  const info = new Map<string, Info>()
  for (const [key, value] of instance) {
    if (Array.isArray(key) && key[0] === 'VaultsInfo') info.set(key[1] as string, value as Info)
  }
  return { vaults, info, instanceKeys: instance.map(([k]) => k) }
}

describe('the devnet writes FxDAO vaults 0.6.0 as mainnet does', () => {
  it('keys vaults Vault((account, denomination)) and VaultIndex({denomination, user}), persistent', () => {
    const vaultChanges = txs
      .flatMap((t) => t.changes)
      .filter((c) => c.contract === vault && c.key !== 'instance')
    expect(vaultChanges.length).toBeGreaterThan(100)
    for (const c of vaultChanges) {
      expect(c.durability).toBe('persistent')
      const [tag, inner] = c.key as [string, unknown]
      if (tag === 'Vault') {
        const [account, denomination] = inner as [string, string]
        expect(StrKey.isValidEd25519PublicKey(account)).toBe(true)
        expect(['USD', 'EUR', 'GBP']).toContain(denomination)
        if (c.val) {
          expect(Object.keys(c.val as object)).toEqual(VAULT_FIELDS)
          const v = c.val as Vault
          expect(v.account).toBe(account)
          expect(v.index).toBe((1_000_000_000n * v.total_collateral) / v.total_debt)
        }
      } else {
        expect(tag).toBe('VaultIndex')
        expect(Object.keys(inner as object)).toEqual(['denomination', 'user'])
        if (c.val !== null) expect(typeof c.val).toBe('bigint')
      }
    }
  })

  it('keeps VaultsInfo (eight fields, no rate), CoreState and Currency in the instance storage, sorted', () => {
    const { instanceKeys, info } = replay(START + 1_499)
    expect(instanceKeys).toEqual([
      ['CoreState'],
      ['Currency', 'EUR'],
      ['Currency', 'GBP'],
      ['Currency', 'USD'],
      ['VaultsInfo', 'EUR'],
      ['VaultsInfo', 'GBP'],
      ['VaultsInfo', 'USD'],
    ])
    for (const value of info.values()) expect(Object.keys(value)).toEqual(INFO_FIELDS)
  })

  it('links each denomination’s vaults from lowest_key through next_key, in ascending index, with matching totals', () => {
    for (const at of [START + 300, START + 800, START + 1_499]) {
      const { vaults, info } = replay(at)
      for (const [denomination, totals] of info) {
        const open = [...vaults.values()].filter((v) => v.denomination === denomination)
        const seen: Vault[] = []
        let key = totals.lowest_key
        while (key[0] === 'Some') {
          const next = vaults.get(JSON.stringify(['Vault', [key[1].account, key[1].denomination]]))!
          expect(next.index).toBe(key[1].index)
          seen.push(next)
          key = next.next_key
        }
        expect(seen).toHaveLength(open.length)
        for (let i = 1; i < seen.length; i++) expect(seen[i]!.index >= seen[i - 1]!.index).toBe(true)
        expect(totals.total_vaults).toBe(BigInt(open.length))
        expect(totals.total_debt).toBe(open.reduce((a, v) => a + v.total_debt, 0n))
        expect(totals.total_col).toBe(open.reduce((a, v) => a + v.total_collateral, 0n))
      }
    }
  })

  it('rewrites neighbours: a call updates other accounts’ vaults with only next_key changed', () => {
    let relinks = 0
    for (const tx of txs) {
      const states = new Map(
        tx.changes
          .filter((c) => c.kind === 'state' && isVault(c))
          .map((c) => [JSON.stringify(c.key), c.val as Vault]),
      )
      for (const c of tx.changes) {
        if (c.kind !== 'updated' || !isVault(c)) continue
        const before = states.get(JSON.stringify(c.key))!
        const after = c.val as Vault
        if (before.total_debt === after.total_debt && before.total_collateral === after.total_collateral) {
          expect(JSON.stringify(before.next_key, big)).not.toBe(JSON.stringify(after.next_key, big))
          relinks++
        }
      }
    }
    expect(relinks).toBeGreaterThan(20)
  })

  it('redeems against the lowest vault, liquidates whole vaults from the head, moves vaults on transfer_debt', () => {
    const byFn = (fn: string) => txs.filter((t) => t.successful && functions.get(t.hash) === fn)
    for (const fn of [
      'new_vault',
      'increase_collateral',
      'withdraw_collateral',
      'increase_debt',
      'pay_debt',
      'redeem',
      'liquidate',
      'transfer_debt',
    ]) {
      expect(byFn(fn).length, fn).toBeGreaterThan(0)
    }
    for (const tx of byFn('redeem')) {
      const l = ledgers.find((x) => x.txs.includes(tx))!
      const { vaults, info } = replay(l.sequence - 1)
      // The vault whose debt went down (or that went away) is the lowest of its denomination.
      const hit = tx.changes.find((c) => {
        if (!isVault(c) || (c.kind !== 'removed' && c.kind !== 'updated')) return false
        const before = vaults.get(JSON.stringify(c.key))!
        return c.kind === 'removed' || (c.val as Vault).total_debt < before.total_debt
      })!
      const [account, denomination] = (hit.key as [string, [string, string]])[1]
      const lowest = info.get(denomination)!.lowest_key as ['Some', { account: string }]
      expect(account).toBe(lowest[1].account)
    }
    for (const tx of byFn('liquidate')) {
      const removed = tx.changes.filter((c) => c.kind === 'removed' && isVault(c))
      expect(removed.length).toBeGreaterThan(0)
      expect(tx.changes.filter((c) => c.kind === 'updated' && isVault(c))).toEqual([])
    }
    for (const tx of byFn('transfer_debt')) {
      const removed = tx.changes.find((c) => c.kind === 'removed' && isVault(c))!
      const created = tx.changes.find((c) => c.kind === 'created' && isVault(c))!
      const before = tx.changes.find((c) => c.kind === 'state' && c.keyXdr === removed.keyXdr)!.val as Vault
      const after = created.val as Vault
      expect(after.account).not.toBe(before.account)
      expect([after.total_debt, after.total_collateral]).toEqual([before.total_debt, before.total_collateral])
    }
  })

  it('archives idle entries (evictedKeys) and restores them (LEDGER_ENTRY_RESTORED) on protocol 23 ledgers only', () => {
    const evictions = ledgers.filter((l) => l.evicted.length > 0)
    expect(evictions.length).toBeGreaterThan(0)
    expect(evictions.every((l) => l.sequence >= SWITCH && l.version === 'v2')).toBe(true)
    const restores = txs.flatMap((t) => t.changes).filter((c) => c.kind === 'restored')
    expect(restores.length).toBeGreaterThan(0)
    const evicted = new Set(evictions.flatMap((l) => l.evicted.map((e) => JSON.stringify(e.key, big))))
    for (const r of restores) expect(evicted.has(JSON.stringify(r.key, big))).toBe(true)
  })

  it('emits the SAC events each call causes, mint in its pre- and post-CAP-67 forms', () => {
    const debt = new Set(Object.values(chain.network.vaultprotocol.denominations).map((d) => d.debt_asset))
    const xlm = chain.network.vaultprotocol.collateral_asset
    const opens = txs.filter((t) => t.successful && functions.get(t.hash) === 'new_vault')
    for (const tx of opens) {
      const l = ledgers.find((x) => x.txs.includes(tx))!
      const names = tx.events.map((e) => e.topics.length)
      expect(tx.events.map((e) => e.contractId)).toEqual([xlm, expect.any(String), xlm])
      expect(debt.has(tx.events[1]!.contractId)).toBe(true)
      // mint: [mint, admin, to, asset] before protocol 23, [mint, to, asset] from it.
      expect(names[1]).toBe(l.sequence >= SWITCH ? 3 : 4)
      expect(names[0]).toBe(4)
    }
  })

  it('prices through Reflector v2 storage records below its switch ledger and v3 events from it', () => {
    const oracle = chain.network.contracts.oracles[0]!.address
    const updates = txs.filter((t) =>
      t.changes.some((c) => c.contract === oracle && c.key === 'instance' && c.kind === 'updated'),
    )
    expect(updates).toHaveLength(Math.ceil(1_500 / 60))
    for (const tx of updates) {
      const l = ledgers.find((x) => x.txs.includes(tx))!
      const records = tx.changes.filter((c) => c.contract === oracle && c.durability === 'temporary')
      if (l.sequence < V3) {
        expect(tx.events).toEqual([])
        // XLM, EUR, GBP, and the lending reserves USDC and EURC.
        expect(records).toHaveLength(5)
        for (const r of records)
          expect((r.key as bigint) >> 64n).toBe(((BigInt(l.closeTime) * 1000n) / 300_000n) * 300_000n)
      } else {
        expect(tx.events).toHaveLength(1)
        expect(tx.events[0]!.topicsWire.map((t) => t.type)).toEqual([15, 15, 5])
        expect(tx.events[0]!.valueWire.type).toBe(17)
      }
    }
  })

  it('includes failed transactions that change nothing and emit nothing', () => {
    const failed = txs.filter((t) => !t.successful)
    expect(failed.length).toBeGreaterThan(5)
    expect(failed.length).toBeLessThan(txs.length / 2)
    for (const t of failed) {
      expect(t.changes).toEqual([])
      expect(t.events).toEqual([])
    }
  })

  it('advances close times 5 s per ledger and switches from LedgerCloseMeta v1 to v2', () => {
    for (let i = 1; i < ledgers.length; i++) expect(ledgers[i]!.closeTime - ledgers[i - 1]!.closeTime).toBe(5)
    expect(ledgers.find((l) => l.sequence === SWITCH - 1)?.version).toBe('v1')
    expect(ledgers.find((l) => l.sequence === SWITCH)?.version).toBe('v2')
  })

  it('announces every contract and asset in its NetworkConfig', () => {
    const n = chain.network
    expect(StrKey.isValidContract(n.contracts.vaultprotocol.address)).toBe(true)
    expect(n.contracts.vaultprotocol).toMatchObject({
      kind: 'fxdao-vaults',
      version: '0.6.0',
      start_ledger: START,
    })
    expect(n.contracts.oracles.map((o) => o.kind)).toEqual(['reflector'])
    // Stablecoins are priced as their currency: USDx by its declared peg, EURx through the EUR quote.
    const oracle = n.contracts.oracles[0]!.address
    expect(n.assets[n.vaultprotocol.denominations.USD!.debt_asset]).toMatchObject({ price_peg: 'USD' })
    expect(n.assets[n.vaultprotocol.denominations.EUR!.debt_asset]?.price_feed).toEqual({
      oracle,
      asset: 'EUR',
    })
    for (const d of Object.values(n.vaultprotocol.denominations)) {
      expect(StrKey.isValidContract(d.debt_asset)).toBe(true)
      expect(n.assets[d.debt_asset]?.decimals).toBe(7)
    }
    expect(n.assets[n.vaultprotocol.collateral_asset]?.price_feed?.oracle).toBe(
      n.contracts.oracles[0]!.address,
    )
  })
})

const big = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)
