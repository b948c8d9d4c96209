import type { NetworkConfig } from '../chain/network.ts'
import { formatUnits } from '../protocols/kit/amounts.ts'
import type { Enrichment, PositionsDeps, Rendered, TvlSurface } from '../protocols/kit/protocol-module.ts'
import {
  addPricedAsset,
  createPriceLookup,
  describePrices,
  toUsd,
  USD_DECIMALS,
} from '../protocols/kit/valuation.ts'

/**
 * A protocol's total value locked at a ledger: its module says what its contracts hold per asset
 * (`TvlSurface`), priced here with the oracle prices at or before that ledger.
 */

export interface TvlAssetRow {
  asset: string
  locked: string | null
  locked_usd: string | null
  borrowed: string | null
  borrowed_usd: string | null
  usd_unavailable_reason: string | null
}

export interface TvlData {
  ledger: number
  tvl_usd: string | null
  borrowed_usd: string | null
  usd_unavailable_reason: string | null
  assets: TvlAssetRow[]
}

/** The TVL at one ledger, valued; `asOfLedger` is the newest state entry used. */
export async function renderTvl(
  tvl: TvlSurface,
  deps: PositionsDeps,
  network: NetworkConfig,
  ledger: number,
  closeTime: number | null,
): Promise<Rendered & { data: TvlData; asOfLedger: number | null }> {
  const locked = await tvl.lockedAt(deps, network, ledger)
  const prices = createPriceLookup(deps.reader, network, ledger, closeTime, deps.maxPriceAgeS)
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  let total: bigint | null = 0n
  let borrowedTotal: bigint | null = 0n
  // A protocol that lends nothing (AMM pairs, yield vaults) has no borrowed side: null, not zero.
  let borrows = false
  let reason: string | null = null
  const assets: TvlAssetRow[] = []
  for (const row of locked.assets) {
    const info = network.assets[row.asset]
    const priced = info ? await prices.priceOf(row.asset) : null
    const problem = info === undefined ? 'asset_unknown' : priced!.problem
    const usd = (amount: bigint | null) =>
      amount === null || problem !== null ? null : toUsd(amount, info!.decimals, priced!)
    const lockedUsd = usd(row.locked)
    const borrowedUsd = usd(row.borrowed)
    if (row.locked !== null) total = lockedUsd === null || total === null ? null : total + lockedUsd
    if (row.borrowed !== null) borrows = true
    if (row.borrowed !== null)
      borrowedTotal = borrowedUsd === null || borrowedTotal === null ? null : borrowedTotal + borrowedUsd
    // A reason explains a value it nulls: this row's, and a total only through an amount it adds.
    const explains = problem !== null && (row.locked !== null || row.borrowed !== null)
    if (explains) reason ??= problem
    const fmt = (v: bigint | null) => (v === null ? null : formatUnits(v, USD_DECIMALS))
    const amount = (v: bigint | null) =>
      v === null || !info ? (v === null ? null : v.toString()) : formatUnits(v, info.decimals)
    assets.push({
      asset: row.asset,
      locked: amount(row.locked),
      locked_usd: fmt(lockedUsd),
      borrowed: amount(row.borrowed),
      borrowed_usd: fmt(borrowedUsd),
      usd_unavailable_reason: explains ? problem : null,
    })
    if (info && priced) addPricedAsset(enrichment, network, row.asset, priced, info.decimals)
  }
  const held = locked.assets.length > 0
  const { stalenessS, sources } = describePrices(await prices.used(), closeTime)
  const tvlUsd = held && total !== null ? formatUnits(total, USD_DECIMALS) : null
  const borrowedUsd =
    held && borrows && borrowedTotal !== null ? formatUnits(borrowedTotal, USD_DECIMALS) : null
  // The top-level reason says why a top-level value is null; with both known there is nothing to explain.
  const totalsNulled = (held && tvlUsd === null) || (held && borrows && borrowedUsd === null)
  return {
    data: {
      ledger,
      tvl_usd: tvlUsd,
      borrowed_usd: borrowedUsd,
      usd_unavailable_reason: totalsNulled ? reason : null,
      assets,
    },
    enrichment,
    oracleStalenessS: stalenessS,
    sources,
    partial: locked.partial,
    asOfLedger: locked.asOfLedger,
  }
}

export const TVL_INTERVAL_S = { hour: 3600, day: 86_400 } as const
export type TvlInterval = keyof typeof TVL_INTERVAL_S

/**
 * The point of each bucket: its last ledger within [from, to] (ledgers are stored contiguously from
 * the first ingested one, close times never decrease). One binary search on close time per bucket.
 */
export async function bucketPoints(
  closeTime: (ledger: number) => Promise<number | null>,
  from: number,
  to: number,
  interval: TvlInterval,
): Promise<Array<{ start: number; ledger: number }>> {
  const length = TVL_INTERVAL_S[interval]
  const first = await closeTime(from)
  const last = await closeTime(to)
  if (first === null || last === null) return []
  const points: Array<{ start: number; ledger: number }> = []
  let lo = from
  for (let start = first - (first % length); start <= last; start += length) {
    // The last ledger with close time before the bucket's end, searched in [lo, to].
    let a = lo
    let b = to
    let found = -1
    while (a <= b) {
      const mid = Math.floor((a + b) / 2)
      const t = await closeTime(mid)
      if (t !== null && t < start + length) {
        found = mid
        a = mid + 1
      } else b = mid - 1
    }
    if (found >= lo) {
      points.push({ start, ledger: found })
      lo = found + 1
    }
    if (lo > to) break
  }
  return points
}
