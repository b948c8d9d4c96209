import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createDevnetChain, type DevnetChain } from '../../src/chain/devnet/index.ts'

function hashLedgers(chain: DevnetChain): string {
  const hash = createHash('sha256')
  for (let seq = chain.oldestLedger(); seq <= chain.latestLedger(); seq++)
    hash.update(chain.ledgerMetaXdr(seq))
  return hash.digest('hex')
}

describe('devnet determinism', () => {
  const options = { ledgers: 400, accounts: 80, activity: 0.05, startLedger: 5_000 }

  it('gives byte-identical ledgers for the same seed and options', () => {
    const a = createDevnetChain({ seed: 'same', ...options })
    const b = createDevnetChain({ seed: 'same', ...options })
    expect(a.latestLedger()).toBe(5_399)
    expect(hashLedgers(a)).toBe(hashLedgers(b))
    expect(a.network).toEqual(b.network)
    expect(a.sampleVaultHolder()).toBe(b.sampleVaultHolder())
  })

  it('gives different ledgers and contracts for a different seed', () => {
    const a = createDevnetChain({ seed: 'same', ...options })
    const b = createDevnetChain({ seed: 'other', ...options })
    expect(hashLedgers(a)).not.toBe(hashLedgers(b))
    expect(a.network.contracts.vaultprotocol.address).not.toBe(b.network.contracts.vaultprotocol.address)
  })

  it('closes later ledgers identically whether generated up front or one by one', () => {
    const upFront = createDevnetChain({ seed: 'grow', ...options, ledgers: 300 })
    const grown = createDevnetChain({ seed: 'grow', ...options, ledgers: 100 })
    for (let i = 0; i < 200; i++) grown.closeNextLedger()
    expect(grown.latestLedger()).toBe(upFront.latestLedger())
    expect(hashLedgers(grown)).toBe(hashLedgers(upFront))
  })

  it('chains ledger hashes: each header names its predecessor', async () => {
    const { xdr } = await import('@stellar/stellar-sdk')
    const chain = createDevnetChain({ seed: 'links', ...options, ledgers: 20 })
    for (let seq = chain.oldestLedger() + 1; seq <= chain.latestLedger(); seq++) {
      const entry = xdr.LedgerHeaderHistoryEntry.fromXdr(chain.getLedger(seq)!.header)
      expect(
        Buffer.from(entry.header.previousLedgerHash.toXdr('raw')).equals(chain.getLedger(seq - 1)!.hash),
      ).toBe(true)
    }
  })
})
