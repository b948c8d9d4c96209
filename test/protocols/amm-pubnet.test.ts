import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { Address, scValToNative, xdr } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeLedgerCloseMeta } from '../../src/chain/decode-ledger.ts'
import { loadNetworkConfig } from '../../src/chain/load-network.ts'
import type { NetworkConfig } from '../../src/chain/network.ts'
import {
  buildNetworkWatchList,
  createLedgerPipeline,
  loadResumePoint,
} from '../../src/indexer/ledger-pipeline.ts'
import { ammProtocol } from '../../src/protocols/ammprotocol/index.ts'
import { writeLedgerBatch } from '../../src/store/ledger-data.ts'
import { bindNetwork } from '../../src/store/network.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'

/**
 * Genuine pubnet ledger 63092990 (provenance: test/fixtures/pubnet/README.md): a swap on Soroswap's
 * XLM/USDC pair. The expected pool state is read from the fixture's bytes here with the SDK's own
 * classes (the pair's instance entry after the transaction), not with Strata's decoder.
 */
const LEDGER = 63092990
const PAIR = 'CAM7DY53G63XA4AJRS24Z6VFYAFSSF76C3RZ45BE5YU3FQS5255OOABP'
const XLM = 'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA'
const USDC = 'CCW67TSZV3SSS2HXMBQ5JFGCKJNXKZM7UQUWUZPUTHXSTZLEO7SJMI75'

const bytes = gunzipSync(
  readFileSync(new URL('../fixtures/pubnet/wallet-backend__ledger-63092990.xdr.gz', import.meta.url)),
)

// biome-ignore lint/suspicious/noExplicitAny: the SDK's wire objects of several XDR unions
type Wire = any

/** The pair's instance storage before and after the swap, and its events, as the fixture's meta states them. */
function readFixture() {
  const lcm: Wire = xdr.LedgerCloseMeta.fromXDR(bytes)
  const instances: Array<Map<unknown, unknown>> = []
  const events: Array<{ topics: unknown[]; data: unknown }> = []
  for (const processing of lcm.v2.txProcessing) {
    const meta = processing.txApplyProcessing
    if (meta.type !== 'v4') continue
    for (const change of meta.v4.operations.flatMap((op: Wire) => op.changes)) {
      const entry =
        change.type === 'ledgerEntryUpdated'
          ? change.updated
          : change.type === 'ledgerEntryState'
            ? change.state
            : null
      if (entry?.data.type !== 'contractData') continue
      const data = entry.data.contractData
      if (Address.fromScAddress(data.contract).toString() !== PAIR) continue
      if (data.key.type !== 'scvLedgerKeyContractInstance') continue
      const storage = new Map<unknown, unknown>()
      for (const item of data.val.instance.storage)
        storage.set(JSON.stringify(scValToNative(item.key)), scValToNative(item.val))
      instances.push(storage)
    }
    for (const event of meta.v4.operations.flatMap((op: Wire) => op.events)) {
      const wire = event.toXdrObject()
      if (!wire.contractId || Address.contract(Buffer.from(wire.contractId)).toString() !== PAIR) continue
      events.push({
        topics: event.body.v0.topics.map((t: Wire) => scValToNative(t)),
        data: scValToNative(event.body.v0.data),
      })
    }
  }
  const [before, after] = instances
  return { before: before!, after: after!, events }
}

/** BigInt decimal string with `decimals` fractional digits, written again here. */
const decimal = (value: bigint, decimals: number) =>
  `${value / 10n ** BigInt(decimals)}.${(value % 10n ** BigInt(decimals)).toString().padStart(decimals, '0')}`

