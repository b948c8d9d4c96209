import type { NetworkConfig, PriceFeedRef, PricePeg } from '../../chain/network.ts'
import type { PositionsReader, PriceRow } from '../../store/positions-read.ts'
import { divHalfEven, formatUnits, pow10 } from './amounts.ts'
import type { Enrichment } from './protocol-module.ts'

/** USD values are reported with 7 decimals. */
export const USD_DECIMALS = 7

export type PriceProblem = 'price_missing' | 'price_stale'

/** A USD price as used for one answer: `price` in units of 10^-decimals USD, and why it is unusable if it is. */
export interface Priced {
  price: bigint
  decimals: number
  row: PriceRow | null
  /** The oracle feed it came from, when one did. */
  feed: string | null
  /** The currency the network description declares the asset pegged to, when it is priced so. */
  peg?: PricePeg | null
  problem: PriceProblem | null
}

export const MISSING_PRICE: Priced = {
  price: 0n,
  decimals: 0,
  row: null,
  feed: null,
  problem: 'price_missing',
}

/**
 * amount (in units of 10^-amountDecimals) × price (10^-price.decimals USD) → USD with 7 decimals,
 * rounded half-even once.
 */
export function toUsd(amount: bigint, amountDecimals: number, priced: Priced): bigint {
  const shift = amountDecimals + priced.decimals - USD_DECIMALS
  const product = amount * priced.price
  return shift >= 0 ? divHalfEven(product, pow10(shift)) : product * pow10(-shift)
}

/** An asset declared pegged: exactly one unit of the currency, USD being the unit of every value. */
export function pegPrice(peg: PricePeg): Priced {
  return { price: 1n, decimals: 0, row: null, feed: null, peg, problem: null }
}

/** Where the network description says an asset's USD price comes from: one feed, a declared peg, or nowhere. */
export type PriceSource = { feed: PriceFeedRef; peg: null } | { feed: null; peg: PricePeg } | null

/**
 * The one rule of where a price comes from, for every answer: the feed the description names for
 * the asset, or the peg it declares; nothing else (no symbol, tag or denomination is read).
 */
export function priceSourceOf(network: NetworkConfig, asset: string): PriceSource {
  const info = network.assets[asset]
  if (info?.price_feed) return { feed: info.price_feed, peg: null }
  if (info?.price_peg) return { feed: null, peg: info.price_peg }
  return null
}

/** `enrichment.assets[id].price_source`: the oracle feed's contract, `peg:USD`, or null when no price was used. */
export function priceSourceLabel(priced: Priced): string | null {
  if (priced.row) return priced.feed
  return priced.peg && priced.problem === null ? `peg:${priced.peg}` : null
}

/** A stored price judged at a ledger's close time: older than `maxAgeS` is stale. */
export function judgePrice(
  row: PriceRow | null,
  feed: string,
  closeTime: number | null,
  maxAgeS: number,
): Priced {
  if (!row) return { price: 0n, decimals: 0, row: null, feed, problem: 'price_missing' }
  const ageS = closeTime === null ? 0 : closeTime - Math.floor(row.timestamp_ms / 1000)
  return {
    price: BigInt(row.price),
    decimals: row.decimals,
    row,
    feed,
    problem: ageS > maxAgeS ? 'price_stale' : null,
  }
}

/**
 * USD prices of the network description's assets at one ledger, each through the source the
 * description names for it (`priceSourceOf`); asked once per asset per answer. Every answer that
 * values an asset prices it here, so an asset priced in one answer is priced alike in all.
 */
export function createPriceLookup(
  reader: PositionsReader,
  network: NetworkConfig,
  ledger: number,
  closeTime: number | null,
  maxAgeS: number,
): { priceOf(asset: string): Promise<Priced>; used(): Promise<Priced[]> } {
  const prices = new Map<string, Promise<Priced>>()
  return {
    priceOf(asset) {
      let priced = prices.get(asset)
      if (!priced) {
        const source = priceSourceOf(network, asset)
        const feed = source?.feed
        priced = feed
          ? Promise.resolve(reader.priceAt(feed.oracle, feed.asset, ledger)).then((row) =>
              judgePrice(row, feed.oracle, closeTime, maxAgeS),
            )
          : Promise.resolve(source?.peg ? pegPrice(source.peg) : MISSING_PRICE)
        prices.set(asset, priced)
      }
      return priced
    },
    used: () => Promise.all(prices.values()),
  }
}

/** `meta.oracle_staleness_seconds` and the oracle sources of the prices an answer used. */
export function describePrices(
  used: readonly Priced[],
  closeTime: number | null,
): { stalenessS: number; sources: string[] } {
  const timestamps = used.flatMap((p) => (p.row ? [Math.floor(p.row.timestamp_ms / 1000)] : []))
  const sources = [...new Set(used.flatMap((p) => (p.row && p.feed ? [p.feed] : [])))].map(
    (f) => `oracle:${f}`,
  )
  const stalenessS =
    timestamps.length > 0 && closeTime !== null ? Math.max(0, closeTime - Math.min(...timestamps)) : 0
  return { stalenessS, sources }
}

/**
 * Adds an asset to an answer's enrichment once, with the price the answer used for it; `decimals`
 * applies when the network description does not list the asset.
 */
export function addPricedAsset(
  enrichment: Enrichment,
  network: NetworkConfig,
  asset: string,
  priced: Priced,
  decimals = 7,
): void {
  if (enrichment.assets[asset]) return
  const info = network.assets[asset]
  enrichment.assets[asset] = {
    decimals: info?.decimals ?? decimals,
    price_source: priceSourceLabel(priced),
    price_usd: priced.problem === 'price_missing' ? null : formatUnits(priced.price, priced.decimals),
    symbol: info?.symbol ?? asset,
    tags: info?.tags ?? [],
  }
}
