import type { ContractInfo, NetworkConfig } from '../../chain/network.ts'
import { divCeil, formatUnits, pow10 } from '../../positions/amounts.ts'
import { historyComplete } from '../../positions/coverage.ts'
import { judgePrice, MISSING_PRICE, type Priced, toUsd, USD_DECIMALS } from '../../positions/valuation.ts'
import type { PositionsReader, SnapshotRow } from '../../store/positions-read.ts'
import type { PositionsDeps, PositionsQuery } from '../protocol-module.ts'
import type { BalanceKind, StoredLendingBalance } from './adapt-ledger.ts'
import { type PoolReader, readReserve, type ReserveAt, SCALAR_7, SCALAR_12 } from './reserves.ts'

export const LENDING_PROTOCOL = 'lendingprotocol'

/** Ratios (health factor, borrow limit) are reported with 7 decimals, rounded down. */
const RATIO_DECIMALS = 7

type UsdProblem = 'price_missing' | 'price_stale' | 'rate_missing'
type GroupProblem = UsdProblem | 'config_missing'

const POSITION_TYPE: Record<BalanceKind, 'supply' | 'collateral' | 'borrow'> = {
  supply: 'supply',
  collateral: 'collateral',
  liabilities: 'borrow',
}

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

export interface LendingGroup {
  contract_address: string
  collateral_usd: string | null
  supplied_usd: string | null
  borrowed_usd: string | null
  effective_collateral_usd: string | null
  effective_liabilities_usd: string | null
  borrow_limit: string | null
  health_factor: string | null
  usd_unavailable_reason: GroupProblem | null
}

export interface LendingPositionsResponse {
  data: { address: string; positions: LendingPosition[]; groups: LendingGroup[] }
  enrichment: {
    assets: Record<string, { decimals: number; price_source: string | null; price_usd: string | null; symbol: string; tags: string[] }>
    contracts: Record<string, { name: string; position_types: string[]; protocol: string; status: string; version: string }>
  }
  meta: {
    requested_ledger: number | bigint | null
    as_of_ledger: number | null
    attribution_confidence: number
    data_staleness_seconds: number | null
    last_indexed_ledger: number | null
    indexed_from_ledger: number | null
    oracle_staleness_seconds: number
    partial_result: boolean
    response_time_ms: number
    sources: string[]
  }
}

/** Per-pool sums, in USD with 7 decimals; null once any part is unknown. */
interface GroupSums {
  collateral: bigint | null
  supplied: bigint | null
  borrowed: bigint | null
  effectiveCollateral: bigint | null
  effectiveLiabilities: bigint | null
  problem: GroupProblem | null
}

const add = (sum: bigint | null, value: bigint | null): bigint | null =>
  sum === null || value === null ? null : sum + value

/**
 * Answers "which Blend positions did this address hold at ledger P": the latest snapshot at or
 * before P, one row per (pool, reserve, supply|collateral|borrow), and one group per pool with
 * Blend's health figures. The snapshot surface converts each balance with the reserve's rates as
 * the contract last wrote them at or before that balance's own ledger (so a dormant position reads
 * the same at every pin); `/at` converts the same shares with the rates at or before the pin.
 */
export async function getLendingPositions(
  deps: PositionsDeps,
  query: PositionsQuery,
): Promise<LendingPositionsResponse> {
  const { reader, network } = deps
  const head = await reader.head()
  const last = head.lastIndexedLedger
  const response: LendingPositionsResponse = {
    data: { address: query.address, positions: [], groups: [] },
    enrichment: { assets: {}, contracts: {} },
    meta: {
      requested_ledger: query.pin,
      as_of_ledger: null,
      attribution_confidence: 1,
      data_staleness_seconds:
        head.lastCloseTime === null ? null : Math.max(0, deps.nowS - head.lastCloseTime),
      last_indexed_ledger: last,
      indexed_from_ledger: head.firstIndexedLedger,
      oracle_staleness_seconds: 0,
      partial_result: last === null || (query.pin !== null && BigInt(query.pin) > BigInt(last)),
      response_time_ms: 0,
      sources: network ? [`ledgers:${network.name}`] : [],
    },
  }
  if (last === null || network === null) return response
  const effective = query.pin === null || BigInt(query.pin) > BigInt(last) ? last : Number(query.pin)
  const pools = network.contracts.lendingprotocol
  if (pools.some((pool) => !historyComplete(pool, head.firstIndexedLedger, effective))) {
    response.meta.partial_result = true
  }
  const snapshot = await reader.snapshotAt(LENDING_PROTOCOL, query.address, effective)
  if (!snapshot) return response
  await renderLendingSnapshot(deps, network, snapshot, effective, query.atPin, response)
  return response
}

