import type { NetworkConfig } from '../../chain/network.ts'
import {
  type ActivityDescription,
  type ActivityLegSpec,
  type StoredActivityFields,
  storedInt,
} from '../kit/protocol-module.ts'

/** The direction of a call's named amount from the caller's side (FxDAO 0.6.0). */
const DIRECTIONS: Record<string, 'sent' | 'received'> = {
  new_vault: 'sent',
  increase_collateral: 'sent',
  withdraw_collateral: 'received',
  increase_debt: 'received',
  pay_debt: 'sent',
  redeem: 'sent',
}

/**
 * An FxDAO stored activity as the activities endpoint shows it: the amount its call names, and for
 * `new_vault` the stablecoin it mints to the caller (`details.debt` as stored). What a `redeem`
 * pays out and what a liquidation moves are not in the call: no leg.
 */
export function describeVaultActivity(a: StoredActivityFields, network: NetworkConfig): ActivityDescription {
  const { debt: _debt, ...details } = a.details
  const legs: ActivityLegSpec[] = []
  const direction = DIRECTIONS[a.type]
  if (direction !== undefined && a.amount !== null)
    legs.push({ asset: a.asset, role: 'asset', direction, amount: BigInt(a.amount) })
  const debt = a.type === 'new_vault' ? storedInt(a.details, 'debt') : null
  if (debt !== null) {
    const denomination = typeof details.denomination === 'string' ? details.denomination : ''
    const asset = network.vaultprotocol.denominations[denomination]?.debt_asset ?? null
    legs.push({ asset, role: 'asset', direction: 'received', amount: debt })
  }
  return { legs, details }
}
