import type { NetworkConfig } from '../../src/chain/network.ts'
import { decimal, roundHalfEven } from './reference-model.ts'

/**
 * What the activities endpoint must show of an action, written again here from the contracts'
 * event layouts (Blend pool/src/events.rs, Soroswap contracts/pair/src/event.rs, DeFindex
 * vault/src/events.rs, FxDAO 0.6.0 calls) and docs/api.md, independently of the module code.
 */

export interface RefLeg {
  role: 'asset' | 'shares' | 'debt'
  direction: 'sent' | 'received' | 'minted' | 'burnt'
  asset: string | null
  raw: bigint
  /** The token's decimals; null when unknown. */
  decimals: number | null
}

/** A stored row, or an action read from the ledgers, in the stored row's terms. */
export interface RefRow {
  protocol: string
  type: string
  contract: string
  asset: string | null
  amount: string | null
  details: Record<string, unknown>
}

const int = (v: unknown) => (typeof v === 'string' && /^-?[0-9]+$/.test(v) ? BigInt(v) : null)

/** Legs and details of an action, in the documented order. */
export function expectedLegs(
  row: RefRow,
  network: NetworkConfig,
): { legs: RefLeg[]; details: Record<string, unknown> } {
  const d = row.details
  const dec = (asset: string | null) => (asset === null ? null : (network.assets[asset]?.decimals ?? null))
  const leg = (
    role: RefLeg['role'],
    direction: RefLeg['direction'],
    asset: string | null,
    raw: bigint,
    decimals = dec(asset),
  ): RefLeg => ({ role, direction, asset, raw, decimals })
  const amount = row.amount === null ? null : BigInt(row.amount)
  if (row.protocol === 'ammprotocol') {
    const pair = network.ammprotocol.pairs[row.contract]!
    const [t0, t1] = [pair.token_0, pair.token_1]
    const units = (token: string, v: unknown) =>
      dec(token) === null || int(v) === null ? null : decimal(int(v)!, dec(token)!)
    if (row.type === 'add_liquidity')
      return {
        legs: [
          leg('asset', 'sent', t0, int(d.amount_0)!),
          leg('asset', 'sent', t1, int(d.amount_1)!),
          leg('shares', 'minted', row.contract, int(d.liquidity)!, 7),
        ],
        details: { reserve_0: units(t0, d.reserve_0), reserve_1: units(t1, d.reserve_1) },
      }
    if (row.type === 'remove_liquidity')
      return {
        legs: [
          leg('shares', 'burnt', row.contract, int(d.liquidity)!, 7),
          leg('asset', 'received', t0, int(d.amount_0)!),
          leg('asset', 'received', t1, int(d.amount_1)!),
        ],
        details: { reserve_0: units(t0, d.reserve_0), reserve_1: units(t1, d.reserve_1) },
      }
    if (row.type === 'swap') {
      const legs: RefLeg[] = []
      for (const [key, token, direction] of [
        ['amount_0_in', t0, 'sent'],
        ['amount_1_in', t1, 'sent'],
        ['amount_0_out', t0, 'received'],
        ['amount_1_out', t1, 'received'],
      ] as const)
        if (int(d[key])! > 0n) legs.push(leg('asset', direction, token, int(d[key])!))
      return { legs, details: {} }
    }
    return { legs: [leg('shares', 'sent', row.contract, amount!, 7)], details: { to: d.to } }
  }
  if (row.protocol === 'yieldprotocol') {
    const funds = d.total_managed_funds_before as Array<Record<string, unknown>> | null
    const order = network.contracts.yieldprotocol.find((c) => c.address === row.contract)?.assets ?? []
    const assetAt = (i: number) => (funds?.[i]?.asset as string | undefined) ?? order[i] ?? null
    const units = (asset: string | null, v: unknown) =>
      dec(asset) === null || int(v) === null ? null : decimal(int(v)!, dec(asset)!)
    const before = () => ({
      total_supply_before:
        int(d.total_supply_before) === null ? null : decimal(int(d.total_supply_before)!, 7),
      total_managed_funds_before:
        funds === null
          ? null
          : funds.map((f) => ({
              asset: f.asset,
              idle_amount: units(f.asset as string, f.idle_amount),
              invested_amount: units(f.asset as string, f.invested_amount),
              total_amount: units(f.asset as string, f.total_amount),
              strategy_allocations: (f.strategy_allocations as Array<Record<string, unknown>>).map((s) => ({
                strategy_address: s.strategy_address,
                amount: units(f.asset as string, s.amount),
                paused: typeof s.paused === 'boolean' ? s.paused : null,
              })),
            })),
    })
    if (row.type === 'deposit')
      return {
        legs: [
          ...(d.amounts as string[]).map((v, i) => leg('asset', 'sent', assetAt(i), BigInt(v))),
          leg('shares', 'minted', row.contract, int(d.df_tokens_minted)!, 7),
        ],
        details: before(),
      }
    if (row.type === 'withdraw')
      return {
        legs: [
          leg('shares', 'burnt', row.contract, int(d.df_tokens_burned)!, 7),
          ...(d.amounts_withdrawn as string[]).map((v, i) => leg('asset', 'received', assetAt(i), BigInt(v))),
        ],
        details: before(),
      }
    if (row.type === 'transfer')
      return { legs: [leg('shares', 'sent', row.contract, amount!, 7)], details: { to: d.to } }
    return { legs: [], details: d }
  }
  if (row.protocol === 'lendingprotocol') {
    const requests: Record<string, [RefLeg['direction'], RefLeg['direction'], RefLeg['role']]> = {
      supply: ['sent', 'minted', 'shares'],
      supply_collateral: ['sent', 'minted', 'shares'],
      withdraw: ['received', 'burnt', 'shares'],
      withdraw_collateral: ['received', 'burnt', 'shares'],
      borrow: ['received', 'minted', 'debt'],
      repay: ['sent', 'burnt', 'debt'],
    }
    const r = requests[row.type]
    if (r)
      return {
        legs: [leg('asset', r[0], row.asset, amount!), leg(r[2], r[1], row.asset, int(d.tokens)!)],
        details: {},
      }
    if (row.type === 'claim')
      return {
        legs: [leg('asset', 'received', null, amount!, 7)],
        details: { reserve_token_ids: d.reserve_token_ids },
      }
    const units = (map: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(map).map(([a, v]) => [a, dec(a) === null ? null : decimal(BigInt(v), dec(a)!)]),
      )
    return {
      legs: [],
      details: {
        ...d,
        bid: units(d.bid as Record<string, string>),
        lot: units(d.lot as Record<string, string>),
      },
    }
  }
  // FxDAO: the call's amount; new_vault also mints the debt token to the caller.
  const { debt, ...rest } = d
  const direction: Record<string, RefLeg['direction']> = {
    new_vault: 'sent',
    increase_collateral: 'sent',
    withdraw_collateral: 'received',
    increase_debt: 'received',
    pay_debt: 'sent',
    redeem: 'sent',
  }
  const legs: RefLeg[] = []
  if (direction[row.type] && amount !== null) legs.push(leg('asset', direction[row.type]!, row.asset, amount))
  if (row.type === 'new_vault')
    legs.push(
      leg(
        'asset',
        'received',
        network.vaultprotocol.denominations[rest.denomination as string]!.debt_asset,
        BigInt(debt as string),
      ),
    )
  return { legs, details: rest }
}

