import { StrKey } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { createDevnetChain, type DevnetChain } from '../../src/chain/devnet/index.ts'
import { type DecodedChange, type DecodedLedger, decodeLedgers } from './decode-ledgers.ts'

// Layouts of DESIGN 7.1, checked on the decoded XDR rather than on the generator's own values.
const VAULT_FIELDS = ['account', 'denomination', 'index', 'next_key', 'total_collateral', 'total_debt']
const INFO_FIELDS = [
  'debt_rate',
  'denomination',
  'lowest_key',
  'min_col_rate',
  'min_debt_creation',
  'opening_col_rate',
  'total_col',
  'total_debt',
  'total_vaults',
]
const U128 = 9
const I128 = 10
const U64 = 5

let chain: DevnetChain
let ledgers: DecodedLedger[]
let vaultChanges: DecodedChange[]

function fieldTypes(wire: unknown): Record<string, number> {
  const map = (wire as { map: { key: { sym: unknown }; val: { type: number } }[] }).map
  return Object.fromEntries(map.map((e) => [String(e.key.sym), e.val.type]))
}

beforeAll(() => {
  chain = createDevnetChain({
    seed: 'layout',
    ledgers: 1_500,
    accounts: 150,
    activity: 0.05,
    protocolSwitchLedger: 1_700,
  })
  ledgers = decodeLedgers(chain)
  vaultChanges = ledgers.flatMap((l) => l.txs.flatMap((t) => t.changes))
})

