import type { DecodedLedger, DecodedTransaction } from '../../chain/decode-ledger.ts'
import type { NetworkConfig } from '../../chain/network.ts'
import type { ProtocolActivity } from '../kit/protocol-module.ts'
import { VAULT } from './id.ts'

/**
 * Every activity type of this module. FxDAO 0.6.0 publishes no events: each is read from a
 * successful call (its function name, or `liquidated` for every vault a liquidation closes).
 */
export const VAULT_ACTIVITY_TYPES: readonly string[] = [
  'new_vault',
  'increase_collateral',
  'withdraw_collateral',
  'increase_debt',
  'pay_debt',
  'redeem',
  'liquidate',
  'liquidated',
  'transfer_debt',
]

/**
 * FxDAO's activities, read from the calls: the vaults contract publishes no events (notes:
 * mainnet.md §1), so what a user did is the function its transaction invoked and the arguments it
 * passed (0.6.0 signatures), and, for a liquidation, the `Vault` entries it removed. Only
 * successful transactions act.
 *
 * - `new_vault(prev_key, caller, initial_debt, collateral_amount, denomination)`
 * - `increase_collateral | withdraw_collateral | increase_debt | pay_debt(prev_key, vault_key, new_prev_key, amount)`,
 *   `vault_key = {account, denomination, index}`
 * - `redeem(caller, denomination, new_prev_key, amount)`
 * - `liquidate(liquidator, denomination, total_vaults_to_liquidate)`
 * - `transfer_debt(prev_key, vault_key, destination)`
 *
 * Amounts are what the call names (collateral sent before FxDAO's fee; debt minted, paid or
 * redeemed in the denomination's stablecoin). Activities have no event: `event_index` numbers them
 * after the transaction's events, in the order listed here.
 */
export interface VaultActivity extends ProtocolActivity {
  asset?: string
  amount?: bigint
  denomination: string
  /** `new_vault`: the debt opened with. */
  debt?: bigint
  /** `transfer_debt`: the account the vault moved to. */
  destination?: string
  /** `liquidate`: the owners whose vaults it removed; `liquidated`: who liquidated. */
  owners?: string[]
  liquidator?: string
}

const COLLATERAL_FNS = new Set(['increase_collateral', 'withdraw_collateral'])
const DEBT_FNS = new Set(['increase_debt', 'pay_debt'])

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Owners of the `Vault((account, denomination))` entries a transaction removed. */
function removedOwners(tx: DecodedTransaction, contract: string): string[] {
  const owners: string[] = []
  for (const change of tx.contractDataChanges) {
    if (change.contract !== contract || change.kind !== 'removed' || !Array.isArray(change.key)) continue
    const [tag, inner] = change.key as [unknown, unknown]
    if (tag === 'Vault' && Array.isArray(inner) && typeof inner[0] === 'string') owners.push(inner[0])
  }
  return owners
}

export function readVaultActivities(ledger: DecodedLedger, network: NetworkConfig): VaultActivity[] {
  const contract = network.contracts.vaultprotocol.address
  const collateral = network.vaultprotocol.collateral_asset
  const debtAsset = (denomination: string) => network.vaultprotocol.denominations[denomination]?.debt_asset
  const activities: VaultActivity[] = []
  for (const tx of ledger.transactions) {
    const call = tx.invoked
    if (!tx.successful || call === null || call.contract !== contract) continue
    const where = {
      protocol: VAULT,
      contract,
      ledger: ledger.sequence,
      tx_hash: tx.hash,
      operation: 0,
    }
    const first = tx.events.length
    const a = call.args
    if (call.fn === 'new_vault') {
      const [, caller, debt, amount, denomination] = a
      if (typeof caller !== 'string' || typeof debt !== 'bigint' || typeof amount !== 'bigint') continue
      if (typeof denomination !== 'string') continue
      activities.push({
        ...where,
        type: 'new_vault',
        event_index: first,
        account: caller,
        asset: collateral,
        amount,
        denomination,
        debt,
      })
    } else if (COLLATERAL_FNS.has(call.fn) || DEBT_FNS.has(call.fn)) {
      const [, key, , amount] = a
      if (!isRecord(key) || typeof key.account !== 'string' || typeof key.denomination !== 'string') continue
      if (typeof amount !== 'bigint') continue
      const asset = COLLATERAL_FNS.has(call.fn) ? collateral : debtAsset(key.denomination)
      if (asset === undefined) continue
      activities.push({
        ...where,
        type: call.fn,
        event_index: first,
        account: key.account,
        asset,
        amount,
        denomination: key.denomination,
      })
    } else if (call.fn === 'redeem') {
      const [caller, denomination, , amount] = a
      if (typeof caller !== 'string' || typeof denomination !== 'string' || typeof amount !== 'bigint')
        continue
      const asset = debtAsset(denomination)
      if (asset === undefined) continue
      activities.push({
        ...where,
        type: 'redeem',
        event_index: first,
        account: caller,
        asset,
        amount,
        denomination,
      })
    } else if (call.fn === 'liquidate') {
      const [liquidator, denomination] = a
      if (typeof liquidator !== 'string' || typeof denomination !== 'string') continue
      const owners = removedOwners(tx, contract)
      activities.push({
        ...where,
        type: 'liquidate',
        event_index: first,
        account: liquidator,
        denomination,
        owners,
      })
      owners.forEach((owner, i) => {
        activities.push({
          ...where,
          type: 'liquidated',
          event_index: first + 1 + i,
          account: owner,
          denomination,
          liquidator,
        })
      })
    } else if (call.fn === 'transfer_debt') {
      const [, key, destination] = a
      if (!isRecord(key) || typeof key.account !== 'string' || typeof key.denomination !== 'string') continue
      if (typeof destination !== 'string') continue
      activities.push({
        ...where,
        type: 'transfer_debt',
        event_index: first,
        account: key.account,
        counterparties: [destination],
        denomination: key.denomination,
        destination,
      })
    }
  }
  return activities
}
