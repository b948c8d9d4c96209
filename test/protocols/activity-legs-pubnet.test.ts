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
 * Genuine pubnet ledgers (provenance: test/fixtures/pubnet/README.md) indexed by the real pipeline,
 * and the activities endpoint's legs against the events their meta holds, decoded here with the
 * SDK's own classes: a swap on the Soroswap XLM/USDC pair (63092990) and a deposit of 100 USDC
 * into the DeFindex Meru USDC vault (63092996).
 */
const PAIR = 'CAM7DY53G63XA4AJRS24Z6VFYAFSSF76C3RZ45BE5YU3FQS5255OOABP'
const VAULT = 'CCA2ZJP5BVRXYTQH4FAGHCAUMRYCXVC4CRYC2NXHWMR7TIVX36U7F5HR'

// biome-ignore lint/suspicious/noExplicitAny: the SDK's wire objects of several XDR unions
type Wire = any
// biome-ignore lint/suspicious/noExplicitAny: an event's native data
type Native = any

const fixture = (ledger: number) =>
  gunzipSync(
    readFileSync(new URL(`../fixtures/pubnet/wallet-backend__ledger-${ledger}.xdr.gz`, import.meta.url)),
  )

/** The events of a contract in a ledger's meta, and its instance storage after the ledger. */
function readContract(bytes: Buffer, contract: string) {
  const lcm: Wire = xdr.LedgerCloseMeta.fromXDR(bytes)
  const events: Array<{ topics: unknown[]; data: Native }> = []
  const instance = new Map<string, unknown>()
  for (const processing of lcm.v2.txProcessing) {
    const meta = processing.txApplyProcessing
    if (meta.type !== 'v4') continue
    for (const op of meta.v4.operations) {
      for (const change of op.changes) {
        if (change.type !== 'ledgerEntryUpdated') continue
        const data = change.updated.data
        if (data.type !== 'contractData') continue
        const c = data.contractData
        if (Address.fromScAddress(c.contract).toString() !== contract) continue
        if (c.key.type !== 'scvLedgerKeyContractInstance') continue
        for (const item of c.val.instance.storage)
          instance.set(JSON.stringify(scValToNative(item.key)), scValToNative(item.val))
      }
      for (const event of op.events) {
        const wire = event.toXdrObject()
        if (!wire.contractId || Address.contract(Buffer.from(wire.contractId)).toString() !== contract)
          continue
        events.push({
          topics: event.body.v0.topics.map((t: Wire) => scValToNative(t)),
          data: scValToNative(event.body.v0.data),
        })
      }
    }
  }
  return { events, instance }
}

const decimal = (value: bigint, decimals: number) =>
  `${value / 10n ** BigInt(decimals)}.${(value % 10n ** BigInt(decimals)).toString().padStart(decimals, '0')}`

