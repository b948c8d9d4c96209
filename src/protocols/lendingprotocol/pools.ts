import type { ContractInfo, NetworkConfig } from '../../chain/network.ts'
import { formatUnits } from '../kit/amounts.ts'
import { historyComplete as poolHistoryComplete } from '../kit/coverage.ts'
import type { Enrichment, PositionsDeps, Rendered, StateQuery } from '../kit/protocol-module.ts'
import { addPricedAsset, createPriceLookup, describePrices, toUsd, USD_DECIMALS } from '../kit/valuation.ts'
import { STATE } from './adapt-ledger.ts'
import { bTokenId, dTokenId, emissionDataAt, poolSharesAt } from './emissions.ts'
import { type EmissionAprProblem, emissionApr, type RatesProblem, reserveRates } from './rates.ts'
import { createCachedPoolReader, isoFromEpochS, lendingContractObject } from './render-support.ts'
import {
  type PoolConfig,
  type PoolReader,
  parsePoolConfig,
  readReserveOf,
  reserveAssetsAt,
  reserveTotals,
} from './reserves.ts'

/** pool/src/pool/status.rs: who set the status and what it allows. */
const STATUS_NAMES = ['admin_active', 'active', 'admin_on_ice', 'on_ice', 'admin_frozen', 'frozen', 'setup']

const f7 = (value: bigint) => formatUnits(value, 7)
const f7OrNull = (value: bigint | null) => (value === null ? null : f7(value))
const usdOf = (value: bigint | null) => (value === null ? null : formatUnits(value, USD_DECIMALS))

export interface ReserveObject {
  contract_address: string
  asset: string
  index: number | null
  decimals: number | null
  enabled: boolean | null
  c_factor: string | null
  l_factor: string | null
  target_utilization: string | null
  max_utilization: string | null
  r_base: string | null
  r_one: string | null
  r_two: string | null
  r_three: string | null
  reactivity: string | null
  supply_cap: string | null
  b_rate: string | null
  d_rate: string | null
  b_supply: string | null
  d_supply: string | null
  backstop_credit: string | null
  supplied: string | null
  borrowed: string | null
  utilization: string | null
  borrow_apr: string | null
  supply_apr: string | null
  borrow_apy: string | null
  supply_apy: string | null
  rates_unavailable_reason: RatesProblem | null
  supply_emission_apr: string | null
  supply_emission_apr_unavailable_reason: EmissionAprProblem | null
  borrow_emission_apr: string | null
  borrow_emission_apr_unavailable_reason: EmissionAprProblem | null
  computed_ledger: number
  ir_mod: string | null
  last_accrued_at: string | null
  rate_ledger: number | null
  config_ledger: number | null
  supplied_usd: string | null
  borrowed_usd: string | null
  usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
}

interface PoolState {
  reserves: ReserveObject[]
  config: PoolConfig | null
  name: { value: string; ledger: number } | null
  suppliedUsd: bigint | null
  borrowedUsd: bigint | null
  asOfLedger: number | null
  partial: boolean
}

/** What every pool of one answer is read with. */
interface PoolContext {
  reader: PoolReader
  network: NetworkConfig
  query: StateQuery
  /** The store's first ledger: an entry absent from a history it holds whole is absent on chain too. */
  firstIndexed: number | null
  priceOf: ReturnType<typeof createPriceLookup>['priceOf']
  enrichment: Enrichment
}

const maxLedger = (a: number | null, b: number | null | undefined) =>
  b === null || b === undefined ? a : a === null ? b : Math.max(a, b)

