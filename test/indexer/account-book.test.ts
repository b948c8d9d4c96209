import { describe, expect, it } from 'vitest'
import { createAccountBook } from '../../src/indexer/account-book.ts'
import type { AccountGroupChange } from '../../src/protocols/kit/protocol-module.ts'

/** A vault as the vault protocol's adapter reports it: one group per denomination. */
const vault = (account: string, denomination: string, c: bigint, d: bigint): AccountGroupChange => ({
  account,
  group: denomination,
  items: [
    {
      key: denomination,
      value: {
        denomination,
        total_collateral: String(c),
        total_debt: String(d),
        index: String((1_000_000_000n * c) / d),
      },
    },
  ],
})
const closed = (account: string, denomination: string): AccountGroupChange => ({
  account,
  group: denomination,
  items: [],
})
const stored = (denomination: string, c: number, d: number, ledger: number) => ({
  denomination,
  total_collateral: String(c),
  total_debt: String(d),
  index: String((1_000_000_000n * BigInt(c)) / BigInt(d)),
  ledger,
})

describe('createAccountBook', () => {
  it('writes a snapshot of the whole account, sorted by key, when a position opens', () => {
    const book = createAccountBook('vaultprotocol')
    book.applyLedger(10, [vault('GA', 'USD', 300n, 100n)])
    const snapshots = book.applyLedger(11, [vault('GA', 'EUR', 50n, 10n)])
    expect(snapshots).toHaveLength(1)
    expect(JSON.parse(snapshots[0]!.positions)).toEqual([
      stored('EUR', 50, 10, 11),
      stored('USD', 300, 100, 10),
    ])
    expect(snapshots[0]).toMatchObject({ protocol: 'vaultprotocol', address: 'GA', ledger: 11 })
  })

  it('writes nothing for a rewrite with identical values (a neighbour whose next_key moved)', () => {
    const book = createAccountBook('vaultprotocol')
    book.applyLedger(10, [vault('GA', 'USD', 300n, 100n)])
    expect(book.applyLedger(11, [vault('GA', 'USD', 300n, 100n)])).toEqual([])
    const next = book.applyLedger(12, [vault('GA', 'EUR', 1n, 1n)])
    expect(JSON.parse(next[0]!.positions)[1]).toEqual(stored('USD', 300, 100, 10))
  })

  it('writes nothing when a change is undone within the same ledger, and keeps the original ledger', () => {
    const book = createAccountBook('vaultprotocol')
    book.applyLedger(10, [vault('GA', 'USD', 300n, 100n)])
    expect(book.applyLedger(11, [vault('GA', 'USD', 400n, 100n), vault('GA', 'USD', 300n, 100n)])).toEqual([])
    const snapshots = book.applyLedger(12, [vault('GB', 'USD', 1n, 1n), vault('GA', 'EUR', 1n, 1n)])
    expect(snapshots.map((s) => s.address)).toEqual(['GA', 'GB'])
    expect(JSON.parse(snapshots[0]!.positions)[1]).toEqual(stored('USD', 300, 100, 10))
  })

  it('keeps an untouched position at its own ledger when a sibling changes', () => {
    const book = createAccountBook('vaultprotocol')
    book.applyLedger(10, [vault('GA', 'USD', 300n, 100n), vault('GA', 'GBP', 30n, 10n)])
    const snapshots = book.applyLedger(20, [vault('GA', 'GBP', 31n, 10n)])
    expect(JSON.parse(snapshots[0]!.positions)).toEqual([
      stored('GBP', 31, 10, 20),
      stored('USD', 300, 100, 10),
    ])
  })

  it('replaces a whole group: items of the group missing from the change are gone', () => {
    const book = createAccountBook('lendingprotocol')
    const item = (key: string, tokens: string) => ({ key, value: { key, tokens } })
    book.applyLedger(10, [
      { account: 'GA', group: 'CP', items: [item('CP/00/supply', '5'), item('CP/01/collateral', '7')] },
    ])
    book.applyLedger(10, [{ account: 'GA', group: 'CQ', items: [item('CQ/00/supply', '1')] }])
    const snapshots = book.applyLedger(11, [
      { account: 'GA', group: 'CP', items: [item('CP/01/collateral', '7')] },
    ])
    expect(JSON.parse(snapshots[0]!.positions)).toEqual([
      { key: 'CP/01/collateral', tokens: '7', ledger: 10 },
      { key: 'CQ/00/supply', tokens: '1', ledger: 10 },
    ])
  })

  it('moves a vault on transfer_debt: one account ends it, the other starts it, in one ledger', () => {
    const book = createAccountBook('vaultprotocol')
    book.applyLedger(10, [vault('GA', 'USD', 300n, 100n)])
    const snapshots = book.applyLedger(11, [closed('GA', 'USD'), vault('GB', 'USD', 300n, 100n)])
    expect(snapshots.map((s) => [s.address, JSON.parse(s.positions)])).toEqual([
      ['GA', []],
      ['GB', [stored('USD', 300, 100, 11)]],
    ])
  })

  it('writes [] when the last position closes', () => {
    const book = createAccountBook('vaultprotocol')
    book.applyLedger(10, [vault('GA', 'USD', 300n, 100n)])
    const snapshots = book.applyLedger(11, [closed('GA', 'USD')])
    expect(snapshots).toEqual([{ protocol: 'vaultprotocol', address: 'GA', ledger: 11, positions: '[]' }])
    expect(book.applyLedger(12, [closed('GA', 'USD')])).toEqual([])
  })

  it('trims the least recently touched accounts beyond its bound, and continues from a loaded state', () => {
    const book = createAccountBook('vaultprotocol')
    book.applyLedger(10, [vault('GA', 'USD', 1n, 1n), vault('GB', 'USD', 1n, 1n)])
    book.applyLedger(11, [vault('GC', 'USD', 1n, 1n), vault('GA', 'USD', 2n, 1n)])
    book.trim(2)
    expect(book.size()).toBe(2)
    expect(book.has('GB')).toBe(false)
    expect(book.has('GA') && book.has('GC')).toBe(true)
    const { ledger, ...value } = stored('USD', 1, 1, 10)
    book.load('GB', [{ key: 'USD', value, ledger }])
    expect(book.applyLedger(12, [vault('GB', 'USD', 1n, 1n)])).toEqual([])
  })

  it('ignores the removal of a position it never saw and one opened and closed in one ledger', () => {
    const book = createAccountBook('vaultprotocol')
    const made = book.applyLedger(10, [closed('GA', 'USD'), vault('GB', 'EUR', 1n, 1n), closed('GB', 'EUR')])
    expect(made).toEqual([])
  })
})
