import type { ContractInfo, NetworkConfig } from '../../chain/network.ts'
import { formatUnits } from '../kit/amounts.ts'
import type { Enrichment, PositionsDeps, Rendered, SnapshotRow, Valuation } from '../kit/protocol-module.ts'
import {
  addPricedAsset,
  createPriceLookup,
  describePrices,
  MISSING_PRICE,
  type Priced,
  toUsd,
  USD_DECIMALS,
} from '../kit/valuation.ts'
import type {
  BalanceKind,
  StoredLendingBalance,
  StoredLendingEmissions,
  StoredLendingItem,
} from './adapt-ledger.ts'
import { renderGroups } from './groups.ts'
import { LENDING } from './id.ts'
import { createCachedPoolReader, lendingContractObject } from './render-support.ts'
import { type PoolReader, type ReserveAt, readReserve, toAssetFromB, toAssetFromD } from './reserves.ts'

export type UsdProblem = 'price_missing' | 'price_stale' | 'rate_missing'

const POSITION_TYPE: Record<BalanceKind, 'supply' | 'collateral' | 'borrow'> = {
  supply: 'supply',
  collateral: 'collateral',
  liabilities: 'borrow',
}

/** Shares of a reserve whose decimals the store never saw are shown with Stellar's usual 7 (and the answer is partial). */
const FALLBACK_DECIMALS = 7

export interface LendingPosition {
  protocol: string
  contract_address: string
  position_type: 'supply' | 'collateral' | 'borrow'
  asset: string | null
  shares: string
  amount: string | null
  amount_usd: string | null
  rate: string | null
  rate_ledger: number | null
  ledger: number
  usd_unavailable_reason: UsdProblem | null
}

/** A balance row valued, with what the pool group needs from it. */
export interface ValuedBalance {
  item: StoredLendingBalance
  reserve: ReserveAt
  decimals: number
  /** From the reserve's `ResConfig` or the network description (else FALLBACK_DECIMALS). */
  decimalsKnown: boolean
  /** Underlying, in the asset's units; null without a rate. */
  amount: bigint | null
  /** USD, 7 decimals (half-even); null when unavailable. */
  usd: bigint | null
  priced: Priced
  problem: UsdProblem | null
}

export interface LendingData {
  address: string
  positions: LendingPosition[]
  groups: unknown[]
}

/**
 * Values one snapshot of an account's Blend positions: one row per (pool, reserve, supply |
 * collateral | borrow) and one group per pool with Blend's health figures and claimable emissions.
 * The snapshot surface converts each balance with the reserve's rates as the contract last wrote
 * them at or before that balance's own `ledger` (so a dormant position reads the same at every
 * pin); `/at` converts the same shares with the rates at or before the pin. Rates are never
 * projected forward: they are exactly what the pool wrote, and `rate_ledger` says when.
 */
