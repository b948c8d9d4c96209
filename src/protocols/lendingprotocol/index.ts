import type { NetworkConfig } from '../../chain/network.ts'
import type { ProtocolModule, StoredItem } from '../protocol-module.ts'
import { adaptLendingLedger, type BalanceKind, balanceKey } from './adapt-ledger.ts'

export const LENDING_PROTOCOL = 'lendingprotocol'

/**
 * Blend v2 pools: one group per pool holding the account's b- and d-token balances by reserve index,
 * as its `Positions` entry states them; the pools' rates and config are kept as contract state.
 */
export const lendingProtocol: ProtocolModule = {
  name: LENDING_PROTOCOL,
  kind: 'lending',
  contracts: (network: NetworkConfig) => network.contracts.lendingprotocol,
  // PoolConfig (the pool's oracle, backstop take rate) and Name live in instance storage.
  instanceStorage: (network) => network.contracts.lendingprotocol.map((c) => c.address),
  createAdapter(network) {
    const pools = new Set(network.contracts.lendingprotocol.map((c) => c.address))
    return { adaptLedger: (ledger) => adaptLendingLedger(ledger, pools) }
  },
  itemKey: (item: StoredItem) =>
    balanceKey(String(item.pool), Number(item.reserve_index), item.kind as BalanceKind),
}
