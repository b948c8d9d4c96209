import type { NetworkConfig, YieldContractInfo } from '../../chain/network.ts'
import type { ProtocolModule } from '../kit/protocol-module.ts'
import { YIELD_ACTIVITY_TYPES } from './activities.ts'
import { adaptYieldLedger, type YieldWatch, yieldItemKey } from './adapt-ledger.ts'
import { describeYieldActivity } from './describe-activity.ts'
import { YIELD } from './id.ts'
import { renderYieldPool, renderYieldReserves, vaultsOf } from './pools.ts'
import { YieldPoolData, YieldReservesData } from './pools-schema.ts'
import { renderYieldSnapshot } from './positions.ts'
import { YieldPositionsData } from './positions-schema.ts'
import { yieldTvl } from './tvl.ts'

const listed = (network: NetworkConfig): YieldContractInfo[] => network.contracts.yieldprotocol

/** Each vault asset's contract -> the vaults holding it (their idle funds are balances there). */
function assetHolders(network: NetworkConfig): Map<string, Set<string>> {
  const holders = new Map<string, Set<string>>()
  for (const vault of vaultsOf(network)) {
    for (const asset of vault.assets ?? []) {
      if (!asset.startsWith('C')) continue
      const set = holders.get(asset) ?? new Set<string>()
      set.add(vault.address)
      holders.set(asset, set)
    }
  }
  return holders
}

/**
 * DeFindex vaults investing through Blend strategies: per vault, the account's df-tokens as its
 * `Balance` entry states them, valued with the vault's price per share from its own state at a
 * ledger (idle funds, the strategies' shares, reserves and the Blend reserve's stored b_rate, less
 * locked fees).
 */
export const yieldProtocol: ProtocolModule = {
  name: YIELD,
  kind: 'yield',
  contracts: listed,
  // TotalSupply, AssetStrategySet and fees (vaults), Config and Reserves (strategies) are instance storage.
  instanceStorage: (network) => listed(network).map((c) => c.address),
  holderEntries: (network) =>
    Object.fromEntries([...assetHolders(network)].map(([asset, vaults]) => [asset, [...vaults]])),
  activityTypes: YIELD_ACTIVITY_TYPES,
  describeActivity: describeYieldActivity,
  createAdapter(network) {
    const watch: YieldWatch = {
      vaults: new Set(vaultsOf(network).map((c) => c.address)),
      strategies: new Set(
        listed(network)
          .filter((c) => c.kind === 'defindex-strategy-blend')
          .map((c) => c.address),
      ),
      assets: assetHolders(network),
    }
    return { adaptLedger: (ledger) => adaptYieldLedger(ledger, watch) }
  },
  itemKey: yieldItemKey,
  coverage: listed,
  tvl: yieldTvl,
  positions: {
    dataSchema: YieldPositionsData,
    summary: 'Yield positions (DeFindex vaults)',
    description:
      "The latest snapshot at or before `as_of_ledger` (latest state when omitted): one row per (vault, asset) with the account's df-tokens from the vault's `Balance` entry, and one group per vault. Each row is valued with the vault's price per share computed from its state as it stood at that row's own `ledger` (idle funds + each strategy's balance from its shares, its `Reserves` and the Blend pool's stored b_rate, less locked fees), USD with prices at `meta.as_of_ledger`: sweeping pins over a dormant holder returns identical data.",
    atSummary: 'Yield positions valued at a ledger',
    atDescription:
      "The same df-tokens as the snapshot surface, valued with the vault's state at the ledger: its price per share as `fetch_total_managed_funds` computes it with the Blend reserve's b_rate as the pool last stored it at or before the ledger (not projected to the ledger's time); `rate_ledger` is the latest ledger at which an entry used was written. A dormant holder's value grows with the reserve's stored b_rate.",
    empty: (address) => ({ address, positions: [], groups: [] }),
    render: renderYieldSnapshot,
  },
  pools: {
    dataSchema: YieldPoolData,
    summary: 'A DeFindex vault at a ledger',
    description:
      "The vault's df-token supply, fees, and per asset its idle funds, each strategy's shares, balance, locked fee and invested funds, the total managed funds, the price per share and its APY over 7 and 30 days of close time (from the price per share at the ledger closed that long before), each entry as last written at or before `as_of_ledger` (the head when omitted). An entry written before the store's first ledger and never seen since is unknown: its figures are null with `unavailable_reason` and the answer is partial. `meta.as_of_ledger` is the latest ledger at which one of those entries was written. 404 for a contract the network description does not list as a DeFindex vault.",
    find: (network, pool) => vaultsOf(network).find((v) => v.address === pool) ?? null,
    render: (deps, network, pool, query) => renderYieldPool(deps, network, pool, query),
  },
  reserves: {
    dataSchema: YieldReservesData,
    summary: 'Every DeFindex vault at a ledger',
    description:
      'The vaults the network description lists, in the shape of the vault endpoint, at `as_of_ledger` (the head when omitted).',
    empty: () => ({ vaults: [] }),
    render: renderYieldReserves,
  },
}
