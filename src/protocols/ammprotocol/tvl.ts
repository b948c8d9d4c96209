import type { NetworkConfig } from '../../chain/network.ts'
import type { PositionsDeps, TvlAsset, TvlSurface } from '../kit/protocol-module.ts'
import { readPairAt } from './pairs.ts'
import { pairsOf } from './pools.ts'

/**
 * What Soroswap pairs hold at a ledger, per token over every watched pair: each pair's
 * `Reserve0`/`Reserve1` as its instance entry last stated them at or before the ledger (the 1,000
 * LP units locked to the pair included: their underlying is in the reserves). One seek per pair,
 * whatever the number of LPs. A pair whose entry was never seen, or whose tokens neither the entry
 * nor the network description names, is left out and makes the answer partial.
 */
async function lockedAt(deps: PositionsDeps, network: NetworkConfig, ledger: number) {
  const totals = new Map<string, bigint>()
  let asOfLedger: number | null = null
  let partial = false
  for (const pair of pairsOf(network)) {
    const state = await readPairAt(deps.reader, network, pair.address, ledger)
    const [token0, token1] = state.tokens
    if (state.reserves === null || token0 === null || token1 === null) {
      partial = true
      continue
    }
    if (state.ledger !== null) asOfLedger = Math.max(asOfLedger ?? 0, state.ledger)
    totals.set(token0, (totals.get(token0) ?? 0n) + state.reserves[0])
    totals.set(token1, (totals.get(token1) ?? 0n) + state.reserves[1])
  }
  const assets: TvlAsset[] = [...totals]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([asset, locked]) => ({ asset, locked, borrowed: null }))
  return { assets, asOfLedger, partial }
}

export const ammTvl: TvlSurface = {
  description:
    "Per token over every Soroswap pair: `locked` = Σ the pair's reserve of that token (`Reserve0`/`Reserve1` in its instance storage as last written at or before the ledger); `borrowed` is null (a pair lends nothing).",
  lockedAt,
}
