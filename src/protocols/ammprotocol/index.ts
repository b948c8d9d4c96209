import type { NetworkConfig } from '../../chain/network.ts'
import type { ProtocolModule } from '../kit/protocol-module.ts'
import { AMM_ACTIVITY_TYPES } from './activities.ts'
import { adaptAmmLedger, ammItemKey } from './adapt-ledger.ts'
import { describeAmmActivity } from './describe-activity.ts'
import { AMM } from './id.ts'
import { pairsOf, renderAllPairs, renderPair } from './pools.ts'
import { renderAmmSnapshot } from './positions.ts'
import { AmmPairData, AmmPositionsData, AmmReservesData } from './schema.ts'
import { ammTvl } from './tvl.ts'

const pairs = (network: NetworkConfig) => pairsOf(network)

/**
 * Soroswap pairs: the account's LP `Balance` of each watched pair, valued with the pair's reserves
 * and LP total supply, which the pair keeps in its instance storage and which are kept as history.
 */
export const ammProtocol: ProtocolModule = {
  name: AMM,
  kind: 'amm',
  contracts: pairs,
  // Token0/1, Reserve0/1 and TotalSupply live in each pair's instance storage.
  instanceStorage: (network) => pairs(network).map((c) => c.address),
  activityTypes: AMM_ACTIVITY_TYPES,
  describeActivity: describeAmmActivity,
  createAdapter(network) {
    const addresses = new Set(pairs(network).map((c) => c.address))
    return { adaptLedger: (ledger) => adaptAmmLedger(ledger, addresses) }
  },
  itemKey: ammItemKey,
  coverage: pairs,
  tvl: ammTvl,
  positions: {
    dataSchema: AmmPositionsData,
    summary: 'AMM liquidity positions (Soroswap pairs)',
    description:
      "The latest snapshot at or before `as_of_ledger` (latest state when omitted): per pair the account holds LP tokens of, two rows (one per token) and one group with its share of the pool. Each amount is floor(LP balance × reserve_i / total_supply) with the pair's reserves and supply as last written at or before that balance's own `ledger`, USD with prices at `meta.as_of_ledger`: a dormant LP reads the same at every pin. The 1,000 LP units locked to the pair are nobody's position.",
    atSummary: 'AMM liquidity positions valued at a ledger',
    atDescription:
      "The same LP balances as the snapshot surface, valued with the pair's reserves and total supply as last written at or before the ledger (`rate_ledger`) and prices at the ledger. A swap moves every LP's answer here without writing them a snapshot.",
    empty: (address) => ({ address, positions: [], groups: [] }),
    render: renderAmmSnapshot,
  },
  pools: {
    dataSchema: AmmPairData,
    summary: 'A Soroswap pair at a ledger',
    description:
      "The pair's tokens, reserves and LP total supply as its instance entry last stated them at or before `as_of_ledger` (the head when omitted), each token's price in the other, the USD TVL, and the 24-hour volume and fees from the pair's stored swaps (`volume_24h`, with the ledger range it covers). `meta.as_of_ledger` is the ledger at which that entry was written. 404 for a contract the network description does not list as a Soroswap pair.",
    find: (network, pool) => pairs(network).find((p) => p.address === pool) ?? null,
    render: renderPair,
  },
  reserves: {
    dataSchema: AmmReservesData,
    summary: 'Every Soroswap pair at a ledger',
    description:
      'Every pair the network description lists, in the shape of the pool endpoint, at `as_of_ledger` (the head when omitted).',
    empty: () => ({ pairs: [] }),
    render: renderAllPairs,
  },
}