/** A price row as the test reads it (from the store or from the ledgers). */
export interface RefPriceRow {
  price: bigint
  decimals: number
  /** Null: a peg, never stale. */
  timestampS: number | null
}

/**
 * Legs valued as docs/api.md says: asset legs through their feed, else (an FxDAO stablecoin) its
 * denomination's price asset's feed, or exactly one dollar for a denomination without one; the
 * action's amount_usd from the asset legs sent, else those received.
 */
export async function valueRefLegs(
  legs: RefLeg[],
  network: NetworkConfig,
  closeTime: number | null,
  maxAgeS: number,
  priceAt: (oracle: string, feedAsset: string) => Promise<RefPriceRow | null> | RefPriceRow | null,
) {
  const out = []
  for (const l of legs) {
    let usd: bigint | null = null
    let reason: string | null = null
    if (l.role !== 'asset') reason = 'protocol_token'
    else if (l.asset === null || network.assets[l.asset] === undefined) reason = 'asset_unknown'
    else {
      const feed = network.assets[l.asset]!.price_feed ?? null
      // A declared USD peg is a price of exactly 1 that never goes stale.
      const pegged = network.assets[l.asset]!.price_peg === 'USD'
      const row: RefPriceRow | null = pegged
        ? { price: 1n, decimals: 0, timestampS: null }
        : feed
          ? await priceAt(feed.oracle, feed.asset)
          : null
      if (!row) reason = 'price_missing'
      else {
        if (row.timestampS !== null && closeTime !== null && closeTime - row.timestampS > maxAgeS)
          reason = 'price_stale'
        else {
          const shift = l.decimals! + row.decimals - 7
          const product = l.raw * row.price
          usd = shift >= 0 ? roundHalfEven(product, 10n ** BigInt(shift)) : product * 10n ** BigInt(-shift)
        }
      }
    }
    out.push({
      role: l.role,
      direction: l.direction,
      asset: l.asset,
      symbol: l.asset === null ? null : (network.assets[l.asset]?.symbol ?? null),
      amount_raw: l.raw.toString(),
      amount: l.decimals === null ? null : decimal(l.raw, l.decimals),
      amount_usd: usd === null ? null : decimal(usd, 7),
      usd_unavailable_reason: reason,
    })
  }
  const assets = out.filter((l) => l.role === 'asset')
  const sent = assets.filter((l) => l.direction === 'sent')
  const counted = sent.length > 0 ? sent : assets.filter((l) => l.direction === 'received')
  let amountUsd: string | null = null
  let reason: string | null = null
  if (counted.length === 0) reason = out.length > 0 ? 'protocol_token' : 'no_amount'
  else if (counted.some((l) => l.amount_usd === null))
    reason = counted.find((l) => l.amount_usd === null)!.usd_unavailable_reason
  else
    amountUsd = decimal(
      counted.reduce((s, l) => s + BigInt(l.amount_usd!.replace('.', '')), 0n),
      7,
    )
  return { legs: out, amount_usd: amountUsd, usd_unavailable_reason: reason }
}