/** Fills `response` from one snapshot: rows, groups, enrichment, and the meta that depends on them. */
export async function renderLendingSnapshot(
  deps: PositionsDeps,
  network: NetworkConfig,
  snapshot: SnapshotRow,
  pin: number,
  atPin: boolean,
  response: LendingPositionsResponse,
): Promise<void> {
  const { reader } = deps
  response.meta.as_of_ledger = snapshot.ledger
  const stored = JSON.parse(snapshot.positions) as StoredLendingBalance[]
  if (stored.length === 0) return

  const valuationLedger = atPin ? pin : snapshot.ledger
  const closeTime = atPin ? await reader.closeTime(valuationLedger) : snapshot.close_time
  const pools = new Map(network.contracts.lendingprotocol.map((p) => [p.address, p]))
  const poolReader = createCachedPoolReader(reader)
  const prices = new Map<string, Promise<Priced>>()
  const priceOf = (asset: string): Promise<Priced> => {
    let priced = prices.get(asset)
    if (!priced) {
      const feed = network.assets[asset]?.price_feed ?? null
      priced = feed
        ? reader
            .priceAt(feed.oracle, feed.asset, valuationLedger)
            .then((row) => judgePrice(row, feed.oracle, closeTime, deps.maxPriceAgeS))
        : Promise.resolve(MISSING_PRICE)
      prices.set(asset, priced)
    }
    return priced
  }

  const groups = new Map<string, GroupSums>()
  for (const item of stored) {
    const pool = pools.get(item.pool)
    // The rates in force: at the balance's own ledger (snapshot surface) or at the pin (/at).
    const rateLedger = atPin ? pin : item.ledger
    const reserve = await readReserve(poolReader, pool ?? null, item.pool, item.reserve_index, rateLedger)
    const tokens = BigInt(item.tokens)
    const decimals = reserve.decimals ?? decimalsOf(network, reserve.asset)
    const borrow = item.kind === 'liabilities'
    const rate = reserve.data ? (borrow ? reserve.data.dRate : reserve.data.bRate) : null
    if (reserve.asset === null || rate === null) response.meta.partial_result = true
    // Blend's own conversions: b-tokens round down, d-tokens round up (pool/src/pool/reserve.rs).
    const amount =
      rate === null ? null : borrow ? divCeil(tokens * rate, SCALAR_12) : (tokens * rate) / SCALAR_12
    const priced = reserve.asset === null ? MISSING_PRICE : await priceOf(reserve.asset)
    const problem: UsdProblem | null = amount === null ? 'rate_missing' : priced.problem
    const usd = problem === null && amount !== null ? toUsd(amount, decimals, priced) : null
    response.data.positions.push({
      protocol: LENDING_PROTOCOL,
      contract_address: item.pool,
      position_type: POSITION_TYPE[item.kind],
      asset: reserve.asset,
      shares: formatUnits(tokens, decimals),
      amount: amount === null ? null : formatUnits(amount, decimals),
      amount_usd: usd === null ? null : formatUnits(usd, USD_DECIMALS),
      rate: rate === null ? null : formatUnits(rate, 12),
      rate_ledger: reserve.data?.ledger ?? null,
      ledger: item.ledger,
      usd_unavailable_reason: problem,
    })
    if (reserve.asset !== null) addAsset(response, network, reserve.asset, priced)

    const sums = groups.get(item.pool) ?? {
      collateral: 0n,
      supplied: 0n,
      borrowed: 0n,
      effectiveCollateral: 0n,
      effectiveLiabilities: 0n,
      problem: null,
    }
    groups.set(item.pool, sums)
    if (problem !== null) sums.problem ??= problem
    if (item.kind === 'supply') sums.supplied = add(sums.supplied, usd)
    if (item.kind === 'collateral') {
      sums.collateral = add(sums.collateral, usd)
      const factor = reserve.config?.cFactor ?? null
      if (factor === null) sums.problem ??= 'config_missing'
      sums.effectiveCollateral =
        amount === null || factor === null || problem !== null
          ? null
          : add(sums.effectiveCollateral, usdDown((amount * factor) / SCALAR_7, decimals, priced))
    }
    if (borrow) {
      sums.borrowed = add(sums.borrowed, usd)
      const factor = reserve.config?.lFactor ?? null
      if (factor === null || factor === 0n) sums.problem ??= 'config_missing'
      sums.effectiveLiabilities =
        amount === null || factor === null || factor === 0n || problem !== null
          ? null
          : add(sums.effectiveLiabilities, usdUp(divCeil(amount * SCALAR_7, factor), decimals, priced))
    }
  }

  for (const [address, sums] of groups) {
    const { effectiveCollateral: ec, effectiveLiabilities: el } = sums
    response.data.groups.push({
      contract_address: address,
      collateral_usd: usdString(sums.collateral),
      supplied_usd: usdString(sums.supplied),
      borrowed_usd: usdString(sums.borrowed),
      effective_collateral_usd: usdString(ec),
      effective_liabilities_usd: usdString(el),
      borrow_limit:
        ec === null || el === null || ec === 0n ? null : formatUnits((el * pow10(RATIO_DECIMALS)) / ec, RATIO_DECIMALS),
      health_factor:
        ec === null || el === null || el === 0n ? null : formatUnits((ec * pow10(RATIO_DECIMALS)) / el, RATIO_DECIMALS),
      usd_unavailable_reason: sums.problem,
    })
    const pool = pools.get(address)
    if (pool) response.enrichment.contracts[address] = contractObject(pool)
  }

  const used = await Promise.all(prices.values())
  const timestamps = used.flatMap((p) => (p.row ? [Math.floor(p.row.timestamp_ms / 1000)] : []))
  for (const feed of new Set(used.flatMap((p) => (p.row && p.feed ? [p.feed] : [])))) {
    response.meta.sources.push(`oracle:${feed}`)
  }
  if (timestamps.length > 0 && closeTime !== null) {
    response.meta.oracle_staleness_seconds = Math.max(0, closeTime - Math.min(...timestamps))
  }
}

