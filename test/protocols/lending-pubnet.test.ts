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
import { writeLedgerBatch } from '../../src/store/ledger-data.ts'
import { bindNetwork } from '../../src/store/network.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'

/**
 * Genuine pubnet ledger 63092996 (provenance: test/fixtures/pubnet/README.md): a DeFindex strategy
 * supplies 100 USDC to the Blend Fixed v2 pool. The expected position and rates are read from the
 * fixture's bytes here with the SDK's own classes, not with Strata's decoder.
 */
const LEDGER = 63092996
const POOL = 'CAJJZSGMMM3PD7N33TAPHGBUGTB43OC73HVIK2L2G6BNGGGYOSSYBXBD'
const STRATEGY = 'CDB2WMKQQNVZMEBY7Q7GZ5C7E7IAFSNMZ7GGVD6WKTCEWK7XOIAVZSAP'
const USDC = 'CCW67TSZV3SSS2HXMBQ5JFGCKJNXKZM7UQUWUZPUTHXSTZLEO7SJMI75'

const bytes = gunzipSync(
  readFileSync(new URL('../fixtures/pubnet/wallet-backend__ledger-63092996.xdr.gz', import.meta.url)),
)

/** The pool's entries as the fixture's transaction meta states them after the transaction. */
function readFixture() {
  const lcm = xdr.LedgerCloseMeta.fromXDR(bytes)
  if (lcm.type !== 'v2') throw new Error('expected LedgerCloseMeta v2')
  const found: { positions?: Record<string, Record<string, bigint>>; resData?: Record<string, bigint> } = {}
  for (const processing of lcm.v2.txProcessing) {
    const meta = processing.txApplyProcessing
    if (meta.type !== 'v4') continue
    for (const change of meta.v4.operations.flatMap((op) => op.changes)) {
      if (change.type !== 'ledgerEntryUpdated' || change.updated.data.type !== 'contractData') continue
      const data = change.updated.data.contractData
      if (Address.fromScAddress(data.contract).toString() !== POOL) continue
      const [tag, arg] = scValToNative(data.key) as [string, string]
      if (tag === 'Positions' && arg === STRATEGY) found.positions = scValToNative(data.val)
      if (tag === 'ResData' && arg === USDC) found.resData = scValToNative(data.val)
    }
  }
  return { ...found, closeTime: Number(lcm.v2.ledgerHeader.header.scpValue.closeTime) }
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b
const decimal = (value: bigint, decimals: number) =>
  `${value / 10n ** BigInt(decimals)}.${(value % 10n ** BigInt(decimals)).toString().padStart(decimals, '0')}`

describe('pubnet ledger 63092996: a Blend Fixed v2 supply by a DeFindex strategy', () => {
  let t: TestApp
  let key: string
  let network: NetworkConfig
  const fixture = readFixture()

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

  it('the fixture holds the entries this test expects', () => {
    expect(fixture.positions?.supply).toEqual({ 1: 90825937431373n })
    expect(fixture.resData?.b_rate).toBe(1126283197551n)
  })

  it("answers the strategy's position as its Positions entry states it, at the ResData rates, marked partial", async () => {
    const response = await t.app.inject({
      url: `/v1/users/${STRATEGY}/positions/lendingprotocol`,
      headers: apiKey(key),
    })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    const b = fixture.positions!.supply![1]!
    const rate = fixture.resData!.b_rate!
    expect(body.data.positions).toEqual([
      {
        protocol: 'lendingprotocol',
        contract_address: POOL,
        position_type: 'supply',
        asset: USDC,
        shares: decimal(b, 7),
        amount: decimal((b * rate) / 10n ** 12n, 7),
        // The pubnet description names no USD feed for USDC.
        amount_usd: null,
        rate: decimal(rate, 12),
        rate_ledger: LEDGER,
        ledger: LEDGER,
        usd_unavailable_reason: 'price_missing',
      },
    ])
    expect(body.data.groups).toHaveLength(1)
    expect(body.data.groups[0]).toMatchObject({
      contract_address: POOL,
      supplied_usd: null,
      health_factor: null,
      usd_unavailable_reason: 'price_missing',
    })
    // The pool's history before this ledger was never ingested: the answer says so.
    expect(body.meta).toMatchObject({
      as_of_ledger: LEDGER,
      partial_result: true,
      indexed_from_ledger: LEDGER,
    })
  })

  it("answers the pool's USDC reserve at the ResData the ledger wrote, partial without its ResConfig", async () => {
    const response = await t.app.inject({
      url: `/v1/protocols/lendingprotocol/pools/${POOL}`,
      headers: apiKey(key),
    })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.data.contract_address).toBe(POOL)
    const d = fixture.resData!
    const supplied = (d.b_supply! * d.b_rate!) / 10n ** 12n
    const borrowed = ceilDiv(d.d_supply! * d.d_rate!, 10n ** 12n)
    const usdc = body.data.reserves.find((r: { asset: string }) => r.asset === USDC)
    expect(usdc).toMatchObject({
      index: 1,
      b_rate: decimal(d.b_rate!, 12),
      d_rate: decimal(d.d_rate!, 12),
      b_supply: decimal(d.b_supply!, 7),
      d_supply: decimal(d.d_supply!, 7),
      ir_mod: decimal(d.ir_mod!, 7),
      last_accrued_at: new Date(Number(d.last_time) * 1000).toISOString(),
      rate_ledger: LEDGER,
      config_ledger: null,
      c_factor: null,
      // Utilization needs the ResData alone (reserve.rs): ceil(borrowed × 10^7 / supplied).
      utilization: decimal(ceilDiv(borrowed * 10n ** 7n, supplied), 7),
      // The curve needs the ResConfig, which this store never saw.
      borrow_apr: null,
      borrow_apy: null,
      supply_apr: null,
      supply_apy: null,
      rates_unavailable_reason: 'config_missing',
      computed_ledger: LEDGER,
    })
    // The pool's emissions predate this store: unknown, not zero.
    for (const side of ['supply', 'borrow']) {
      expect(usdc[`${side}_emission_apr`]).toBeNull()
      expect(usdc[`${side}_emission_apr_unavailable_reason`]).toBe('emissions_missing')
    }
    expect(body.data.config).toBeNull()
    expect(body.meta).toMatchObject({ as_of_ledger: LEDGER, partial_result: true })
    expect(d.last_time).toBe(BigInt(fixture.closeTime))
  })
})