export async function renderLendingSnapshot(
  deps: PositionsDeps,
  network: NetworkConfig,
  address: string,
  snapshot: SnapshotRow,
  valuation: Valuation,
): Promise<Rendered> {
  const data: LendingData = { address, positions: [], groups: [] }
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  const rendered: Rendered = { data, enrichment, oracleStalenessS: 0, sources: [], partial: false }
  const stored = JSON.parse(snapshot.positions) as StoredLendingItem[]
  if (stored.length === 0) return rendered

  const pools = new Map(network.contracts.lendingprotocol.map((p) => [p.address, p]))
  const reader = createCachedPoolReader(deps.reader)
  const prices = createPriceLookup(
    deps.reader,
    network,
    valuation.ledger,
    valuation.closeTime,
    deps.maxPriceAgeS,
  )
  const emissions = stored.filter((item): item is StoredLendingEmissions => item.kind === 'emissions')
  const held = stored.filter((item): item is StoredLendingBalance => item.kind !== 'emissions')
  // Every row's reads at once (the cached reader asks each entry once); rows keep the stored order.
  const balances = await Promise.all(
    held.map((item) => {
      const pool = pools.get(item.pool) ?? null
      // The rates in force: at the balance's own ledger (snapshot surface) or at the pin (/at).
      const rateLedger = valuation.atPin ? valuation.ledger : item.ledger
      return readBalance(reader, network, pool, item, rateLedger)
    }),
  )
  for (const valued of balances) {
    // Prices are asked in row order, so sources and enrichment come out in the same order every time.
    await priceBalance(valued, prices.priceOf)
    if (valued.reserve.asset === null || valued.amount === null || !valued.decimalsKnown)
      rendered.partial = true
    data.positions.push(positionRow(valued.item, valued))
    if (valued.reserve.asset !== null)
      addPricedAsset(enrichment, network, valued.reserve.asset, valued.priced, valued.decimals)
  }

  const groups = await renderGroups(reader, network, balances, emissions, valuation)
  for (const group of groups) {
    data.groups.push(group.object)
    if (group.partial) rendered.partial = true
    const pool = pools.get(group.object.contract_address)
    if (pool) enrichment.contracts[pool.address] = lendingContractObject(pool)
  }

  const { stalenessS, sources } = describePrices(await prices.used(), valuation.closeTime)
  rendered.oracleStalenessS = stalenessS
  rendered.sources = sources
  return rendered
}

/** A balance with its reserve and underlying amount; priced by `priceBalance`. */
async function readBalance(
  reader: PoolReader,
  network: NetworkConfig,
  pool: ContractInfo | null,
  item: StoredLendingBalance,
  rateLedger: number,
): Promise<ValuedBalance> {
  const reserve = pool
    ? await readReserve(reader, pool, item.reserve_index, rateLedger)
    : { asset: null, data: null, config: null }
  const known =
    reserve.config?.decimals ?? (reserve.asset === null ? undefined : network.assets[reserve.asset]?.decimals)
  const decimals = known ?? FALLBACK_DECIMALS
  const tokens = BigInt(item.tokens)
  const borrow = item.kind === 'liabilities'
  const rate = reserve.data ? (borrow ? reserve.data.dRate : reserve.data.bRate) : null
  // Blend's own conversions: b-tokens round down, d-tokens round up (pool/src/pool/reserve.rs).
  const amount = rate === null ? null : borrow ? toAssetFromD(tokens, rate) : toAssetFromB(tokens, rate)
  return {
    item,
    reserve,
    decimals,
    decimalsKnown: known !== undefined,
    amount,
    usd: null,
    priced: MISSING_PRICE,
    problem: amount === null ? 'rate_missing' : 'price_missing',
  }
}

async function priceBalance(v: ValuedBalance, priceOf: (asset: string) => Promise<Priced>): Promise<void> {
  if (v.reserve.asset === null) return
  v.priced = await priceOf(v.reserve.asset)
  v.problem = v.amount === null ? 'rate_missing' : v.priced.problem
  v.usd = v.problem === null && v.amount !== null ? toUsd(v.amount, v.decimals, v.priced) : null
}

function positionRow(item: StoredLendingBalance, v: ValuedBalance): LendingPosition {
  const borrow = item.kind === 'liabilities'
  const rate = v.reserve.data ? (borrow ? v.reserve.data.dRate : v.reserve.data.bRate) : null
  return {
    protocol: LENDING,
    contract_address: item.pool,
    position_type: POSITION_TYPE[item.kind],
    asset: v.reserve.asset,
    shares: formatUnits(BigInt(item.tokens), v.decimals),
    amount: v.amount === null ? null : formatUnits(v.amount, v.decimals),
    amount_usd: v.usd === null ? null : formatUnits(v.usd, USD_DECIMALS),
    rate: rate === null ? null : formatUnits(rate, 12),
    rate_ledger: v.reserve.data?.ledger ?? null,
    ledger: item.ledger,
    usd_unavailable_reason: v.problem,
  }
}
