import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { gunzipSync, zstdDecompressSync } from 'node:zlib'
import { Address, Networks, StrKey, scValToNative, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import {
  buildWatchedContracts,
  decodeLedgerCloseMeta,
  decodeLedgerCloseMetaFully,
} from '../../src/chain/decode-ledger.ts'
import { loadNetworkConfig } from '../../src/chain/load-network.ts'
import { buildNetworkWatchList } from '../../src/indexer/ledger-pipeline.ts'
import { adaptOracleLedger, createOracleMemory } from '../../src/protocols/oracle/adapt-ledger.ts'

/** Genuine mainnet ledgers (provenance: test/fixtures/pubnet/README.md). */
const dir = new URL('../fixtures/pubnet/', import.meta.url)
const REFLECTOR_DEX_FEED = 'CALI2BYU2JE6WVRUFYTS6MSBNEHGJ35P4AVCZYF3B6QOE3QKOB2PLE6M'

function lakeObject(name: string): Buffer {
  const batch = xdr.LedgerCloseMetaBatch.fromXDR(zstdDecompressSync(readFileSync(new URL(name, dir))))
  expect(batch.ledgerCloseMetas).toHaveLength(1)
  return Buffer.from(batch.ledgerCloseMetas[0]!.toXDR())
}

const FIXTURES: Record<string, () => Buffer> = {
  53312000: () => lakeObject('stellar-go__FCD285FF--53312000.xdr.zstd'),
  51000294: () => gunzipSync(readFileSync(new URL('wallet-backend__ledger-51000294.xdr.gz', dir))),
  57500008: () => gunzipSync(readFileSync(new URL('wallet-backend__ledger-57500008.xdr.gz', dir))),
  63092988: () => gunzipSync(readFileSync(new URL('wallet-backend__ledger-63092988.xdr.gz', dir))),
  63092990: () => gunzipSync(readFileSync(new URL('wallet-backend__ledger-63092990.xdr.gz', dir))),
  63092996: () => gunzipSync(readFileSync(new URL('wallet-backend__ledger-63092996.xdr.gz', dir))),
}

describe.each(Object.entries(FIXTURES))('pubnet ledger %s', (sequence, load) => {
  it('decodes with its header facts: sequence, hash (sha256 of the header) and the hash chain', async () => {
    const bytes = load()
    const lcm = xdr.LedgerCloseMeta.fromXDR(bytes)
    if (lcm.type === 'v0') throw new Error('a v0 ledger')
    const header = (lcm.type === 'v2' ? lcm.v2 : lcm.v1).ledgerHeader.header
    const decoded = decodeLedgerCloseMeta(bytes, buildNetworkWatchList(await loadNetworkConfig('pubnet')))
    expect(decoded.sequence).toBe(Number(sequence))
    expect(decoded.hash).toBe(createHash('sha256').update(header.toXDR()).digest('hex'))
    expect(decoded.previousHash).toBe(Buffer.from(header.previousLedgerHash.toXDR()).toString('hex'))
    expect(decoded.closeTime).toBe(Number(header.scpValue.closeTime))
  })
})

describe('ledgers that name no watched contract', () => {
  it('are read from their header alone, with the same facts as a full decode', () => {
    const bytes = FIXTURES[63092990]!()
    const pair = 'CAM7DY53G63XA4AJRS24Z6VFYAFSSF76C3RZ45BE5YU3FQS5255OOABP'
    const full = decodeLedgerCloseMeta(bytes, buildWatchedContracts([pair]))
    expect(full.transactions.length).toBeGreaterThan(0)
    const absent = decodeLedgerCloseMeta(
      bytes,
      buildWatchedContracts([StrKey.encodeContract(Buffer.alloc(32, 0xab))]),
    )
    expect(absent).toEqual({ ...full, transactions: [] })
  })
})

describe('Reflector v2 on mainnet (ledger 53312000, no events: prices are temporary entries)', () => {
  const bytes = FIXTURES[53312000]!()

  /** What the bytes say, read with the SDK's classes alone: asset list, decimals, and every price record. */
  function readExpected() {
    const lcm = xdr.LedgerCloseMeta.fromXDR(bytes)
    if (lcm.type !== 'v1') throw new Error('ledger 53312000 is LedgerCloseMeta v1')
    let assets: string[] = []
    let decimals = 0
    const records: { index: number; ts: bigint; price: bigint }[] = []
    for (const tx of lcm.v1.txProcessing) {
      const meta = tx.txApplyProcessing
      const ops = meta.type === 'v3' ? meta.v3.operations : meta.type === 'v4' ? meta.v4.operations : []
      for (const op of ops) {
        for (const change of op.changes) {
          if (change.type !== 'ledgerEntryCreated' && change.type !== 'ledgerEntryUpdated') continue
          const entry = change.type === 'ledgerEntryCreated' ? change.created : change.updated
          if (entry.data.type !== 'contractData') continue
          const data = entry.data.contractData
          if (Address.fromScAddress(data.contract).toString() !== REFLECTOR_DEX_FEED) continue
          if (data.key.type === 'scvLedgerKeyContractInstance' && data.val.type === 'scvContractInstance') {
            for (const item of data.val.instance.storage ?? []) {
              const key = scValToNative(item.key)
              if (key === 'assets')
                assets = (scValToNative(item.val) as [string, string][]).map(([, id]) => id)
              if (key === 'decimals') decimals = scValToNative(item.val) as number
            }
          } else if (data.key.type === 'scvU128') {
            const key = scValToNative(data.key) as bigint
            records.push({
              index: Number(key % 2n ** 64n),
              ts: key / 2n ** 64n,
              price: scValToNative(data.val) as bigint,
            })
          }
        }
      }
    }
    return { assets, decimals, records }
  }

  it("turns the feed's price entries into prices named by its own asset list, with its own decimals", () => {
    const expected = readExpected()
    expect(expected.records.length).toBeGreaterThan(5)
    expect(expected.decimals).toBe(14)
    const decoded = decodeLedgerCloseMeta(
      bytes,
      buildWatchedContracts([REFLECTOR_DEX_FEED], [REFLECTOR_DEX_FEED]),
    )
    const prices = adaptOracleLedger(decoded, REFLECTOR_DEX_FEED, createOracleMemory())
    const byAsset = (rows: { asset: string }[]) => [...rows].sort((a, b) => (a.asset < b.asset ? -1 : 1))
    expect(byAsset(prices)).toEqual(
      byAsset(
        expected.records.map((r) => ({
          oracle: REFLECTOR_DEX_FEED,
          asset: expected.assets[r.index]!,
          price: r.price,
          decimals: expected.decimals,
          timestampMs: Number(r.ts),
        })),
      ),
    )
    // XLM's asset contract is on this feed: about 0.09 USDC in September 2024.
    const xlm = prices.find((p) => p.asset === 'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA')
    expect(xlm?.price).toBe(9_194_659_523_573n)
    expect(xlm?.timestampMs).toBe(1_725_274_200_000)
  })
})

/** Every contract that emitted an event or had contract data change in the ledger, read with the SDK's classes. */
function contractsIn(bytes: Buffer): string[] {
  const lcm = xdr.LedgerCloseMeta.fromXDR(bytes)
  if (lcm.type === 'v0') return []
  const body = lcm.type === 'v2' ? lcm.v2 : lcm.v1
  const found = new Set<string>()
  const addData = (entry: xdr.LedgerEntry | undefined) => {
    if (entry?.data.type === 'contractData')
      found.add(Address.fromScAddress(entry.data.contractData.contract).toString())
  }
  for (const tx of body.txProcessing) {
    const meta = tx.txApplyProcessing
    const operations = meta.type === 'v4' ? meta.v4.operations : meta.type === 'v3' ? meta.v3.operations : []
    for (const op of operations) {
      for (const change of op.changes) {
        if (change.type === 'ledgerEntryCreated') addData(change.created)
        if (change.type === 'ledgerEntryUpdated') addData(change.updated)
      }
      const events = ('events' in op ? op.events : []) as xdr.ContractEvent[]
      for (const event of events) {
        if (event.contractId) found.add(StrKey.encodeContract(Buffer.from(event.contractId.value)))
      }
    }
  }
  // Contract ids only (C...).
  return [...found].filter((address) => StrKey.isValidContract(address)).sort()
}

describe('transactions that name no watched contract, in a ledger that does', () => {
  it.each(Object.keys(FIXTURES))(
    'are stepped over: ledger %s gives the facts of a full decode, watching mainnet or any one contract in it',
    async (sequence) => {
      const bytes = FIXTURES[sequence]!()
      const contracts = contractsIn(bytes)
      const lists = [
        buildNetworkWatchList(await loadNetworkConfig('pubnet')),
        buildWatchedContracts(contracts, contracts),
        ...contracts.slice(0, 8).map((c) => buildWatchedContracts([c], [c])),
        // With the passphrase, envelopes are read too (source, function, failed invocations).
        buildWatchedContracts(contracts, contracts, {}, Networks.PUBLIC),
        ...contracts.slice(0, 8).map((c) => buildWatchedContracts([c], [], {}, Networks.PUBLIC)),
      ]
      for (const watched of lists) {
        expect(decodeLedgerCloseMeta(bytes, watched)).toEqual(decodeLedgerCloseMetaFully(bytes, watched))
      }
    },
  )

  it('decodes fewer transactions than the ledger holds when one contract is watched', () => {
    const bytes = FIXTURES[63092996]!()
    const lcm = xdr.LedgerCloseMeta.fromXDR(bytes)
    if (lcm.type === 'v0') throw new Error('a v0 ledger')
    const total = (lcm.type === 'v2' ? lcm.v2 : lcm.v1).txProcessing.length
    const [first] = contractsIn(bytes)
    const decoded = decodeLedgerCloseMeta(bytes, buildWatchedContracts([first!]))
    expect(decoded.transactions.length).toBeGreaterThan(0)
    expect(decoded.transactions.length).toBeLessThan(total)
  })
})
