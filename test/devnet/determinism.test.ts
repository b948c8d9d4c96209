import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createDevnetChain, type DevnetChain } from '../../src/devnet/devnet.ts'
import { decodeLedger } from './decode-ledgers.ts'
import { buildAmmContext, touchesAmm } from './soroswap-replay.ts'

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

  it('writes the other protocols’ transactions byte for byte the same with Soroswap on or off', async () => {
    const { xdr } = await import('@stellar/stellar-sdk')
    const off = createDevnetChain({ seed: 'amm-apart', ...options, ledgers: 150, ammActivity: 0 })
    const on = createDevnetChain({ seed: 'amm-apart', ...options, ledgers: 150 })
    const { ammprotocol: a, ...offContracts } = off.network.contracts
    const { ammprotocol: b, ...onContracts } = on.network.contracts
    expect([a.length, b.length]).toEqual([0, 8])
    expect(offContracts).toEqual(onContracts)
    const txsOf = (chain: DevnetChain, seq: number) => {
      const lcm = xdr.LedgerCloseMeta.fromXdr(chain.ledgerMetaXdr(seq))
      if (lcm.type !== 'v2') throw new Error('protocol 23 ledgers expected')
      return lcm.v2.txProcessing.map((tp) => Buffer.from(tp.toXDR()).toString('base64'))
    }
    const onLedgers = []
    let extra = 0
    for (let seq = on.oldestLedger(); seq <= on.latestLedger(); seq++) {
      const without = txsOf(off, seq)
      const withAmm = txsOf(on, seq)
      // Soroswap's transactions come after the others in each ledger; those are unchanged.
      expect(withAmm.slice(0, without.length)).toEqual(without)
      extra += withAmm.length - without.length
      onLedgers.push({ decoded: decodeLedger(on.ledgerMetaXdr(seq), on.passphrase), from: without.length })
    }
    expect(extra).toBeGreaterThan(30)
    const ctx = buildAmmContext(
      on.network,
      onLedgers.flatMap((l) => l.decoded.txs),
    )
    for (const { decoded, from } of onLedgers)
      for (const tx of decoded.txs.slice(from))
        expect(touchesAmm(ctx, tx) || (tx.fn === 'transfer' && ctx.tokens.has(tx.contract)), tx.hash).toBe(
          true,
        )
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
