import { describe, expect, it } from 'vitest'
import { createVaultBook } from '../../src/indexer/vault-book.ts'
import type { VaultStateChange } from '../../src/protocols/vaultprotocol/adapt-ledger.ts'

const upsert = (account: string, denomination: string, c: bigint, d: bigint): VaultStateChange => ({
  kind: 'vault-upsert',
  account,
  denomination,
  totalCollateral: c,
  totalDebt: d,
  index: (1_000_000_000n * c) / d,
})

describe('createVaultBook', () => {
  it('writes a snapshot of the whole account, sorted by denomination, when a vault opens', () => {
    const book = createVaultBook()
    book.applyLedger(10, [upsert('GA', 'USD', 300n, 100n)])
    const snapshots = book.applyLedger(11, [upsert('GA', 'EUR', 50n, 10n)])
    expect(snapshots).toHaveLength(1)
    expect(JSON.parse(snapshots[0]!.positions)).toEqual([
      { denomination: 'EUR', total_collateral: '50', total_debt: '10', index: '5000000000', ledger: 11 },
      { denomination: 'USD', total_collateral: '300', total_debt: '100', index: '3000000000', ledger: 10 },
    ])
    expect(snapshots[0]).toMatchObject({ protocol: 'vaultprotocol', address: 'GA', ledger: 11 })
  })

  it('writes nothing for a rewrite with identical values (a neighbour whose next_key moved)', () => {
    const book = createVaultBook()
    book.applyLedger(10, [upsert('GA', 'USD', 300n, 100n)])
    expect(book.applyLedger(11, [upsert('GA', 'USD', 300n, 100n)])).toEqual([])
    expect(book.state().accounts.get('GA')!.get('USD')!.ledger).toBe(10)
  })

  it('writes nothing when a change is undone within the same ledger, and keeps the original ledger', () => {
    const book = createVaultBook()
    book.applyLedger(10, [upsert('GA', 'USD', 300n, 100n)])
    expect(book.applyLedger(11, [upsert('GA', 'USD', 400n, 100n), upsert('GA', 'USD', 300n, 100n)])).toEqual(
      [],
    )
    const snapshots = book.applyLedger(12, [upsert('GB', 'USD', 1n, 1n)])
    expect(snapshots.map((s) => s.address)).toEqual(['GB'])
    expect(book.state().accounts.get('GA')!.get('USD')!.ledger).toBe(10)
  })

  it('keeps an untouched position at its own ledger when a sibling changes', () => {
    const book = createVaultBook()
    book.applyLedger(10, [upsert('GA', 'USD', 300n, 100n), upsert('GA', 'GBP', 30n, 10n)])
    const snapshots = book.applyLedger(20, [upsert('GA', 'GBP', 31n, 10n)])
    expect(JSON.parse(snapshots[0]!.positions)).toEqual([
      { denomination: 'GBP', total_collateral: '31', total_debt: '10', index: '3100000000', ledger: 20 },
      { denomination: 'USD', total_collateral: '300', total_debt: '100', index: '3000000000', ledger: 10 },
    ])
  })

  it('moves a vault on transfer_debt: one account ends it, the other starts it, in one ledger', () => {
    const book = createVaultBook()
    book.applyLedger(10, [upsert('GA', 'USD', 300n, 100n)])
    const snapshots = book.applyLedger(11, [
      { kind: 'vault-removed', account: 'GA', denomination: 'USD' },
      upsert('GB', 'USD', 300n, 100n),
    ])
    expect(snapshots.map((s) => [s.address, JSON.parse(s.positions)])).toEqual([
      ['GA', []],
      [
        'GB',
        [
          {
            denomination: 'USD',
            total_collateral: '300',
            total_debt: '100',
            index: '3000000000',
            ledger: 11,
          },
        ],
      ],
    ])
  })

  it('writes [] when the last vault closes, and remembers the account as empty', () => {
    const book = createVaultBook()
    book.applyLedger(10, [upsert('GA', 'USD', 300n, 100n)])
    const snapshots = book.applyLedger(11, [{ kind: 'vault-removed', account: 'GA', denomination: 'USD' }])
    expect(snapshots).toEqual([{ protocol: 'vaultprotocol', address: 'GA', ledger: 11, positions: '[]' }])
    expect(book.state().accounts.get('GA')?.size).toBe(0)
  })

  it('trims the least recently touched accounts beyond its bound, and starts from a loaded state', () => {
    const book = createVaultBook()
    book.applyLedger(10, [upsert('GA', 'USD', 1n, 1n), upsert('GB', 'USD', 1n, 1n)])
    book.applyLedger(11, [upsert('GC', 'USD', 1n, 1n), upsert('GA', 'USD', 2n, 1n)])
    book.trim(2)
    expect([...book.state().accounts.keys()]).toEqual(['GC', 'GA'])
    expect(book.has('GB')).toBe(false)
    book.load('GB', [
      { denomination: 'USD', totalCollateral: 1n, totalDebt: 1n, index: 1_000_000_000n, ledger: 10 },
    ])
    expect(book.applyLedger(12, [upsert('GB', 'USD', 1n, 1n)])).toEqual([])
  })

  it('ignores the removal of a vault it never saw opened and a vault opened and closed in one ledger', () => {
    const book = createVaultBook()
    const made = book.applyLedger(10, [
      { kind: 'vault-removed', account: 'GA', denomination: 'USD' },
      upsert('GB', 'EUR', 1n, 1n),
      { kind: 'vault-removed', account: 'GB', denomination: 'EUR' },
    ])
    expect(made).toEqual([])
    expect([...book.state().accounts.values()].every((vaults) => vaults.size === 0)).toBe(true)
  })
})
