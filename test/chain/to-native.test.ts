import { readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { gunzipSync, zstdDecompressSync } from 'node:zlib'
import { nativeToScVal, scValToNative, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { toNative } from '../../src/chain/decode-ledger.ts'
import { createDevnetChain } from '../../src/devnet/devnet.ts'

/** Genuine mainnet ledgers (provenance: test/fixtures/pubnet/README.md) and devnet ledgers. */
const dir = new URL('../fixtures/pubnet/', import.meta.url)
function ledgers(): { name: string; bytes: Uint8Array }[] {
  const lake = xdr.LedgerCloseMetaBatch.fromXDR(
    zstdDecompressSync(readFileSync(new URL('stellar-go__FCD285FF--53312000.xdr.zstd', dir))),
  )
  const chain = createDevnetChain({
    seed: 'to-native',
    ledgers: 60,
    accounts: 80,
    activity: 0.3,
    backgroundTxs: 3,
  })
  return [
    { name: 'pubnet 53312000', bytes: lake.ledgerCloseMetas[0]!.toXDR() },
    ...['51000294', '57500008', '63092988', '63092990', '63092996'].map((n) => ({
      name: `pubnet ${n}`,
      bytes: gunzipSync(readFileSync(new URL(`wallet-backend__ledger-${n}.xdr.gz`, dir))),
    })),
    ...Array.from({ length: 60 }, (_, i) => chain.oldestLedger() + i).map((s) => ({
      name: `devnet ${s}`,
      bytes: chain.getLedger(s)!.meta,
    })),
  ]
}

/** Every ScVal of a decoded (wire-form) value: found by walking it, told apart by their union tag. */
function scVals(root: unknown, schemaOf: (value: object) => boolean): xdr.ScValWire[] {
  const out: xdr.ScValWire[] = []
  const walk = (value: unknown) => {
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return
    if (Array.isArray(value)) {
      for (const v of value) walk(v)
      return
    }
    if (schemaOf(value)) out.push(value as xdr.ScValWire)
    for (const v of Object.values(value)) walk(v)
  }
  walk(root)
  return out
}

describe('toNative', () => {
  it("gives what the SDK's scValToNative gives, for every value of the committed ledgers", () => {
    let compared = 0
    const kinds = new Set<number>()
    for (const { name, bytes } of ledgers()) {
      const lcm = xdr.LedgerCloseMeta.schema.decode(bytes)
      // A ScVal is the only wire object whose `type` selects one of these arms (ScVal's own field names).
      const arms = ['b', 'u32', 'i32', 'u64', 'i64', 'u128', 'i128', 'sym', 'str', 'vec', 'map', 'address']
      const isScVal = (v: object) => {
        const keys = Object.keys(v)
        return keys.length === 2 && keys[0] === 'type' && arms.includes(keys[1]!)
      }
      for (const value of scVals(lcm, isScVal)) {
        let expected: unknown
        try {
          expected = scValToNative(xdr.ScVal.fromXdrObject(value))
        } catch {
          // Not a ScVal after all (another union with an arm of the same name).
          continue
        }
        const got = toNative(value)
        if (!isDeepStrictEqual(got, expected))
          throw new Error(`${name}: ${String(got)} != ${String(expected)}`)
        kinds.add(value.type)
        compared++
      }
    }
    expect(compared).toBeGreaterThan(10_000)
    // Booleans, u32, u64, i128, symbols, vectors, maps, addresses at least.
    for (const kind of [0, 3, 5, 10, 15, 16, 17, 18]) expect(kinds).toContain(kind)
  })

  it('gives what the SDK gives for the kinds those ledgers lack: void, i32, i64, u128, strings', () => {
    const values = [
      xdr.ScVal.scvVoid(),
      xdr.ScVal.scvI32(-7),
      xdr.ScVal.scvI32(2 ** 31 - 1),
      nativeToScVal(-(2n ** 40n), { type: 'i64' }),
      nativeToScVal(2n ** 63n - 1n, { type: 'i64' }),
      nativeToScVal(5n * 2n ** 64n + 2n ** 64n - 1n, { type: 'u128' }),
      xdr.ScVal.scvString('héllo, wörld'),
      xdr.ScVal.scvString(''),
    ]
    const types = new Set<number>()
    for (const value of values) {
      const wire = xdr.ScVal.schema.decode(value.toXDR())
      types.add(wire.type)
      expect(toNative(wire), `ScVal type ${wire.type}`).toStrictEqual(scValToNative(value))
    }
    expect([...types].sort((a, b) => a - b)).toEqual([1, 4, 6, 9, 14])
  })
})