/** A pool's config and every reserve at a ledger, each entry as the pool last wrote it. */
async function readPool(ctx: PoolContext, pool: ContractInfo): Promise<PoolState> {
  const { reader, network, query, priceOf, enrichment } = ctx
  const ledger = query.ledger
  const [configRow, nameRow, tokenRow] = await Promise.all([
    reader.stateAt(pool.address, STATE.config, ledger),
    reader.stateAt(pool.address, STATE.name, ledger),
    reader.stateAt(pool.address, STATE.emissionToken, ledger),
  ])
  const config = configRow ? parsePoolConfig(configRow) : null
  const blnd = tokenRow ? String(JSON.parse(tokenRow.value)) : null
  const historyComplete = poolHistoryComplete(pool, ctx.firstIndexed, ledger)
  const state: PoolState = {
    reserves: [],
    config,
    name: nameRow ? { value: String(JSON.parse(nameRow.value)), ledger: nameRow.ledger } : null,
    suppliedUsd: 0n,
    borrowedUsd: 0n,
    asOfLedger: maxLedger(config?.ledger ?? null, nameRow?.ledger),
    partial: false,
  }
  for (const [index, asset] of await reserveAssetsAt(reader, pool, ledger)) {
    const { data, config: rc } = await readReserveOf(reader, pool.address, asset, ledger)
    state.asOfLedger = maxLedger(maxLedger(state.asOfLedger, data?.ledger), rc?.ledger)
    const decimals = rc?.decimals ?? network.assets[asset]?.decimals ?? null
    if (data === null || rc === null || config === null) state.partial = true
    const totals = data ? reserveTotals(data) : null
    const rates = reserveRates(rc, data, config?.bstopRate ?? null)
    const units = (v: bigint | undefined) =>
      v === undefined || decimals === null ? null : formatUnits(v, decimals)
    const priced = await priceOf(asset)
    const problem = totals === null || decimals === null ? ('rate_missing' as const) : priced.problem
    const usd = (v: bigint | undefined) => (problem || v === undefined ? null : toUsd(v, decimals!, priced))
    const suppliedUsd = usd(totals?.supplied)
    const borrowedUsd = usd(totals?.borrowed)
    state.suppliedUsd =
      suppliedUsd === null || state.suppliedUsd === null ? null : state.suppliedUsd + suppliedUsd
    state.borrowedUsd =
      borrowedUsd === null || state.borrowedUsd === null ? null : state.borrowedUsd + borrowedUsd
    addPricedAsset(enrichment, network, asset, priced, decimals ?? 7)
    const emissionOf = async (side: 'supply' | 'borrow') => {
      const id = side === 'supply' ? bTokenId(index) : dTokenId(index)
      const result = await emissionApr({
        emission: await emissionDataAt(reader, pool.address, id, ledger),
        historyComplete,
        data,
        side,
        decimals,
        closeTime: query.closeTime,
        tokenKnown: blnd !== null,
        assetPrice: async () => priced,
        blndPrice: async () => {
          const p = await priceOf(blnd!)
          addPricedAsset(enrichment, network, blnd!, p)
          return p
        },
      })
      if (result.problem === 'emissions_missing') state.partial = true
      return result
    }
    const supplyEmission = await emissionOf('supply')
    const borrowEmission = await emissionOf('borrow')
    state.reserves.push({
      contract_address: pool.address,
      asset,
      index: rc?.index ?? index,
      decimals,
      enabled: rc?.enabled ?? null,
      c_factor: rc ? f7(rc.cFactor) : null,
      l_factor: rc ? f7(rc.lFactor) : null,
      target_utilization: rc ? f7(rc.util) : null,
      max_utilization: rc ? f7(rc.maxUtil) : null,
      r_base: rc ? f7(rc.rBase) : null,
      r_one: rc ? f7(rc.rOne) : null,
      r_two: rc ? f7(rc.rTwo) : null,
      r_three: rc ? f7(rc.rThree) : null,
      reactivity: rc ? f7(rc.reactivity) : null,
      supply_cap: rc?.supplyCap == null ? null : units(rc.supplyCap),
      b_rate: data ? formatUnits(data.bRate, 12) : null,
      d_rate: data ? formatUnits(data.dRate, 12) : null,
      b_supply: units(data?.bSupply),
      d_supply: units(data?.dSupply),
      backstop_credit: units(data?.backstopCredit),
      supplied: units(totals?.supplied),
      borrowed: units(totals?.borrowed),
      utilization: f7OrNull(rates.util),
      borrow_apr: f7OrNull(rates.borrowApr),
      supply_apr: f7OrNull(rates.supplyApr),
      borrow_apy: f7OrNull(rates.borrowApy),
      supply_apy: f7OrNull(rates.supplyApy),
      rates_unavailable_reason: rates.problem,
      supply_emission_apr: f7OrNull(supplyEmission.apr),
      supply_emission_apr_unavailable_reason: supplyEmission.problem,
      borrow_emission_apr: f7OrNull(borrowEmission.apr),
      borrow_emission_apr_unavailable_reason: borrowEmission.problem,
      computed_ledger: ledger,
      ir_mod: data ? f7(data.irMod) : null,
      last_accrued_at: data ? isoFromEpochS(data.lastTime) : null,
      rate_ledger: data?.ledger ?? null,
      config_ledger: rc?.ledger ?? null,
      supplied_usd: usdOf(suppliedUsd),
      borrowed_usd: usdOf(borrowedUsd),
      usd_unavailable_reason: problem,
    })
  }
  if (state.reserves.length === 0) {
    state.suppliedUsd = null
    state.borrowedUsd = null
  }
  return state
}

