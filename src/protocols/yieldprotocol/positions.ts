import type { NetworkConfig, YieldContractInfo } from '../../chain/network.ts'
import { formatUnits, pow10 } from '../kit/amounts.ts'
import type {
  ContractObject,
  Enrichment,
  PositionsDeps,
  PositionsReader,
  Rendered,
  SnapshotRow,
  Valuation,
} from '../kit/protocol-module.ts'
import type { ShareGroup } from '../kit/response-schema.ts'
import { addPricedAsset, createPriceLookup, describePrices, toUsd, USD_DECIMALS } from '../kit/valuation.ts'
import type { StoredYieldBalance } from './adapt-ledger.ts'
import {
  PRICE_DECIMALS,
  pricePerShare,
  readVaultFunds,
  SHARE_DECIMALS,
  underlyingOf,
  type VaultFunds,
  vaultHistoryComplete,
} from './funds.ts'
import { YIELD } from './id.ts'

/** Assets the description does not list are shown with Stellar's usual 7 decimals. */
const FALLBACK_DECIMALS = 7

export interface YieldPosition {
  protocol: string
  contract_address: string
  position_type: 'vault_share'
  asset: string
  shares: string
  amount: string | null
  amount_usd: string | null
  price_per_share: string | null
  total_managed_funds: string | null
  total_supply: string | null
  rate_ledger: number | null
  ledger: number
  usd_unavailable_reason: YieldProblem | null
}

export type YieldProblem = 'price_missing' | 'price_stale' | 'rate_missing'

/** One per vault the account holds df-tokens of, in the shape of an AMM pair's group. */
export type YieldGroup = ShareGroup<YieldProblem>

/** Shares of a pool are reported with 18 decimals, rounded down, as the AMM's are. */
const SHARE_OF_POOL_DECIMALS = 18

export function yieldContractObject(c: YieldContractInfo): ContractObject {
  return {
    name: c.name,
    position_types: c.position_types,
    protocol: c.protocol,
    status: c.status,
    version: c.version,
  }
}

/** Vault funds per (vault, ledger), each read once per answer. */
export function createFundsCache(reader: PositionsReader, network: NetworkConfig) {
  const cache = new Map<string, Promise<VaultFunds>>()
  return (vault: YieldContractInfo, ledger: number) => {
    const id = `${vault.address}\u0000${ledger}`
    let found = cache.get(id)
    if (!found) {
      found = vaultHistoryComplete(reader, vault, ledger).then((complete) =>
        readVaultFunds(reader, network, vault, ledger, complete),
      )
      cache.set(id, found)
    }
    return found
  }
}

export const decimalsOf = (network: NetworkConfig, asset: string) =>
  network.assets[asset]?.decimals ?? FALLBACK_DECIMALS

/**
 * Values one snapshot of an account's df-tokens: one row per (vault, asset). The snapshot surface
 * values each balance with the vault's state at that balance's own `ledger` (a dormant holder reads
 * the same at every pin); `/at` with the vault's state at the pin, so it grows with the Blend
 * reserve's stored b_rate. Nothing is projected: every entry is what the contracts last wrote.
 */
export async function renderYieldSnapshot(
  deps: PositionsDeps,
  network: NetworkConfig,
  address: string,
  snapshot: SnapshotRow,
  valuation: Valuation,
): Promise<Rendered> {
  const positions: YieldPosition[] = []
  const groups: YieldGroup[] = []
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  const rendered: Rendered = {
    data: { address, positions, groups },
    enrichment,
    oracleStalenessS: 0,
    sources: [],
    partial: false,
  }
  const stored = JSON.parse(snapshot.positions) as StoredYieldBalance[]
  if (stored.length === 0) return rendered
  const vaults = new Map(network.contracts.yieldprotocol.map((c) => [c.address, c]))
  const fundsOf = createFundsCache(deps.reader, network)
  const prices = createPriceLookup(
    deps.reader,
    network,
    valuation.ledger,
    valuation.closeTime,
    deps.maxPriceAgeS,
  )
  const valued = await Promise.all(
    stored.map(async (item) => {
      const vault = vaults.get(item.vault)
      const ledger = valuation.atPin ? valuation.ledger : item.ledger
      return { item, vault, funds: vault ? await fundsOf(vault, ledger) : null }
    }),
  )
  for (const { item, vault, funds } of valued) {
    if (!vault || !funds) {
      rendered.partial = true
      continue
    }
    enrichment.contracts[vault.address] = yieldContractObject(vault)
    if (funds.partial) rendered.partial = true
    const shares = BigInt(item.shares)
    const supply = funds.totalSupply
    let value: bigint | null = 0n
    let groupProblem: YieldProblem | null = null
    for (const a of funds.assets) {
      const decimals = decimalsOf(network, a.asset)
      const amount = a.total === null || supply === null ? null : underlyingOf(shares, a.total, supply)
      const pps = a.total === null || supply === null ? null : pricePerShare(a.total, supply, decimals)
      const priced = await prices.priceOf(a.asset)
      const problem = amount === null ? 'rate_missing' : priced.problem
      const usd = problem === null && amount !== null ? toUsd(amount, decimals, priced) : null
      value = value === null || usd === null ? null : value + usd
      groupProblem ??= problem
      addPricedAsset(enrichment, network, a.asset, priced, decimals)
      positions.push({
        protocol: YIELD,
        contract_address: vault.address,
        position_type: 'vault_share',
        asset: a.asset,
        shares: formatUnits(shares, SHARE_DECIMALS),
        amount: amount === null ? null : formatUnits(amount, decimals),
        amount_usd: usd === null ? null : formatUnits(usd, USD_DECIMALS),
        price_per_share: pps === null ? null : formatUnits(pps, PRICE_DECIMALS),
        total_managed_funds: a.total === null ? null : formatUnits(a.total, decimals),
        total_supply: supply === null ? null : formatUnits(supply, SHARE_DECIMALS),
        rate_ledger: funds.stateLedger,
        ledger: item.ledger,
        usd_unavailable_reason: problem,
      })
    }
    groups.push({
      contract_address: vault.address,
      shares: formatUnits(shares, SHARE_DECIMALS),
      total_supply: supply === null ? null : formatUnits(supply, SHARE_DECIMALS),
      share_of_pool:
        supply === null || supply <= 0n
          ? null
          : formatUnits((shares * pow10(SHARE_OF_POOL_DECIMALS)) / supply, SHARE_OF_POOL_DECIMALS),
      value_usd: value === null || funds.assets.length === 0 ? null : formatUnits(value, USD_DECIMALS),
      rate_ledger: funds.stateLedger,
      usd_unavailable_reason: funds.assets.length === 0 ? 'rate_missing' : groupProblem,
    })
  }
  const { stalenessS, sources } = describePrices(await prices.used(), valuation.closeTime)
  rendered.oracleStalenessS = stalenessS
  rendered.sources = sources
  return rendered
}
