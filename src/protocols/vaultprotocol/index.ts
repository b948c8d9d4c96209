import type { NetworkConfig } from '../../chain/network.ts'
import type { AccountGroupChange, ProtocolModule, StoredItem } from '../kit/protocol-module.ts'
import { readVaultActivities, VAULT_ACTIVITY_TYPES } from './activities.ts'
import { adaptVaultLedger } from './adapt-ledger.ts'
import { describeVaultActivity } from './describe-activity.ts'
import { VAULT } from './id.ts'
import { renderVaultSnapshot, type VaultObject } from './positions.ts'
import { VaultPositionsData } from './positions-schema.ts'
import type { StoredVault } from './stored-vault.ts'
import { readVaultsInfo, vaultTvl } from './tvl.ts'

/**
 * FxDAO vaults (0.6.0): one group per denomination, holding that vault as the contract stores it
 * (plain debt, no rate). A stored item is `{denomination, total_collateral, total_debt, index, ledger}`.
 */
export const vaultProtocol: ProtocolModule = {
  name: VAULT,
  kind: 'vault',
  contracts: (network: NetworkConfig) => [network.contracts.vaultprotocol],
  // Positions come from persistent `Vault` entries alone; the instance storage's `VaultsInfo`
  // totals are kept as contract state for the TVL.
  instanceStorage: (network) => [network.contracts.vaultprotocol.address],
  activityTypes: VAULT_ACTIVITY_TYPES,
  describeActivity: describeVaultActivity,
  createAdapter(network) {
    const contract = network.contracts.vaultprotocol.address
    return {
      adaptLedger(ledger) {
        const accounts: AccountGroupChange[] = adaptVaultLedger(ledger, contract).map((change) => ({
          account: change.account,
          group: change.denomination,
          items:
            change.kind === 'vault-removed'
              ? []
              : [
                  {
                    key: change.denomination,
                    value: {
                      denomination: change.denomination,
                      total_collateral: change.totalCollateral.toString(),
                      total_debt: change.totalDebt.toString(),
                      index: change.index.toString(),
                    } satisfies Omit<StoredVault, 'ledger'>,
                  },
                ],
        }))
        return {
          accounts,
          states: readVaultsInfo(ledger, contract),
          activities: readVaultActivities(ledger, network),
        }
      },
    }
  },
  itemKey: (item: StoredItem) => String(item.denomination),
  coverage: (network) => [network.contracts.vaultprotocol],
  tvl: vaultTvl,
  positions: {
    dataSchema: VaultPositionsData,
    summary: 'Vault positions',
    description:
      'The latest snapshot at or before `as_of_ledger` (latest state when omitted). Amounts are at the vintage of the snapshot served and are not carried to the pin; `meta.as_of_ledger` is the ledger of that snapshot, null when the pin predates the first one.',
    atSummary: 'Vault positions valued at a ledger',
    atDescription:
      'The same vaults as the snapshot surface, valued at the ledger: FxDAO stores debt plainly (no rate, no accrual), so amounts are those of the latest snapshot at or before the ledger and `rate_ledger` is null; USD uses prices at or before the ledger. For a position far below the ledger the USD values of the two surfaces differ by design.',
    empty: (address) => ({ address, vaults: [] }),
    render: renderVaultSnapshot,
    usdParts: (data) =>
      (data as { vaults: VaultObject[] }).vaults.flatMap((v) => [
        { side: 'asset' as const, usd: v.collateral_usd, reason: v.usd_unavailable_reason },
        { side: 'debt' as const, usd: v.debt_usd, reason: v.usd_unavailable_reason },
      ]),
  },
}
