import type { NetworkConfig } from '../../chain/network.ts'
import { formatUnits } from '../kit/amounts.ts'
import type { ActivityDescription, ActivityLegSpec, StoredActivityFields } from '../kit/protocol-module.ts'

/** BLND, which `claim` pays, has 7 decimals (the network description may not list it). */
const BLND_DECIMALS = 7

/**
 * Per pool request: the direction the underlying moves from the account's side, and the pool token
 * the request mints or burns (blend-contracts-v2 pool/src/pool/actions.rs).
 */
const REQUEST_LEGS: Record<
  string,
  { asset: 'sent' | 'received'; token: 'minted' | 'burnt'; role: 'shares' | 'debt' }
> = {
  supply: { asset: 'sent', token: 'minted', role: 'shares' },
  supply_collateral: { asset: 'sent', token: 'minted', role: 'shares' },
  withdraw: { asset: 'received', token: 'burnt', role: 'shares' },
  withdraw_collateral: { asset: 'received', token: 'burnt', role: 'shares' },
  borrow: { asset: 'received', token: 'minted', role: 'debt' },
  repay: { asset: 'sent', token: 'burnt', role: 'debt' },
}

const intOf = (v: unknown): bigint | null =>
  typeof v === 'string' && /^-?[0-9]+$/.test(v) ? BigInt(v) : null

/**
 * A pool's stored activity as the activities endpoint shows it. A request moves the underlying
 * and mints or burns the reserve's b-tokens (supply side) or d-tokens (debt), which count in the
 * underlying's decimals; `claim` pays BLND. An auction's lot and bid are its terms, not moves: they
 * stay in `details`, each amount in its reserve asset's decimals (null when the description does
 * not list the asset, as for the backstop's token).
 */
export function describeLendingActivity(
  a: StoredActivityFields,
  network: NetworkConfig,
): ActivityDescription {
  const d = a.details
  const request = REQUEST_LEGS[a.type]
  const amount = a.amount === null ? null : BigInt(a.amount)
  if (request !== undefined) {
    const legs: ActivityLegSpec[] = []
    if (amount !== null) legs.push({ asset: a.asset, role: 'asset', direction: request.asset, amount })
    const tokens = intOf(d.tokens)
    if (tokens !== null)
      legs.push({
        asset: a.asset,
        role: request.role,
        direction: request.token,
        amount: tokens,
        decimals: a.asset === null ? null : (network.assets[a.asset]?.decimals ?? null),
      })
    return { legs, details: {} }
  }
  if (a.type === 'claim') {
    const legs: ActivityLegSpec[] =
      amount === null
        ? []
        : [{ asset: a.asset, role: 'asset', direction: 'received', amount, decimals: BLND_DECIMALS }]
    return { legs, details: { reserve_token_ids: d.reserve_token_ids ?? [] } }
  }
  if (a.type === 'new_auction' || a.type === 'fill_auction') {
    const units = (map: unknown) =>
      Object.fromEntries(
        Object.entries(typeof map === 'object' && map !== null ? map : {}).map(([asset, v]) => {
          const n = intOf(v)
          const decimals = network.assets[asset]?.decimals
          return [asset, n === null || decimals === undefined ? null : formatUnits(n, decimals)]
        }),
      )
    return { legs: [], details: { ...d, bid: units(d.bid), lot: units(d.lot) } }
  }
  return { legs: [], details: d }
}
