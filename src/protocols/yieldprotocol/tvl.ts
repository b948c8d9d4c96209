import type { NetworkConfig } from '../../chain/network.ts'
import type { PositionsDeps, TvlAsset, TvlSurface } from '../kit/protocol-module.ts'
import { fundsAt, vaultsOf } from './pools.ts'

/**
 * What DeFindex vaults manage at a ledger, per asset over every watched vault: each vault's total
 * managed funds of the asset (idle + its strategies' balances less locked fees), computed from the
 * vault's, its strategies' and the Blend reserves' state as last written at or before the ledger,
 * exactly as the price per share is (funds.ts). A vault none of whose entries was seen yet, or a
 * vault asset whose funds are unknown, is left out and makes the answer partial.
 */
async function lockedAt(deps: PositionsDeps, network: NetworkConfig, ledger: number) {
  const totals = new Map<string, bigint>()
  let asOfLedger: number | null = null
  let partial = false
  for (const vault of vaultsOf(network)) {
    const funds = await fundsAt(deps, network, vault, ledger)
    // No entry of the vault seen at or before the ledger: its funds are unknown, not zero.
    if (funds.stateLedger === null) {
      partial = true
      continue
    }
    asOfLedger = Math.max(asOfLedger ?? 0, funds.stateLedger)
    for (const asset of funds.assets) {
      if (asset.total === null) {
        partial = true
        continue
      }
      totals.set(asset.asset, (totals.get(asset.asset) ?? 0n) + asset.total)
    }
  }
  const assets: TvlAsset[] = [...totals]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([asset, locked]) => ({ asset, locked, borrowed: null }))
  return { assets, asOfLedger, partial }
}

export const yieldTvl: TvlSurface = {
  description:
    "Per asset over every DeFindex vault: `locked` = Σ the vault's total managed funds of that asset (idle balance + each strategy's balance less its locked fee, as `fetch_total_managed_funds` computes them, with the Blend reserve's b_rate as last stored at or before the ledger), from state as last written at or before the ledger; `borrowed` is null (a vault lends nothing itself). What a strategy supplies to a Blend pool the lending protocol also watches is in that protocol's TVL too.",
  lockedAt,
}
