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
 * Genuine pubnet ledger 63092996 (provenance: test/fixtures/pubnet/README.md): a deposit of 100 USDC
 * into the DeFindex Meru USDC vault, invested through its Blend Fixed strategy. The expected balance
 * and price per share are read from the fixture's bytes here with the SDK's own classes, and the
 * vault's formula (paltalabs/defindex vault/src/{funds,report}.rs, strategies/blend/src/utils.rs)
 * is written again below.
 */
const LEDGER = 63092996
const VAULT = 'CCA2ZJP5BVRXYTQH4FAGHCAUMRYCXVC4CRYC2NXHWMR7TIVX36U7F5HR'
const FIXED = 'CDB2WMKQQNVZMEBY7Q7GZ5C7E7IAFSNMZ7GGVD6WKTCEWK7XOIAVZSAP'
const YIELDBLOX = 'CCSRX5E4337QMCMC3KO3RDFYI57T5NZV5XB3W3TWE4USCASKGL5URKJL'
const POOL = 'CAJJZSGMMM3PD7N33TAPHGBUGTB43OC73HVIK2L2G6BNGGGYOSSYBXBD'
const USDC = 'CCW67TSZV3SSS2HXMBQ5JFGCKJNXKZM7UQUWUZPUTHXSTZLEO7SJMI75'
const DEPOSITOR = 'GBZDALDH44QO65RSH2YQ3TMJ4IS3D5AV4LTWV4YUCSM3G4BZFSGTSQST'

const bytes = gunzipSync(
  readFileSync(new URL('../fixtures/pubnet/wallet-backend__ledger-63092996.xdr.gz', import.meta.url)),
)

type Native = Record<string, unknown>

/** The entries after the transaction, and the deposit event, as the fixture's meta states them. */
function readFixture() {
  const lcm = xdr.LedgerCloseMeta.fromXDR(bytes)
  if (lcm.type !== 'v2') throw new Error('expected LedgerCloseMeta v2')
  const entries = new Map<string, unknown>()
  const instances = new Map<string, Map<string, unknown>>()
  let deposit: Native | null = null
  for (const processing of lcm.v2.txProcessing) {
    const meta = processing.txApplyProcessing
    if (meta.type !== 'v4') continue
    for (const op of meta.v4.operations) {
      for (const change of op.changes) {
        if (change.type !== 'ledgerEntryUpdated' || change.updated.data.type !== 'contractData') continue
        const data = change.updated.data.contractData
        const contract = Address.fromScAddress(data.contract).toString()
        if (data.key.type === 'scvLedgerKeyContractInstance' && data.val.type === 'scvContractInstance') {
          const storage = new Map<string, unknown>()
          for (const e of data.val.instance.storage ?? [])
            storage.set(JSON.stringify(scValToNative(e.key)), scValToNative(e.val))
          instances.set(contract, storage)
        } else entries.set(`${contract} ${JSON.stringify(scValToNative(data.key))}`, scValToNative(data.val))
      }
      for (const event of op.events) {
        const topics = event.body.v0.topics.map((t) => scValToNative(t))
        if (topics[0] === 'DeFindexVault' && topics[1] === 'deposit')
          deposit = scValToNative(event.body.v0.data) as Native
      }
    }
  }
  const entry = (contract: string, ...key: string[]) => entries.get(`${contract} ${JSON.stringify(key)}`)
  const instance = (contract: string, key: string) => instances.get(contract)?.get(JSON.stringify([key]))
  return { entry, instance, deposit: deposit! }
}

const decimal = (value: bigint, decimals: number) =>
  `${value / 10n ** BigInt(decimals)}.${(value % 10n ** BigInt(decimals)).toString().padStart(decimals, '0')}`

