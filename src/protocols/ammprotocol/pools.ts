import type { ContractInfo, NetworkConfig } from '../../chain/network.ts'
import { formatUnits } from '../kit/amounts.ts'
import type { Enrichment, PositionsDeps, Rendered, StateQuery } from '../kit/protocol-module.ts'
import {
  addPricedAsset,
  createPriceLookup,
  describePrices,
  type Priced,
  toUsd,
  USD_DECIMALS,
} from '../kit/valuation.ts'
import {
  ammContractObject,
  createCachedPairReader,
  LP_DECIMALS,
  type PairAt,
  ratio,
  tokenDecimals,
} from './pairs.ts'
import type { AmmProblem } from './positions.ts'
import { type PairVolume, pairVolume } from './volume.ts'

export interface PairObject {
  contract_address: string
  token_0: string | null
  token_1: string | null
  reserve_0: string | null
  reserve_1: string | null
  total_supply: string | null
  price_0_in_1: string | null
  price_1_in_0: string | null
  tvl_usd: string | null
  state_ledger: number | null
  usd_unavailable_reason: AmmProblem | null
  volume_24h: PairVolume
}

/** The watched pairs (the factory and router are listed beside them). */
export const pairsOf = (network: NetworkConfig): ContractInfo[] =>
  network.contracts.ammprotocol.filter((c) => c.kind === 'soroswap-pair')

/** One pair at a ledger, priced through the network description's feeds. */
async function pairObject(
  deps: PositionsDeps,
  network: NetworkConfig,
  pair: ContractInfo,
  state: PairAt,
  query: StateQuery,
  priceOf: ReturnType<typeof createPriceLookup>['priceOf'],
  enrichment: Enrichment,
): Promise<{ object: PairObject; partial: boolean }> {
  const [t0, t1] = state.tokens
  const d0 = tokenDecimals(network, t0)
  const d1 = tokenDecimals(network, t1)
  const partial = state.reserves === null || state.totalSupply === null || !d0.known || !d1.known
  const reserves = state.reserves
  let tvl: bigint | null = null
  let problem: AmmProblem | null = reserves === null ? 'reserves_missing' : null
  let priced: [Priced | null, Priced | null] = [null, null]
  if (t0 !== null && t1 !== null) {
    const [p0, p1] = [await priceOf(t0), await priceOf(t1)]
    priced = [p0, p1]
    addPricedAsset(enrichment, network, t0, p0, d0.decimals)
    addPricedAsset(enrichment, network, t1, p1, d1.decimals)
    problem ??= p0.problem ?? p1.problem
    if (problem === null && reserves !== null)
      tvl = toUsd(reserves[0], d0.decimals, p0) + toUsd(reserves[1], d1.decimals, p1)
  } else problem ??= 'price_missing'
  return {
    partial,
    object: {
      contract_address: state.address,
      token_0: t0,
      token_1: t1,
      reserve_0: reserves === null ? null : formatUnits(reserves[0], d0.decimals),
      reserve_1: reserves === null ? null : formatUnits(reserves[1], d1.decimals),
      total_supply: state.totalSupply === null ? null : formatUnits(state.totalSupply, LP_DECIMALS),
      price_0_in_1: reserves === null ? null : ratio(reserves[1], d1.decimals, reserves[0], d0.decimals),
      price_1_in_0: reserves === null ? null : ratio(reserves[0], d0.decimals, reserves[1], d1.decimals),
      tvl_usd: tvl === null ? null : formatUnits(tvl, USD_DECIMALS),
      state_ledger: state.ledger,
      usd_unavailable_reason: problem,
      volume_24h: await pairVolume(deps, network, pair, state.tokens, priced, query),
    },
  }
}

async function renderPairs(
  deps: PositionsDeps,
  network: NetworkConfig,
  pairs: readonly ContractInfo[],
  query: StateQuery,
): Promise<Rendered & { asOfLedger: number | null; objects: PairObject[] }> {
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  const pairAt = createCachedPairReader(deps.reader, network)
  const prices = createPriceLookup(deps.reader, network, query.ledger, query.closeTime, deps.maxPriceAgeS)
  const states = await Promise.all(pairs.map((p) => pairAt(p.address, query.ledger)))
  const objects: PairObject[] = []
  let partial = false
  let asOfLedger: number | null = null
  for (const [i, state] of states.entries()) {
    // Prices are asked in pair order, so sources and enrichment come out in the same order every time.
    const { object, partial: p } = await pairObject(
      deps,
      network,
      pairs[i]!,
      state,
      query,
      prices.priceOf,
      enrichment,
    )
    objects.push(object)
    partial ||= p
    if (state.ledger !== null) asOfLedger = Math.max(asOfLedger ?? 0, state.ledger)
    enrichment.contracts[pairs[i]!.address] = ammContractObject(pairs[i]!)
  }
  const { stalenessS, sources } = describePrices(await prices.used(), query.closeTime)
  return { data: null, objects, enrichment, oracleStalenessS: stalenessS, sources, partial, asOfLedger }
}

/** `GET /v1/protocols/ammprotocol/pools/{pair}`. */
export async function renderPair(
  deps: PositionsDeps,
  network: NetworkConfig,
  pair: ContractInfo,
  query: StateQuery,
): Promise<Rendered & { asOfLedger: number | null }> {
  const { objects, ...rendered } = await renderPairs(deps, network, [pair], query)
  return { ...rendered, data: objects[0]! }
}

/** `GET /v1/protocols/ammprotocol/reserves`: every pair the network description lists. */
export async function renderAllPairs(
  deps: PositionsDeps,
  network: NetworkConfig,
  query: StateQuery,
): Promise<Rendered & { asOfLedger: number | null }> {
  const { objects, ...rendered } = await renderPairs(deps, network, pairsOf(network), query)
  return { ...rendered, data: { pairs: objects } }
}