/** An amount in USD with 7 decimals rounded down (Blend counts collateral down). */
function usdDown(amount: bigint, decimals: number, priced: Priced): bigint {
  const shift = decimals + priced.decimals - USD_DECIMALS
  const product = amount * priced.price
  return shift >= 0 ? product / pow10(shift) : product * pow10(-shift)
}

/** An amount in USD with 7 decimals rounded up (Blend counts liabilities up). */
function usdUp(amount: bigint, decimals: number, priced: Priced): bigint {
  const shift = decimals + priced.decimals - USD_DECIMALS
  const product = amount * priced.price
  return shift >= 0 ? divCeil(product, pow10(shift)) : product * pow10(-shift)
}

function usdString(value: bigint | null): string | null {
  return value === null ? null : formatUnits(value, USD_DECIMALS)
}

function decimalsOf(network: NetworkConfig, asset: string | null): number {
  return (asset === null ? undefined : network.assets[asset]?.decimals) ?? 7
}

function contractObject(c: ContractInfo) {
  return { name: c.name, position_types: c.position_types, protocol: c.protocol, status: c.status, version: c.version }
}

function addAsset(response: LendingPositionsResponse, network: NetworkConfig, asset: string, priced: Priced): void {
  if (response.enrichment.assets[asset]) return
  const info = network.assets[asset]
  response.enrichment.assets[asset] = {
    decimals: info?.decimals ?? 7,
    price_source: priced.row ? priced.feed : null,
    price_usd: priced.problem === 'price_missing' ? null : formatUnits(priced.price, priced.decimals),
    symbol: info?.symbol ?? asset,
    tags: info?.tags ?? [],
  }
}

/** Contract-state reads for one answer, each asked once. */
function createCachedPoolReader(reader: PositionsReader): PoolReader {
  const cache = new Map<string, ReturnType<PoolReader['stateAt']>>()
  return {
    stateAt(contract, key, ledger) {
      const id = `${contract}\u0000${key}\u0000${ledger}`
      let found = cache.get(id)
      if (!found) {
        found = reader.stateAt(contract, key, ledger)
        cache.set(id, found)
      }
      return found
    },
  }
}

export type { ReserveAt }
