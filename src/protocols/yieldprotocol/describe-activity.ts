import type { NetworkConfig } from '../../chain/network.ts'
import { formatUnits } from '../kit/amounts.ts'
import {
  type ActivityDescription,
  type ActivityLegSpec,
  type StoredActivityFields,
  storedInt,
} from '../kit/protocol-module.ts'
import { SHARE_DECIMALS } from './funds.ts'

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const intOf = (v: unknown): bigint | null =>
  typeof v === 'string' && /^-?[0-9]+$/.test(v) ? BigInt(v) : null

/**
 * A vault's stored activity as the activities endpoint shows it. A deposit's `amounts` and a
 * withdrawal's `amounts_withdrawn` follow the vault's asset order (vault/src/deposit.rs,
 * withdraw.rs): the event's `total_managed_funds_before` names each asset in that order; a vault
 * that emits no such field has its order from the network description. The vault is its own
 * df-token (7 decimals).
 */
export function describeYieldActivity(a: StoredActivityFields, network: NetworkConfig): ActivityDescription {
  const d = a.details
  const decimalsOf = (asset: string | null) => (asset === null ? undefined : network.assets[asset]?.decimals)
  const funds = Array.isArray(d.total_managed_funds_before)
    ? d.total_managed_funds_before.filter(isRecord)
    : null
  const described = network.contracts.yieldprotocol.find((c) => c.address === a.contract)?.assets ?? []
  const assetAt = (i: number): string | null => {
    const named = funds?.[i]?.asset
    return typeof named === 'string' ? named : (described[i] ?? null)
  }
  const shares = (direction: ActivityLegSpec['direction'], amount: bigint | null): ActivityLegSpec[] =>
    amount === null
      ? []
      : [{ asset: a.contract, role: 'shares', direction, amount, decimals: SHARE_DECIMALS }]
  const underlying = (list: unknown, direction: 'sent' | 'received'): ActivityLegSpec[] =>
    (Array.isArray(list) ? list : []).flatMap((v, i) => {
      const amount = intOf(v)
      return amount === null ? [] : [{ asset: assetAt(i), role: 'asset' as const, direction, amount }]
    })
  /** The vault's state the event reports from before the action, in asset units. */
  const before = () => {
    const supply = storedInt(d, 'total_supply_before')
    return {
      total_supply_before: supply === null ? null : formatUnits(supply, SHARE_DECIMALS),
      total_managed_funds_before:
        funds === null
          ? null
          : funds.map((f) => {
              const asset = typeof f.asset === 'string' ? f.asset : null
              const decimals = decimalsOf(asset)
              const units = (v: unknown) => {
                const n = intOf(v)
                return n === null || decimals === undefined ? null : formatUnits(n, decimals)
              }
              return {
                asset,
                idle_amount: units(f.idle_amount),
                invested_amount: units(f.invested_amount),
                total_amount: units(f.total_amount),
                strategy_allocations: (Array.isArray(f.strategy_allocations) ? f.strategy_allocations : [])
                  .filter(isRecord)
                  .map((s) => ({
                    strategy_address: s.strategy_address ?? null,
                    amount: units(s.amount),
                    paused: typeof s.paused === 'boolean' ? s.paused : null,
                  })),
              }
            }),
    }
  }
  if (a.type === 'deposit')
    return {
      legs: [...underlying(d.amounts, 'sent'), ...shares('minted', storedInt(d, 'df_tokens_minted'))],
      details: before(),
    }
  if (a.type === 'withdraw')
    return {
      legs: [
        ...shares('burnt', storedInt(d, 'df_tokens_burned')),
        ...underlying(d.amounts_withdrawn, 'received'),
      ],
      details: before(),
    }
  if (a.type === 'transfer')
    return {
      legs: shares('sent', a.amount === null ? null : BigInt(a.amount)),
      details: { to: d.to ?? null },
    }
  return { legs: [], details: d }
}
