import type { NetworkConfig } from '../../chain/network.ts'
import type { PositionsDeps, TvlAsset, TvlSurface } from '../kit/protocol-module.ts'
import { createCachedPoolReader } from './render-support.ts'
import { readReserveOf, reserveAssetsAt, reserveTotals } from './reserves.ts'

/**
 * What Blend pools hold at a ledger, per asset over every pool: supplied minus borrowed (the
 * underlying in the pools, DefiLlama's convention for lending), and borrowed, both from each
 * reserve's `ResData` (b/d supplies at their rates, Blend's rounding) as last written at or before
 * the ledger. A few seeks per reserve, whatever the number of lenders.
 */
async function lockedAt(deps: PositionsDeps, network: NetworkConfig, ledger: number) {
  const reader = createCachedPoolReader(deps.reader)
  const totals = new Map<string, { supplied: bigint; borrowed: bigint }>()
  let asOfLedger: number | null = null
  let partial = false
  for (const pool of network.contracts.lendingprotocol) {
    for (const asset of (await reserveAssetsAt(reader, pool, ledger)).values()) {
      const reserve = await readReserveOf(reader, pool.address, asset, ledger)
      if (!reserve.data) {
        partial = true
        continue
      }
      asOfLedger = Math.max(asOfLedger ?? 0, reserve.data.ledger)
      const { supplied, borrowed } = reserveTotals(reserve.data)
      const sum = totals.get(asset) ?? { supplied: 0n, borrowed: 0n }
      sum.supplied += supplied
      sum.borrowed += borrowed
      totals.set(asset, sum)
    }
  }
  const assets: TvlAsset[] = [...totals]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([asset, t]) => ({ asset, locked: t.supplied - t.borrowed, borrowed: t.borrowed }))
  return { assets, asOfLedger, partial }
}

export const lendingTvl: TvlSurface = {
  description:
    "Per asset over every Blend pool: `locked` = supplied − borrowed (the underlying the pools hold, DefiLlama's convention for lending) and `borrowed`, from each reserve's `ResData` as last written at or before the ledger (b_supply × b_rate rounded down, d_supply × d_rate rounded up, 12-decimal rates).",
  lockedAt,
}
