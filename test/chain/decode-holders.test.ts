import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { buildWatchedContracts, decodeLedgerCloseMeta } from '../../src/chain/decode-ledger.ts'

/**
 * A contract read only for a few holders' entries (a DeFindex vault's balance in its asset's
 * contract): genuine pubnet ledgers, where USDC's contract is touched by everyone.
 */
const USDC = 'CCW67TSZV3SSS2HXMBQ5JFGCKJNXKZM7UQUWUZPUTHXSTZLEO7SJMI75'
const VAULT = 'CCA2ZJP5BVRXYTQH4FAGHCAUMRYCXVC4CRYC2NXHWMR7TIVX36U7F5HR'
const STRATEGY = 'CDB2WMKQQNVZMEBY7Q7GZ5C7E7IAFSNMZ7GGVD6WKTCEWK7XOIAVZSAP'
const POOL = 'CAJJZSGMMM3PD7N33TAPHGBUGTB43OC73HVIK2L2G6BNGGGYOSSYBXBD'
const read = (ledger: number) =>
  gunzipSync(
    readFileSync(new URL(`../fixtures/pubnet/wallet-backend__ledger-${ledger}.xdr.gz`, import.meta.url)),
  )

describe('holder-filtered contracts', () => {
  it("decode only the holders' entries, and none of the contract's events", () => {
    const bytes = read(63092996)
    const all = decodeLedgerCloseMeta(bytes, buildWatchedContracts([USDC]))
    const held = decodeLedgerCloseMeta(bytes, buildWatchedContracts([USDC], [], { [USDC]: [VAULT] }))
    const keys = (l: typeof all) =>
      l.transactions.flatMap((t) => t.contractDataChanges.map((c) => (c.key as string[])[1]))
    // Unfiltered, the deposit's transaction writes the balances of the vault, the strategy and the pool.
    expect(keys(all)).toEqual(expect.arrayContaining([VAULT, STRATEGY, POOL]))
    expect(all.transactions.some((t) => t.events.length > 0)).toBe(true)
    expect(keys(held)).toEqual([VAULT])
    expect(held.transactions.flatMap((t) => t.events)).toEqual([])
    const vault = held.transactions[0]!.contractDataChanges[0]!
    expect(vault).toMatchObject({ kind: 'updated', contract: USDC, key: ['Balance', VAULT] })
  })

  it('a ledger naming the contract but none of its holders is read from its header alone', () => {
    for (const ledger of [63092988, 63092990]) {
      const bytes = read(ledger)
      const watched = buildWatchedContracts([USDC], [], { [USDC]: [VAULT] })
      expect(Buffer.from(bytes).indexOf(Buffer.from(watched.ids[0]!))).toBeGreaterThanOrEqual(0)
      expect(Buffer.from(bytes).indexOf(Buffer.from(watched.holderIds[0]![0]!))).toBe(-1)
      const decoded = decodeLedgerCloseMeta(bytes, watched)
      expect(decoded.sequence).toBe(ledger)
      expect(decoded.transactions).toEqual([])
      expect(decodeLedgerCloseMeta(bytes, buildWatchedContracts([USDC])).transactions.length).toBeGreaterThan(
        0,
      )
    }
  })
})