describe('pubnet ledger 63092996: a deposit into the DeFindex Meru USDC vault', () => {
  let t: TestApp
  let key: string
  let network: NetworkConfig
  const f = readFixture()
  const shares = f.entry(VAULT, 'Balance', DEPOSITOR) as bigint
  const totalSupply = f.instance(VAULT, 'TotalSupply') as bigint
  const vaultFee = BigInt(f.instance(VAULT, 'VaultFee') as number)
  const vaultPos = f.entry(FIXED, 'VaultPos', VAULT) as bigint
  const reserves = f.instance(FIXED, 'Reserves') as Record<string, bigint>
  const bRate = (f.entry(POOL, 'ResData', USDC) as Record<string, bigint>).b_rate!
  const report = f.entry(VAULT, 'Report', FIXED) as Record<string, bigint>
  const idle = (f.entry(USDC, 'Balance', VAULT) as Record<string, bigint>).amount!
  // fetch_total_managed_funds on the state the ledger left: the Fixed strategy's balance at the
  // pool's stored b_rate, its report brought up to it and gains locked. The YieldBlox strategy's
  // VaultPos is not in the ledger: written (or not) before the store's first ledger, it is unknown,
  // and so are the vault's managed funds and price per share.
  const balance =
    (((vaultPos * reserves.total_b_tokens!) / reserves.total_shares!) * bRate) / 1_000_000_000_000n
  const gains = report.gains_or_losses! + balance - report.prev_balance!
  const locked = report.locked_fee! + (gains > 0n ? (gains * vaultFee) / 10_000n : 0n)
  const total = idle + balance - locked

  beforeAll(async () => {
    t = await createTestApp()
    network = await loadNetworkConfig('pubnet')
    await bindNetwork(t.database, network, t.clock.now())
    const pipeline = createLedgerPipeline(t.database, network, await loadResumePoint(t.database))
    await pipeline.addLedgers([decodeLedgerCloseMeta(bytes, buildNetworkWatchList(network))])
    await writeLedgerBatch(t.database, pipeline.takeBatch(t.clock.now())!)
    key = (await createKey(t.app)).key
  })
  afterAll(async () => t?.close())

  it('the fixture holds the entries this test expects', () => {
    expect(shares).toBe(10386702403n)
    expect(f.deposit.df_tokens_minted).toBe(943200315n)
    expect(totalSupply).toBe((f.deposit.total_supply_before as bigint) + 943200315n)
    expect(idle).toBe(0n)
    expect(f.entry(YIELDBLOX, 'VaultPos', VAULT)).toBeUndefined()
    expect(vaultFee).toBe(50n)
  })

  it("answers the depositor's df-tokens; the funds, which need an entry the store never saw, are unknown", async () => {
    const response = await t.app.inject({
      url: `/v1/users/${DEPOSITOR}/positions/yieldprotocol`,
      headers: apiKey(key),
    })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.data.positions).toEqual([
      {
        protocol: 'yieldprotocol',
        contract_address: VAULT,
        position_type: 'vault_share',
        asset: USDC,
        shares: decimal(shares, 7),
        amount: null,
        amount_usd: null,
        price_per_share: null,
        total_managed_funds: null,
        // The instance entry the deposit rewrote states it.
        total_supply: decimal(totalSupply, 7),
        rate_ledger: LEDGER,
        ledger: LEDGER,
        usd_unavailable_reason: 'rate_missing',
      },
    ])
    expect(body.data.groups).toEqual([
      {
        contract_address: VAULT,
        shares: decimal(shares, 7),
        total_supply: decimal(totalSupply, 7),
        share_of_pool: decimal((shares * 10n ** 18n) / totalSupply, 18),
        value_usd: null,
        rate_ledger: LEDGER,
        usd_unavailable_reason: 'rate_missing',
      },
    ])
    // The vault's history before this ledger was never ingested: the answer says so.
    expect(body.meta).toMatchObject({ as_of_ledger: LEDGER, partial_result: true })
    const at = await t.app.inject({
      url: `/v1/users/${DEPOSITOR}/positions/yieldprotocol/at/${LEDGER}`,
      headers: apiKey(key),
    })
    expect(at.statusCode).toBe(200)
    expect(at.json().data.positions).toEqual(body.data.positions)
  })

  it('the price per share is within a share of the deposit event’s own (interest between the two b_rates aside)', () => {
    const before = f.deposit.total_managed_funds_before as Array<Record<string, bigint>>
    const eventPps = (before[0]!.total_amount! * 10n ** 12n) / (f.deposit.total_supply_before as bigint)
    const statePps = (total * 10n ** 12n) / totalSupply
    // The deposit mints floor(supply × amount / total): the price can only rise, by rounding.
    expect(statePps).toBeGreaterThanOrEqual(eventPps)
    expect(statePps - eventPps).toBeLessThan(10n)
  })

  it('answers the vault with its strategies, fees and totals', async () => {
    const response = await t.app.inject({
      url: `/v1/protocols/yieldprotocol/pools/${VAULT}`,
      headers: apiKey(key),
    })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.data).toMatchObject({
      contract_address: VAULT,
      // One name: the network description's, as in enrichment and GET /v1/protocols.
      name: 'DeFindex Meru USDC',
      share_symbol: 'MERU',
      total_supply: decimal(totalSupply, 7),
      vault_fee_bps: 50,
      protocol_fee_bps: 2000,
      rate_ledger: LEDGER,
      unavailable_reason: 'rate_missing',
    })
    expect(body.enrichment.contracts[VAULT].name).toBe(body.data.name)
    expect(body.meta.partial_result).toBe(true)
    // One ledger of history: no price per share a week or a month before.
    const noHistory = {
      apy: null,
      from_ledger: null,
      to_ledger: LEDGER,
      unavailable_reason: 'history_missing',
    }
    expect(body.data.assets).toEqual([
      {
        asset: USDC,
        idle: '0.0000000',
        invested: null,
        total_managed_funds: null,
        price_per_share: null,
        apy_7d: noHistory,
        apy_30d: noHistory,
        strategies: [
          {
            contract_address: FIXED,
            name: 'USDC Autocompound Blend Fixed',
            paused: false,
            pool: POOL,
            shares: decimal(vaultPos, 7),
            b_rate: decimal(bRate, 12),
            b_rate_ledger: LEDGER,
            balance: decimal(balance, 7),
            locked_fee: decimal(locked, 7),
            invested: decimal(balance - locked, 7),
          },
          {
            contract_address: YIELDBLOX,
            name: 'USDC Autocompound Blend YieldBlox',
            paused: false,
            pool: 'CCCCIQSDILITHMM7PBSLVDT5MISSY7R26MNZXCX4H7J5JQ5FPIYOGYFS',
            shares: null,
            b_rate: null,
            b_rate_ledger: null,
            balance: null,
            locked_fee: null,
            invested: null,
          },
        ],
      },
    ])
    const missing = await t.app.inject({
      url: `/v1/protocols/yieldprotocol/pools/${FIXED}`,
      headers: apiKey(key),
    })
    expect(missing.statusCode).toBe(404)
    const reserves = await t.app.inject({ url: '/v1/protocols/yieldprotocol/reserves', headers: apiKey(key) })
    expect(reserves.statusCode).toBe(200)
    expect(reserves.json().data.vaults).toEqual([body.data])
  })
})
