/**
 * What the protocols and pools pages ask the API, in one place: the protocols list (every page of
 * it), a protocol's TVL now and as a series, its pools (reserves), one pool at a ledger, and a
 * pool's own series sampled at ledgers (the TVL endpoint answers per protocol, not per pool).
 */
import type { components } from '@strata/client'
import { data, unwrap } from './api.ts'
import { mapLimited, spreadLedgers } from './sampling.ts'

export type ProtocolEntry = components['schemas']['ListProtocolsResponseDataItem']
export type ContractEntry = components['schemas']['ListProtocolsResponseDataItemContract']
export type TvlState = components['schemas']['TvlAnswer']
export type TvlSeries = components['schemas']['TvlSeriesAnswer']
export type LendingPool = components['schemas']['PoolAnswerLending']
export type AmmPool = components['schemas']['PoolAnswerAmm']
export type YieldPool = components['schemas']['PoolAnswerYield']
export type Enrichment = components['schemas']['Enrichment']

/** The protocols this console knows how to show; their endpoints are literal paths. */
export const PROTOCOLS = ['vaultprotocol', 'lendingprotocol', 'ammprotocol', 'yieldprotocol'] as const
export type ProtocolName = (typeof PROTOCOLS)[number]
/** The protocols with pools (a reserves endpoint and a pool endpoint). */
export type PoolProtocol = Exclude<ProtocolName, 'vaultprotocol'>

export function isProtocol(name: string): name is ProtocolName {
  return (PROTOCOLS as readonly string[]).includes(name)
}

export function hasPools(name: ProtocolName): name is PoolProtocol {
  return name !== 'vaultprotocol'
}

/** What each kind of pool is called on the page. */
export const POOL_NOUN: Record<PoolProtocol, { one: string; many: string }> = {
  lendingprotocol: { one: 'Blend pool', many: 'Blend pools' },
  ammprotocol: { one: 'Soroswap pair', many: 'Soroswap pairs' },
  yieldprotocol: { one: 'DeFindex vault', many: 'DeFindex vaults' },
}

/** Every protocol, following `next_cursor` to the last page. */
export async function listProtocols(): Promise<{
  protocols: ProtocolEntry[]
  lastIndexedLedger: number | null
}> {
  const protocols: ProtocolEntry[] = []
  let cursor: string | undefined
  let lastIndexedLedger: number | null = null
  for (let page = 0; page < 50; page++) {
    const answer = await unwrap(
      data.GET('/v1/protocols', { params: { query: cursor ? { limit: 100, cursor } : { limit: 100 } } }),
    )
    protocols.push(...answer.data)
    lastIndexedLedger = answer.meta.last_indexed_ledger ?? lastIndexedLedger
    if (!answer.meta.next_cursor) break
    cursor = answer.meta.next_cursor
  }
  return { protocols, lastIndexedLedger }
}

/** The protocol's TVL at a ledger (the head when none), in the state shape. */
export function loadTvl(protocol: ProtocolName, ledger: number | null): Promise<TvlState> {
  const query = ledger === null ? {} : { as_of_ledger: ledger }
  const call = {
    vaultprotocol: () => data.GET('/v1/protocols/vaultprotocol/tvl', { params: { query } }),
    lendingprotocol: () => data.GET('/v1/protocols/lendingprotocol/tvl', { params: { query } }),
    ammprotocol: () => data.GET('/v1/protocols/ammprotocol/tvl', { params: { query } }),
    yieldprotocol: () => data.GET('/v1/protocols/yieldprotocol/tvl', { params: { query } }),
  }[protocol]
  return unwrap(call()) as Promise<TvlState>
}

/**
 * Ledgers close about every 5 seconds: about 720 an hour. An hourly series has at most 1000
 * buckets, so a range longer than about 900 hours is asked for by day.
 */
export const LEDGERS_PER_HOUR = 720
export function seriesInterval(fromLedger: number, toLedger: number): 'hour' | 'day' {
  return toLedger - fromLedger <= 900 * LEDGERS_PER_HOUR ? 'hour' : 'day'
}

/** The protocol's TVL series over `fromLedger..toLedger`, one point per hour or day. */
export function loadTvlSeries(
  protocol: ProtocolName,
  fromLedger: number,
  toLedger: number,
): Promise<TvlSeries> {
  const query = {
    from_ledger: fromLedger,
    to_ledger: toLedger,
    interval: seriesInterval(fromLedger, toLedger),
  }
  const call = {
    vaultprotocol: () => data.GET('/v1/protocols/vaultprotocol/tvl', { params: { query } }),
    lendingprotocol: () => data.GET('/v1/protocols/lendingprotocol/tvl', { params: { query } }),
    ammprotocol: () => data.GET('/v1/protocols/ammprotocol/tvl', { params: { query } }),
    yieldprotocol: () => data.GET('/v1/protocols/yieldprotocol/tvl', { params: { query } }),
  }[protocol]
  return unwrap(call()) as Promise<TvlSeries>
}