describe('pubnet ledger 63092990: a swap on the Soroswap XLM/USDC pair', () => {
  let t: TestApp
  let key: string
  let network: NetworkConfig
  const fixture = readFixture()
  const stated = (k: unknown) => fixture.after.get(JSON.stringify(k)) as bigint | string

  beforeAll(async () => {
    t = await createTestApp()
    network = await loadNetworkConfig('pubnet')
    await bindNetwork(t.database, network, t.clock.now())
    // The real pipeline: decoder, the registered adapters, the account book, the batch writer.
    const pipeline = createLedgerPipeline(t.database, network, await loadResumePoint(t.database))
    await pipeline.addLedgers([decodeLedgerCloseMeta(bytes, buildNetworkWatchList(network))])
    await writeLedgerBatch(t.database, pipeline.takeBatch(t.clock.now())!)
    key = (await createKey(t.app)).key
  })
  afterAll(async () => t?.close())

  it('the fixture holds the entries this test expects: a swap that moved both reserves', () => {
    expect(stated(0)).toBe(XLM)
    expect(stated(1)).toBe(USDC)
    expect(stated(2)).not.toBe(fixture.before.get(JSON.stringify(2)))
    expect(fixture.events.map((e) => e.topics)).toEqual([
      ['SoroswapPair', 'sync'],
      ['SoroswapPair', 'swap'],
    ])
  })

  it('answers the pair at the state its instance entry states after the swap', async () => {
    const response = await t.app.inject({
      url: `/v1/protocols/ammprotocol/pools/${PAIR}`,
      headers: apiKey(key),
    })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    const [r0, r1, supply] = [stated(2) as bigint, stated(3) as bigint, stated(['TotalSupply']) as bigint]
    expect(body.data).toEqual({
      contract_address: PAIR,
      token_0: XLM,
      token_1: USDC,
      reserve_0: decimal(r0, 7),
      reserve_1: decimal(r1, 7),
      total_supply: decimal(supply, 7),
      // Both tokens have 7 decimals: price of XLM in USDC = r1 / r0, 18 decimals rounded down.
      price_0_in_1: decimal((r1 * 10n ** 18n) / r0, 18),
      price_1_in_0: decimal((r0 * 10n ** 18n) / r1, 18),
      // The pubnet description names no USD feed for USDC.
      tvl_usd: null,
      state_ledger: LEDGER,
      usd_unavailable_reason: 'price_missing',
      // One ledger of a pair trading since 2024: the store cannot tell the day's swaps.
      volume_24h: {
        from_ledger: null,
        to_ledger: LEDGER,
        swaps: null,
        token_0_in: null,
        token_0_out: null,
        token_1_in: null,
        token_1_out: null,
        fees_0: null,
        fees_1: null,
        volume_usd: null,
        fees_usd: null,
        unavailable_reason: 'history_missing',
      },
    })
    // The pair's history before this ledger was never ingested: the answer says so.
    expect(body.meta).toMatchObject({
      as_of_ledger: LEDGER,
      partial_result: true,
      indexed_from_ledger: LEDGER,
    })
    const reserves = await t.app.inject({ url: '/v1/protocols/ammprotocol/reserves', headers: apiKey(key) })
    const pairs = reserves.json().data.pairs as Array<{
      contract_address: string
      state_ledger: number | null
    }>
    expect(pairs.find((p) => p.contract_address === PAIR)).toEqual(body.data)
    // Pairs the ledger did not touch: listed, their state unknown.
    expect(pairs.filter((p) => p.state_ledger === null).length).toBe(pairs.length - 1)
  })

  it('decodes the swap as an action of its recipient, with the amounts the event states', () => {
    const adapter = ammProtocol.createAdapter(network)
    const facts = adapter.adaptLedger(decodeLedgerCloseMeta(bytes, buildNetworkWatchList(network)))
    const swap = fixture.events[1]!.data as Record<string, bigint | string>
    expect(facts.activities).toEqual([
      expect.objectContaining({
        protocol: 'ammprotocol',
        type: 'swap',
        contract: PAIR,
        account: swap.to,
        ledger: LEDGER,
        amount_0_in: swap.amount_0_in,
        amount_0_out: swap.amount_0_out,
        amount_1_in: swap.amount_1_in,
        amount_1_out: swap.amount_1_out,
      }),
    ])
    // A swap changes no LP balance: no account facts.
    expect(facts.accounts).toEqual([])
  })
})