function configObject(config: PoolConfig | null) {
  if (config === null) return null
  return {
    oracle: config.oracle,
    bstop_rate: f7(config.bstopRate),
    status: config.status,
    status_name: STATUS_NAMES[config.status] ?? null,
    max_positions: config.maxPositions,
    min_collateral: config.minCollateral.toString(),
    ledger: config.ledger,
  }
}

type StateRendered = Rendered & { asOfLedger: number | null }

async function createPoolContext(
  deps: PositionsDeps,
  network: NetworkConfig,
  query: StateQuery,
  enrichment: Enrichment,
): Promise<{ ctx: PoolContext; prices: ReturnType<typeof createPriceLookup> }> {
  const prices = createPriceLookup(deps.reader, network, query.ledger, query.closeTime, deps.maxPriceAgeS)
  const head = await deps.reader.head()
  const ctx: PoolContext = {
    reader: createCachedPoolReader(deps.reader),
    network,
    query,
    firstIndexed: head.firstIndexedLedger,
    priceOf: prices.priceOf,
    enrichment,
  }
  return { ctx, prices }
}

/** `GET /v1/protocols/lendingprotocol/pools/{pool}`: the pool's config and reserves at a ledger. */
export async function renderPool(
  deps: PositionsDeps,
  network: NetworkConfig,
  pool: ContractInfo,
  query: StateQuery,
): Promise<StateRendered> {
  const enrichment: Enrichment = { assets: {}, contracts: { [pool.address]: lendingContractObject(pool) } }
  const { ctx, prices } = await createPoolContext(deps, network, query, enrichment)
  const state = await readPool(ctx, pool)
  const { stalenessS, sources } = describePrices(await prices.used(), query.closeTime)
  return {
    data: {
      contract_address: pool.address,
      name: state.name?.value ?? pool.name,
      config: configObject(state.config),
      reserves: state.reserves,
      supplied_usd: usdOf(state.suppliedUsd),
      borrowed_usd: usdOf(state.borrowedUsd),
    },
    enrichment,
    oracleStalenessS: stalenessS,
    sources,
    partial: state.partial,
    asOfLedger: state.asOfLedger,
  }
}

/** `GET /v1/protocols/lendingprotocol/reserves`: every pool's reserves at a ledger. */
export async function renderReserves(
  deps: PositionsDeps,
  network: NetworkConfig,
  query: StateQuery,
): Promise<StateRendered> {
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  const { ctx, prices } = await createPoolContext(deps, network, query, enrichment)
  const reserves: ReserveObject[] = []
  let asOfLedger: number | null = null
  let partial = false
  for (const pool of network.contracts.lendingprotocol) {
    const state = await readPool(ctx, pool)
    if (state.reserves.length === 0) continue
    enrichment.contracts[pool.address] = lendingContractObject(pool)
    reserves.push(...state.reserves)
    asOfLedger = maxLedger(asOfLedger, state.asOfLedger)
    partial ||= state.partial
  }
  const { stalenessS, sources } = describePrices(await prices.used(), query.closeTime)
  return { data: { reserves }, enrichment, oracleStalenessS: stalenessS, sources, partial, asOfLedger }
}

/**
 * `GET /v1/protocols/lendingprotocol/emissions`: each pool's reserve tokens that emit BLND, their
 * `EmisData` as last written at or before the ledger (not projected) and their share of the pool's
 * emissions (`PoolEmis`).
 */
export async function renderEmissions(
  deps: PositionsDeps,
  network: NetworkConfig,
  query: StateQuery,
): Promise<StateRendered> {
  const reader = createCachedPoolReader(deps.reader)
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  const emissions: unknown[] = []
  let asOfLedger: number | null = null
  for (const pool of network.contracts.lendingprotocol) {
    const shares = await poolSharesAt(reader, pool.address, query.ledger)
    for (const [index, asset] of await reserveAssetsAt(reader, pool, query.ledger)) {
      for (const id of [dTokenId(index), bTokenId(index)]) {
        const data = await emissionDataAt(reader, pool.address, id, query.ledger)
        if (data === null) continue
        asOfLedger = maxLedger(asOfLedger, data.ledger)
        enrichment.contracts[pool.address] = lendingContractObject(pool)
        emissions.push({
          contract_address: pool.address,
          reserve_token_id: id,
          asset,
          token_type: id % 2 === 0 ? 'd_token' : 'b_token',
          share: shares.has(id) ? f7(shares.get(id)!) : null,
          eps: formatUnits(data.eps, 14),
          expires_at: isoFromEpochS(data.expiration),
          index: formatUnits(data.index, 14),
          index_updated_at: isoFromEpochS(data.lastTime),
          ledger: data.ledger,
        })
      }
    }
  }
  return { data: { emissions }, enrichment, oracleStalenessS: 0, sources: [], partial: false, asOfLedger }
}