describe('devnet contract layouts', () => {
  it('writes Vault entries as Vec[Vault, Vec[account, denomination]] -> the 7.1 map', () => {
    const vaults = vaultChanges.filter((c) => (c.key as unknown[])[0] === 'Vault' && c.kind !== 'removed')
    expect(vaults.length).toBeGreaterThan(200)
    for (const c of vaults) {
      expect(c.contract).toBe(chain.network.contracts.vaultprotocol.address)
      const [, [account, denomination]] = c.key as [string, [string, string]]
      expect(StrKey.isValidEd25519PublicKey(account)).toBe(true)
      expect(['USD', 'EUR', 'GBP']).toContain(denomination)
      const v = c.val as Record<string, unknown>
      expect(Object.keys(v)).toEqual(VAULT_FIELDS)
      expect(v.account).toBe(account)
      expect(v.denomination).toBe(denomination)
      expect(v.next_key).toEqual(['None'])
      const types = fieldTypes(c.valWire)
      expect([types.index, types.total_collateral, types.total_debt]).toEqual([U128, U128, U128])
      const collateral = v.total_collateral as bigint
      const debt = v.total_debt as bigint
      expect(debt).toBeGreaterThan(0n)
      expect(v.index).toBe((1_000_000_000n * collateral) / debt)
    }
  })

  it('writes VaultsInfo with a debt_rate that starts at 10^12 and grows', () => {
    const infos = vaultChanges.filter((c) => (c.key as unknown[])[0] === 'VaultsInfo' && c.kind !== 'state')
    const rates = new Map<string, bigint[]>()
    for (const c of infos) {
      const v = c.val as Record<string, unknown>
      expect(Object.keys(v)).toEqual(INFO_FIELDS)
      const types = fieldTypes(c.valWire)
      expect(types.debt_rate).toBe(I128)
      expect(types.total_vaults).toBe(U64)
      expect(types.total_col).toBe(U128)
      expect((c.key as unknown[])[1]).toBe(v.denomination)
      rates.set(v.denomination as string, [
        ...(rates.get(v.denomination as string) ?? []),
        v.debt_rate as bigint,
      ])
    }
    expect([...rates.keys()].sort()).toEqual(['EUR', 'GBP', 'USD'])
    for (const series of rates.values()) {
      expect(series[0]).toBe(10n ** 12n)
      for (let i = 1; i < series.length; i++) expect(series[i]!).toBeGreaterThanOrEqual(series[i - 1]!)
      expect(series.at(-1)!).toBeGreaterThan(10n ** 12n)
    }
  })

  it('keeps VaultsInfo totals equal to the sum of the open vaults, and records pre-images', () => {
    const open = new Map<string, { denomination: string; col: bigint; debt: bigint }>()
    for (const ledger of ledgers) {
      for (const tx of ledger.txs) {
        for (const [i, c] of tx.changes.entries()) {
          if (c.kind === 'updated' || c.kind === 'removed') {
            // Every update and removal is preceded by the entry's previous state.
            expect(tx.changes[i - 1]?.kind).toBe('state')
            expect(tx.changes[i - 1]?.keyXdr).toBe(c.keyXdr)
          }
          const key = c.key as [string, unknown]
          if (key[0] === 'Vault') {
            if (c.kind === 'removed') open.delete(c.keyXdr)
            else if (c.kind !== 'state') {
              const v = c.val as Record<string, bigint | string>
              open.set(c.keyXdr, {
                denomination: v.denomination as string,
                col: v.total_collateral as bigint,
                debt: v.total_debt as bigint,
              })
            }
          } else if (key[0] === 'VaultsInfo' && c.kind !== 'state') {
            const v = c.val as Record<string, bigint | string>
            const mine = [...open.values()].filter((o) => o.denomination === v.denomination)
            expect(v.total_vaults).toBe(BigInt(mine.length))
            expect(v.total_col).toBe(mine.reduce((s, o) => s + o.col, 0n))
            expect(v.total_debt).toBe(mine.reduce((s, o) => s + o.debt, 0n))
          }
        }
      }
    }
    expect(open.size).toBeGreaterThan(10)
  })

  it('removes closed and liquidated vaults with a REMOVED change', () => {
    const removed = vaultChanges.filter((c) => c.kind === 'removed')
    expect(removed.length).toBeGreaterThan(10)
    for (const c of removed) expect((c.key as unknown[])[0]).toBe('Vault')
  })

  it('includes failed transactions that change nothing and emit nothing', () => {
    const txs = ledgers.flatMap((l) => l.txs)
    const failed = txs.filter((t) => !t.successful)
    expect(failed.length).toBeGreaterThan(5)
    expect(failed.length).toBeLessThan(txs.length / 2)
    for (const t of failed) {
      expect(t.changes).toEqual([])
      expect(t.events).toEqual([])
    }
  })

  it('emits one Reflector-style oracle update every 60 ledgers', () => {
    const start = chain.oldestLedger()
    const updates = ledgers.flatMap((l) => l.txs.flatMap((t) => t.events.map((e) => ({ e, l }))))
    expect(updates).toHaveLength(Math.ceil(1_500 / 60))
    for (const { e, l } of updates) {
      expect((l.sequence - start) % 60).toBe(0)
      expect(e.contractId).toBe(chain.network.contracts.oracle.address)
      expect(e.topicsWire.map((t) => t.type)).toEqual([15, 15, U64])
      const [name, op, timestamp] = e.topicsWire as unknown as [
        { sym: unknown },
        { sym: unknown },
        { u64: bigint },
      ]
      expect([String(name.sym), String(op.sym)]).toEqual(['REFLECTOR', 'update'])
      expect(timestamp.u64).toBe(BigInt(l.closeTime) * 1000n)
      const data = e.valueWire as { type: number; vec: { type: number; vec: { type: number }[] }[] }
      expect(data.type).toBe(16)
      expect(data.vec.map((pair) => pair.vec.map((x) => x.type))).toEqual([
        [18, I128],
        [15, I128],
        [15, I128],
      ])
    }
  })

  it('advances close times 5 s per ledger and switches from LedgerCloseMeta v1 to v2', () => {
    for (let i = 1; i < ledgers.length; i++) {
      expect(ledgers[i]!.closeTime - ledgers[i - 1]!.closeTime).toBe(5)
    }
    expect(ledgers.find((l) => l.sequence === 1_699)?.version).toBe('v1')
    expect(ledgers.find((l) => l.sequence === 1_700)?.version).toBe('v2')
  })

  it('announces every contract and asset in its NetworkConfig', () => {
    const n = chain.network
    expect(StrKey.isValidContract(n.contracts.vaultprotocol.address)).toBe(true)
    expect(n.contracts.oracle.status).toBe('active')
    expect(n.vaultprotocol.denominations.USD?.price_asset).toBeNull()
    expect(n.vaultprotocol.denominations.EUR?.price_asset).toBe('EUR')
    expect(n.vaultprotocol.denominations.GBP?.price_asset).toBe('GBP')
    for (const d of Object.values(n.vaultprotocol.denominations)) {
      expect(StrKey.isValidContract(d.debt_asset)).toBe(true)
      expect(n.assets[d.debt_asset]?.decimals).toBe(7)
    }
    expect(n.assets[n.vaultprotocol.collateral_asset]?.symbol).toBe('XLM')
    expect(n.assets.EUR?.decimals).toBe(7)
  })
})