/** One row of a protocol's pools list, whatever the protocol. */
export interface PoolSummary {
  address: string
  name: string
  /** The assets, as symbols where the answer names them. */
  assets: string[]
  /** The pool's USD figure the list shows (TVL, or supplied for a lending pool); null is unknown. */
  usd: string | null
  usdReason: string | null
}

function symbolOf(enrichment: Enrichment | undefined, asset: string | null): string {
  if (!asset) return '—'
  return enrichment?.assets[asset]?.symbol ?? asset
}

function nameOf(enrichment: Enrichment | undefined, address: string): string {
  return enrichment?.contracts[address]?.name ?? address
}

/** The protocol's pools at a ledger (the head when none): Blend pools, Soroswap pairs or DeFindex vaults. */
export async function loadPools(
  protocol: PoolProtocol,
  ledger: number | null,
): Promise<{ pools: PoolSummary[]; asOfLedger: number | null }> {
  const query = ledger === null ? {} : { as_of_ledger: ledger }
  if (protocol === 'lendingprotocol') {
    const answer = await unwrap(data.GET('/v1/protocols/lendingprotocol/reserves', { params: { query } }))
    const byPool = new Map<string, PoolSummary>()
    for (const reserve of answer.data.reserves) {
      let pool = byPool.get(reserve.contract_address)
      if (!pool) {
        pool = {
          address: reserve.contract_address,
          name: nameOf(answer.enrichment, reserve.contract_address),
          assets: [],
          usd: null,
          usdReason: null,
        }
        byPool.set(reserve.contract_address, pool)
      }
      pool.assets.push(symbolOf(answer.enrichment, reserve.asset))
    }
    return { pools: [...byPool.values()], asOfLedger: answer.meta.as_of_ledger ?? null }
  }
  if (protocol === 'ammprotocol') {
    const answer = await unwrap(data.GET('/v1/protocols/ammprotocol/reserves', { params: { query } }))
    return {
      pools: answer.data.pairs.map((pair) => ({
        address: pair.contract_address,
        name: nameOf(answer.enrichment, pair.contract_address),
        assets: [symbolOf(answer.enrichment, pair.token_0), symbolOf(answer.enrichment, pair.token_1)],
        usd: pair.tvl_usd,
        usdReason: pair.usd_unavailable_reason,
      })),
      asOfLedger: answer.meta.as_of_ledger ?? null,
    }
  }
  const answer = await unwrap(data.GET('/v1/protocols/yieldprotocol/reserves', { params: { query } }))
  return {
    pools: answer.data.vaults.map((vault) => ({
      address: vault.contract_address,
      name: vault.name,
      assets: vault.assets.map((asset) => symbolOf(answer.enrichment, asset.asset)),
      usd: null,
      usdReason: null,
    })),
    asOfLedger: answer.meta.as_of_ledger ?? null,
  }
}

export type PoolAnswer =
  | { protocol: 'lendingprotocol'; answer: LendingPool }
  | { protocol: 'ammprotocol'; answer: AmmPool }
  | { protocol: 'yieldprotocol'; answer: YieldPool }

/** One pool at a ledger (the head when none). */
export async function loadPool(
  protocol: PoolProtocol,
  pool: string,
  ledger: number | null,
): Promise<PoolAnswer> {
  const params = { path: { pool }, query: ledger === null ? {} : { as_of_ledger: ledger } }
  if (protocol === 'lendingprotocol') {
    const answer = await unwrap(data.GET('/v1/protocols/lendingprotocol/pools/{pool}', { params }))
    return { protocol, answer }
  }
  if (protocol === 'ammprotocol') {
    const answer = await unwrap(data.GET('/v1/protocols/ammprotocol/pools/{pool}', { params }))
    return { protocol, answer }
  }
  const answer = await unwrap(data.GET('/v1/protocols/yieldprotocol/pools/{pool}', { params }))
  return { protocol, answer }
}

/** How many ledgers a pool's chart samples, and how many requests run at once. */
export const POOL_SAMPLES = 16
export const POOL_CONCURRENCY = 4

/** The pool at each sampled ledger of `from..to`, asked at most four at a time. */
export async function loadPoolSamples(
  protocol: PoolProtocol,
  pool: string,
  from: number,
  to: number,
): Promise<Array<{ ledger: number; pool: PoolAnswer }>> {
  const ledgers = spreadLedgers(from, to, POOL_SAMPLES)
  const answers = await mapLimited(ledgers, POOL_CONCURRENCY, (ledger) => loadPool(protocol, pool, ledger))
  return ledgers.map((ledger, i) => ({ ledger, pool: answers[i] as PoolAnswer }))
}

/** A ledger from the URL's `?ledger=`: a whole number, or null (the head) when absent or not one. */
export function ledgerFromQuery(value: string | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null
  return Number(value)
}
