import type { NetworkConfig } from '../../chain/network.ts'
import { formatUnits } from '../kit/amounts.ts'
import {
  type ActivityDescription,
  type ActivityLegSpec,
  type StoredActivityFields,
  storedInt,
} from '../kit/protocol-module.ts'
import { LP_DECIMALS } from './pairs.ts'

/**
 * A pair's stored activity as the activities endpoint shows it. The pair's events name no token
 * (contracts/pair/src/event.rs): amounts `_0` and `_1` are of the pair's `token_0` and `token_1`,
 * which the network description lists for every watched pair. A pair is its own LP token.
 */
export function describeAmmActivity(a: StoredActivityFields, network: NetworkConfig): ActivityDescription {
  const pair = network.ammprotocol.pairs[a.contract]
  const tokens = [pair?.token_0 ?? null, pair?.token_1 ?? null] as const
  const d = a.details
  const legs: ActivityLegSpec[] = []
  const asset = (i: 0 | 1, direction: 'sent' | 'received', amount: bigint | null) => {
    if (amount !== null) legs.push({ asset: tokens[i], role: 'asset', direction, amount })
  }
  const shares = (direction: ActivityLegSpec['direction'], amount: bigint | null) => {
    if (amount !== null)
      legs.push({ asset: a.contract, role: 'shares', direction, amount, decimals: LP_DECIMALS })
  }
  /** An amount of token i in its units; null when the description gives no decimals for it. */
  const units = (i: 0 | 1, amount: bigint | null) => {
    const decimals = tokens[i] === null ? undefined : network.assets[tokens[i]]?.decimals
    return amount === null || decimals === undefined ? null : formatUnits(amount, decimals)
  }
  if (a.type === 'add_liquidity' || a.type === 'remove_liquidity') {
    const add = a.type === 'add_liquidity'
    if (!add) shares('burnt', storedInt(d, 'liquidity'))
    asset(0, add ? 'sent' : 'received', storedInt(d, 'amount_0'))
    asset(1, add ? 'sent' : 'received', storedInt(d, 'amount_1'))
    if (add) shares('minted', storedInt(d, 'liquidity'))
    return {
      legs,
      details: {
        reserve_0: units(0, storedInt(d, 'reserve_0')),
        reserve_1: units(1, storedInt(d, 'reserve_1')),
      },
    }
  }
  if (a.type === 'swap') {
    // What the pair took in first, then what it paid out (both can be non-zero in one swap).
    asset(0, 'sent', nonZero(storedInt(d, 'amount_0_in')))
    asset(1, 'sent', nonZero(storedInt(d, 'amount_1_in')))
    asset(0, 'received', nonZero(storedInt(d, 'amount_0_out')))
    asset(1, 'received', nonZero(storedInt(d, 'amount_1_out')))
    return { legs, details: {} }
  }
  if (a.type === 'lp_transfer') {
    shares('sent', a.amount === null ? null : BigInt(a.amount))
    return { legs, details: { to: d.to ?? null } }
  }
  return { legs, details: d }
}

const nonZero = (v: bigint | null) => (v === null || v === 0n ? null : v)
