import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { skipXdr, visitXdr, XdrSpanError } from '../../src/chain/xdr-span.ts'
import { createDevnetChain } from '../../src/devnet/devnet.ts'

/** Genuine mainnet ledgers (provenance: test/fixtures/pubnet/README.md). */
const dir = new URL('../fixtures/pubnet/', import.meta.url)
const pubnet = ['51000294', '57500008', '63092988', '63092990', '63092996'].map((n) => ({
  name: `pubnet ${n}`,
  bytes: gunzipSync(readFileSync(new URL(`wallet-backend__ledger-${n}.xdr.gz`, dir))),
}))

function devnetLedgers() {
  // Protocol 22 (LedgerCloseMeta v1) before ledger 1030, protocol 23 (v2) from it (the devnet starts at 1000), with unwatched traffic.
  const chain = createDevnetChain({
    seed: 'xdr-span',
    ledgers: 40,
    accounts: 60,
    activity: 0.2,
    backgroundTxs: 5,
    protocolSwitchLedger: 1030,
  })
  const ledgers = [chain.oldestLedger() + 5, chain.latestLedger()]
  expect(ledgers.map((s) => chain.getLedger(s)!.meta.readUInt32BE(0))).toEqual([1, 2])
  return ledgers.map((s) => ({
    name: `devnet ${s}`,
    bytes: Buffer.from(chain.getLedger(s)!.meta),
  }))
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)

describe.each([...pubnet, ...devnetLedgers()])('skipXdr on $name', ({ bytes }) => {
  it('reads a LedgerCloseMeta of the version it says', () => {
    expect([1, 2]).toContain(bytes.readUInt32BE(0))
  })

  it('ends a whole LedgerCloseMeta exactly at its last byte', () => {
    expect(skipXdr(xdr.LedgerCloseMeta.schema, view(bytes), 0)).toBe(bytes.length)
  })

  it("ends each transaction's result and meta where the SDK's own encoding of it ends", () => {
    const lcm = xdr.LedgerCloseMeta.fromXDR(bytes)
    if (lcm.type === 'v0') throw new Error('a v0 ledger')
    const items =
      lcm.type === 'v2'
        ? lcm.v2.txProcessing.map((t) => ({ schema: xdr.TransactionResultMetaV1.schema, raw: t.toXDR() }))
        : lcm.v1.txProcessing.map((t) => ({ schema: xdr.TransactionResultMeta.schema, raw: t.toXDR() }))
    expect(items.length).toBeGreaterThan(0)
    for (const { schema, raw } of items) {
      // Placed after 4 bytes of something else, so offsets other than 0 are exercised.
      const padded = Buffer.concat([Buffer.alloc(4, 0xff), raw, Buffer.alloc(8, 0xee)])
      expect(skipXdr(schema, view(padded), 4)).toBe(4 + raw.length)
    }
  })
})

describe('skipXdr on bytes that are not what the schema says', () => {
  it('fails on a union discriminant the schema has no case for', () => {
    const bytes = Buffer.alloc(8)
    bytes.writeInt32BE(7, 0)
    expect(() => skipXdr(xdr.LedgerCloseMeta.schema, view(bytes), 0)).toThrow(XdrSpanError)
  })

  it('fails when a length runs past the bytes', () => {
    const bytes = Buffer.from(pubnet[0]!.bytes.subarray(0, 2000))
    expect(() => skipXdr(xdr.LedgerCloseMeta.schema, view(bytes), 0)).toThrow(RangeError)
  })
})

describe.each([...pubnet, ...devnetLedgers()])('visitXdr on $name', ({ bytes }) => {
  it("finds every transaction envelope where the SDK's own encoding of it lies, and ends where skipXdr does", () => {
    const lcm = xdr.LedgerCloseMeta.schema.decode(bytes)
    if (lcm.v !== 1 && lcm.v !== 2) throw new Error('a v0 ledger')
    const txSet = (lcm.v === 2 ? lcm.v2 : lcm.v1).txSet
    const envelopes: xdr.TransactionEnvelopeWire[] = []
    for (const phase of txSet.v1TxSet.phases) {
      if (phase.v === 0) for (const c of phase.v0Components) envelopes.push(...c.txsMaybeDiscountedFee.txs)
      else
        for (const stage of phase.parallelTxsComponent.executionStages)
          for (const c of stage) envelopes.push(...c)
    }
    expect(envelopes.length).toBeGreaterThan(0)
    const expected = envelopes.map((e) =>
      Buffer.from(xdr.TransactionEnvelope.schema.encode(e)).toString('hex'),
    )
    const raw = xdr.GeneralizedTransactionSet.schema.encode(txSet)
    // Placed after 8 bytes of something else, so offsets other than 0 are exercised.
    const padded = Buffer.concat([Buffer.alloc(8, 0xff), raw])
    const found: string[] = []
    const schema = xdr.GeneralizedTransactionSet.schema
    const end = visitXdr(schema, xdr.TransactionEnvelope.schema, view(padded), 8, (start, stop) => {
      found.push(padded.subarray(start, stop).toString('hex'))
    })
    expect(end).toBe(8 + raw.length)
    expect(skipXdr(schema, view(padded), 8)).toBe(end)
    expect(found).toEqual(expected)
  })
})
