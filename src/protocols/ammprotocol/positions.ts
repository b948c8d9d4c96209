import type { NetworkConfig } from '../../chain/network.ts'
import { formatUnits } from '../kit/amounts.ts'
import type { Enrichment, PositionsDeps, Rendered, SnapshotRow, Valuation } from '../kit/protocol-module.ts'
import type { ShareGroup } from '../kit/response-schema.ts'
import {
  addPricedAsset,
  createPriceLookup,
  describePrices,
  type Priced,
  toUsd,
  USD_DECIMALS,
} from '../kit/valuation.ts'
import type { StoredLiquidity } from './adapt-ledger.ts'
import { AMM } from './id.ts'
import {
  ammContractObject,
  createCachedPairReader,
  LP_DECIMALS,
  type PairAt,
  ratio,
  tokenDecimals,
} from './pairs.ts'

export type AmmProblem = 'price_missing' | 'price_stale' | 'reserves_missing'

export interface AmmPosition {
  protocol: string
  contract_address: string
  position_type: 'liquidity'
  asset: string | null
  shares: string
  amount: string | null
  amount_usd: string | null
  rate: string | null
  rate_ledger: number | null
  ledger: number
  usd_unavailable_reason: AmmProblem | null
}

export type AmmGroup = ShareGroup<AmmProblem>

export interface AmmData {
  address: string
  positions: AmmPosition[]
  groups: AmmGroup[]
}

const usdString = (value: bigint | null) => (value === null ? null : formatUnits(value, USD_DECIMALS))

/** The usable reserves and supply of a pair state, or null (never seen, or no LP supply). */
function poolOf(state: PairAt): { reserves: [bigint, bigint]; supply: bigint } | null {
  if (state.reserves === null || state.totalSupply === null || state.totalSupply <= 0n) return null
  return { reserves: state.reserves, supply: state.totalSupply }
}

/**
 * Values one snapshot of an account's Soroswap LP balances: two rows per pair (one per token, in the
 * pair's token order) and one group per pair with the account's share of the pool. Each token's
 * amount is floor(balance × reserve_i / total_supply) (contracts/pair/src/lib.rs `withdraw` with the
 * reserves). The snapshot surface uses the pair's state as last written at or before the balance's
 * own `ledger` (a dormant LP reads the same at every pin); `/at` the state at or before the pin, so
 * a swap moves every LP's `/at` answer without writing them a snapshot.
 */
export async function renderAmmSnapshot(
  deps: PositionsDeps,
  network: NetworkConfig,
  address: string,
  snapshot: SnapshotRow,
  valuation: Valuation,
): Promise<Rendered> {
  const data: AmmData = { address, positions: [], groups: [] }
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  const rendered: Rendered = { data, enrichment, oracleStalenessS: 0, sources: [], partial: false }
  const stored = JSON.parse(snapshot.positions) as StoredLiquidity[]
  if (stored.length === 0) return rendered

  const pairs = new Map(network.contracts.ammprotocol.map((c) => [c.address, c]))
  const pairAt = createCachedPairReader(deps.reader, network)
  const prices = createPriceLookup(
    deps.reader,
    network,
    valuation.ledger,
    valuation.closeTime,
    deps.maxPriceAgeS,
  )
  const states = await Promise.all(
    stored.map((item) => pairAt(item.pair, valuation.atPin ? valuation.ledger : item.ledger)),
  )
  for (const [i, item] of stored.entries()) {
    const state = states[i]!
    const balance = BigInt(item.balance)
    const pool = poolOf(state)
    if (pool === null) rendered.partial = true
    let value: bigint | null = 0n
    let groupProblem: AmmProblem | null = pool === null ? 'reserves_missing' : null
    for (const side of [0, 1] as const) {
      const token = state.tokens[side]
      const { decimals, known } = tokenDecimals(network, token)
      if (token === null || !known) rendered.partial = true
      const amount = pool === null ? null : (balance * pool.reserves[side]) / pool.supply
      const priced: Priced | null = token === null ? null : await prices.priceOf(token)
      const problem: AmmProblem | null =
        amount === null ? 'reserves_missing' : priced === null ? 'price_missing' : priced.problem
      const usd = problem === null && amount !== null && priced ? toUsd(amount, decimals, priced) : null
      groupProblem ??= problem
      value = value === null || usd === null ? null : value + usd
      if (token !== null && priced) addPricedAsset(enrichment, network, token, priced, decimals)
      data.positions.push({
        protocol: AMM,
        contract_address: item.pair,
        position_type: 'liquidity',
        asset: token,
        shares: formatUnits(balance, LP_DECIMALS),
        amount: amount === null ? null : formatUnits(amount, decimals),
        amount_usd: usdString(usd),
        rate: pool === null ? null : ratio(pool.reserves[side], decimals, pool.supply, LP_DECIMALS),
        rate_ledger: state.ledger,
        ledger: item.ledger,
        usd_unavailable_reason: problem,
      })
    }
    data.groups.push({
      contract_address: item.pair,
      shares: formatUnits(balance, LP_DECIMALS),
      total_supply: state.totalSupply === null ? null : formatUnits(state.totalSupply, LP_DECIMALS),
      share_of_pool: pool === null ? null : ratio(balance, 0, pool.supply, 0),
      value_usd: usdString(value),
      rate_ledger: state.ledger,
      usd_unavailable_reason: groupProblem,
    })
    const info = pairs.get(item.pair)
    if (info) enrichment.contracts[info.address] = ammContractObject(info)
  }
  const { stalenessS, sources } = describePrices(await prices.used(), valuation.closeTime)
  rendered.oracleStalenessS = stalenessS
  rendered.sources = sources
  return rendered
}