/** A fresh store holding one genuine ledger, indexed by the real pipeline, and a key to read it. */
function indexedLedger(ledger: number) {
  const state = {} as { t: TestApp; key: string; network: NetworkConfig }
  beforeAll(async () => {
    state.t = await createTestApp()
    state.network = await loadNetworkConfig('pubnet')
    await bindNetwork(state.t.database, state.network, state.t.clock.now())
    const pipeline = createLedgerPipeline(
      state.t.database,
      state.network,
      await loadResumePoint(state.t.database),
    )
    await pipeline.addLedgers([decodeLedgerCloseMeta(fixture(ledger), buildNetworkWatchList(state.network))])
    await writeLedgerBatch(state.t.database, pipeline.takeBatch(state.t.clock.now())!)
    state.key = (await createKey(state.t.app)).key
  })
  afterAll(async () => state.t?.close())
  const activities = async (account: string, query: string) => {
    const response = await state.t.app.inject({
      url: `/v1/users/${account}/activities?${query}`,
      headers: apiKey(state.key),
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data.activities as Array<Record<string, unknown>>
  }
  return { state, activities }
}

describe('pubnet ledger 63092990: the Soroswap swap as its event states it', () => {
  const { state, activities } = indexedLedger(63092990)

  it('the Soroswap swap names both tokens of the pair, in their units', async () => {
    const { events, instance } = readContract(fixture(63092990), PAIR)
    const swap = events.find((e) => e.topics[0] === 'SoroswapPair' && e.topics[1] === 'swap')!.data
    // The pair's tokens as its own instance entry names them (`DataKey::Token0/1` = U32(0/1)).
    const tokens = [instance.get('0') as string, instance.get('1') as string]
    const legs: Array<Record<string, unknown>> = []
    for (const [key, i, direction] of [
      ['amount_0_in', 0, 'sent'],
      ['amount_1_in', 1, 'sent'],
      ['amount_0_out', 0, 'received'],
      ['amount_1_out', 1, 'received'],
    ] as const) {
      const raw = swap[key] as bigint
      if (raw === 0n) continue
      const asset = tokens[i]!
      legs.push({
        role: 'asset',
        direction,
        asset,
        symbol: state.network.assets[asset]!.symbol,
        amount_raw: raw.toString(),
        amount: decimal(raw, state.network.assets[asset]!.decimals),
        // The store holds no Reflector price at this ledger, and USDC has no feed in the description.
        amount_usd: null,
        usd_unavailable_reason: 'price_missing',
      })
    }
    expect(legs.map((l) => l.direction)).toEqual(['sent', 'received'])
    const [got] = await activities(swap.to, 'protocol=ammprotocol&type=swap')
    expect(got).toMatchObject({ contract_address: PAIR, account: swap.to, ledger: 63092990 })
    expect(got!.legs).toEqual(legs)
    expect(got).toMatchObject({ amount_usd: null, usd_unavailable_reason: 'price_missing', details: {} })
  })
})

describe('pubnet ledger 63092996: the DeFindex deposit as its event states it', () => {
  const { state, activities } = indexedLedger(63092996)

  it('names the underlying it took and the df-tokens it minted, in their units', async () => {
    const { events } = readContract(fixture(63092996), VAULT)
    const deposit = events.find((e) => e.topics[0] === 'DeFindexVault' && e.topics[1] === 'deposit')!.data
    // The amounts follow the vault's asset order, which the event's managed funds name.
    const assets = (deposit.total_managed_funds_before as Array<{ asset: string }>).map((f) => f.asset)
    const network = state.network
    const underlying = (deposit.amounts as bigint[]).map((raw, i) => ({
      role: 'asset',
      direction: 'sent',
      asset: assets[i],
      symbol: network.assets[assets[i]!]!.symbol,
      amount_raw: raw.toString(),
      amount: decimal(raw, network.assets[assets[i]!]!.decimals),
      amount_usd: null,
      usd_unavailable_reason: 'price_missing',
    }))
    expect(underlying).toHaveLength(1)
    expect(underlying[0]!.amount).toBe('100.0000000')
    const [got] = await activities(deposit.depositor, 'protocol=yieldprotocol&type=deposit')
    expect(got).toMatchObject({ contract_address: VAULT, account: deposit.depositor, ledger: 63092996 })
    expect(got!.legs).toEqual([
      ...underlying,
      {
        role: 'shares',
        direction: 'minted',
        asset: VAULT,
        symbol: null,
        amount_raw: String(deposit.df_tokens_minted),
        // df-tokens have 7 decimals (vault/src/lib.rs constructor).
        amount: decimal(deposit.df_tokens_minted, 7),
        amount_usd: null,
        usd_unavailable_reason: 'protocol_token',
      },
    ])
    expect(got).toMatchObject({
      amount_usd: null,
      usd_unavailable_reason: 'price_missing',
      details: { total_supply_before: decimal(deposit.total_supply_before, 7) },
    })
  })
})
