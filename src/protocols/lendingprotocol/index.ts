import type { NetworkConfig } from '../../chain/network.ts'
import type { ProtocolModule } from '../kit/protocol-module.ts'
import { LENDING_ACTIVITY_TYPES } from './activities.ts'
import { adaptLendingLedger, lendingItemKey } from './adapt-ledger.ts'
import { describeLendingActivity } from './describe-activity.ts'
import { LENDING } from './id.ts'
import { renderEmissions, renderPool, renderReserves } from './pools.ts'
import { LendingEmissionsData, LendingPoolData, LendingReservesData } from './pools-schema.ts'
import { renderLendingSnapshot } from './positions.ts'
import { LendingPositionsData } from './positions-schema.ts'
import { lendingTvl } from './tvl.ts'

const pools = (network: NetworkConfig) => network.contracts.lendingprotocol

/**
 * Blend v2 pools: per pool, the account's b- and d-token balances by reserve index as its
 * `Positions` entry states them, and what each `UserEmis` entry says it is owed; the pools' rates,
 * config and emissions are kept as contract state.
 */
export const lendingProtocol: ProtocolModule = {
  name: LENDING,
  kind: 'lending',
  contracts: pools,
  // PoolConfig (the pool's oracle, backstop take rate, status) and Name live in instance storage.
  instanceStorage: (network) => pools(network).map((c) => c.address),
  activityTypes: LENDING_ACTIVITY_TYPES,
  describeActivity: describeLendingActivity,
  createAdapter(network) {
    const addresses = new Set(pools(network).map((c) => c.address))
    return { adaptLedger: (ledger) => adaptLendingLedger(ledger, addresses) }
  },
  itemKey: lendingItemKey,
  coverage: pools,
  tvl: lendingTvl,
  positions: {
    dataSchema: LendingPositionsData,
    summary: 'Lending positions (Blend v2 pools)',
    description:
      "The latest snapshot at or before `as_of_ledger` (latest state when omitted): one row per (pool, reserve, supply | collateral | borrow) from the pool's `Positions` entry, and one group per pool with Blend's health factor, borrow limit and claimable BLND. Each row converts its b- or d-tokens with the reserve's rate as the pool last wrote it at or before that row's own `ledger` (not accrued forward), USD with prices at `meta.as_of_ledger`: sweeping pins over a dormant account returns identical data.",
    atSummary: 'Lending positions valued at a ledger',
    atDescription:
      "The same balances as the snapshot surface, converted with each reserve's latest `ResData` at or before the ledger (its ledger is `rate_ledger`), priced at the ledger, with claimable BLND brought up to the ledger's close time. Rates are exactly as the pool last wrote them, not projected to the ledger's time; for a balance far below the ledger the two surfaces answer different amounts by design.",
    empty: (address) => ({ address, positions: [], groups: [] }),
    render: renderLendingSnapshot,
  },
  pools: {
    dataSchema: LendingPoolData,
    summary: 'A Blend pool at a ledger',
    description:
      "The pool's `PoolConfig` and name, and each reserve: asset, factors, interest curve, b/d rates and supplies, underlying supplied and borrowed, utilization, borrow and supply APR from the curve and their APYs as Blend's UI compounds them, BLND emission APR per side, and USD totals, each entry as the pool last wrote it at or before `as_of_ledger` (the head when omitted); `computed_ledger` is the ledger the figures are computed at. `meta.as_of_ledger` is the latest ledger at which one of those entries was written. 404 for a contract the network description does not list as a Blend pool.",
    find: (network, pool) => pools(network).find((p) => p.address === pool) ?? null,
    render: renderPool,
  },
  reserves: {
    dataSchema: LendingReservesData,
    summary: 'Every Blend reserve at a ledger',
    description:
      'The reserves of every pool the network description lists, in the shape of the pool endpoint, at `as_of_ledger` (the head when omitted).',
    empty: () => ({ reserves: [] }),
    render: renderReserves,
  },
  emissions: {
    dataSchema: LendingEmissionsData,
    summary: 'Blend emissions at a ledger',
    description:
      "Per pool and reserve token: eps, `expires_at`, index and `index_updated_at` as the pool's `EmisData` last stated them at or before `as_of_ledger` (not projected), with the reserve, whether it is the b- or d-token, and its share of the pool's emissions.",
    empty: () => ({ emissions: [] }),
    render: renderEmissions,
  },
}
