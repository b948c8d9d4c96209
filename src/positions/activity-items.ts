import type { Awaitable } from '../awaitable.ts'
import type { NetworkConfig, PricePeg } from '../chain/network.ts'
import { formatUnits } from '../protocols/kit/amounts.ts'
import type { ActivityLegSpec, PositionsDeps } from '../protocols/kit/protocol-module.ts'
import {
  judgePrice,
  MISSING_PRICE,
  type Priced,
  pegPrice,
  priceSourceOf,
  toUsd,
  USD_DECIMALS,
} from '../protocols/kit/valuation.ts'
import { PROTOCOLS } from '../protocols/registry.ts'
import type { StoredActivity } from '../store/activities.ts'
import type { PriceRow } from '../store/positions-read.ts'

/**
 * Decoded actions as the API shows them: what each moved (its legs, in the tokens' own units) and
 * their USD value with the prices at the action's own ledger.
 */

/** One asset or protocol token an action moved, from its account's side. */
export interface ActivityLeg {
  role: ActivityLegSpec['role']
  direction: ActivityLegSpec['direction']
  asset: string | null
  symbol: string | null
  /** Smallest units, as the chain states them. */
  amount_raw: string
  amount: string | null
  amount_usd: string | null
  usd_unavailable_reason: string | null
}

export interface ActivityItem {
  protocol: string
  type: string
  contract_address: string
  account: string
  ledger: number
  closed_at: string | null
  tx_hash: string
  operation: number
  event_index: number
  legs: ActivityLeg[]
  amount_usd: string | null
  usd_unavailable_reason: string | null
  details: Record<string, unknown>
}

/** Reads the latest price at or before each ledger asked, in one batch (the actions reader). */
export interface BatchPriceReader {
  pricesAt(
    wanted: ReadonlyArray<{ oracle: string; asset: string; ledger: number }>,
  ): Awaitable<Array<PriceRow | null>>
}

const DESCRIBE = new Map(PROTOCOLS.map((m) => [m.name, m.describeActivity]))

/** A leg before its price: its token's decimals (null when unknown) and where a price would come from. */
interface LegPlan {
  spec: ActivityLegSpec
  decimals: number | null
  /** The price slot it needs; null when it is not priced (see `reason`). */
  slot: number | null
  /** The peg that prices it, when the description declares one (priced without a read). */
  peg: PricePeg | null
  reason: string | null
}

/**
 * Values actions together, each with the prices at its own ledger (at or before it, judged against
 * that ledger's close time): every distinct (feed, ledger) price the legs need is read in one
 * batch, then each action is built. Items come in the order of the rows.
 */
export async function valueActions(
  deps: PositionsDeps,
  network: NetworkConfig | null,
  rows: readonly StoredActivity[],
  prices: BatchPriceReader,
): Promise<ActivityItem[]> {
  const wanted: Array<{ oracle: string; asset: string; ledger: number; closeTime: number | null }> = []
  const slots = new Map<string, number>()
  const described = rows.map((row) => {
    const describe = DESCRIBE.get(row.protocol)
    const stored = JSON.parse(row.details) as Record<string, unknown>
    if (describe === undefined || network === null) return { legs: [] as LegPlan[], details: stored }
    const { legs, details } = describe(
      { type: row.type, contract: row.contract, asset: row.asset, amount: row.amount, details: stored },
      network,
    )
    const ledger = Number(row.ledger)
    const closeTime = row.close_time === null ? null : Number(row.close_time)
    const plans = legs.map((spec): LegPlan => {
      const listed = spec.asset === null ? undefined : network.assets[spec.asset]
      const decimals =
        spec.role === 'asset' ? (listed?.decimals ?? spec.decimals ?? null) : (spec.decimals ?? null)
      const plan: LegPlan = { spec, decimals, slot: null, peg: null, reason: null }
      if (spec.role !== 'asset') plan.reason = 'protocol_token'
      else if (spec.asset === null || listed === undefined) plan.reason = 'asset_unknown'
      else {
        const source = priceSourceOf(network, spec.asset)
        if (source === null) plan.reason = 'price_missing'
        else if (source.peg !== null) plan.peg = source.peg
        else {
          const key = `${source.feed.oracle}\u0000${source.feed.asset}\u0000${ledger}`
          let slot = slots.get(key)
          if (slot === undefined) {
            slot = wanted.length
            slots.set(key, slot)
            wanted.push({ oracle: source.feed.oracle, asset: source.feed.asset, ledger, closeTime })
          }
          plan.slot = slot
        }
      }
      return plan
    })
    return { legs: plans, details }
  })
  const found = wanted.length === 0 ? [] : await prices.pricesAt(wanted)
  const judged = wanted.map((w, i) => judgePrice(found[i] ?? null, w.oracle, w.closeTime, deps.maxPriceAgeS))

  return rows.map((row, i) => {
    const { legs: plans, details } = described[i]!
    const legs = plans.map((plan) => valueLeg(network, plan, judged))
    const { usd, reason } = actionUsd(legs)
    return {
      protocol: row.protocol,
      type: row.type,
      contract_address: row.contract,
      account: row.account,
      ledger: Number(row.ledger),
      closed_at: row.close_time === null ? null : new Date(Number(row.close_time) * 1000).toISOString(),
      tx_hash: row.tx_hash,
      operation: row.operation,
      event_index: row.event_index,
      legs,
      amount_usd: usd,
      usd_unavailable_reason: reason,
      details,
    }
  })
}

function valueLeg(network: NetworkConfig | null, plan: LegPlan, judged: readonly Priced[]): ActivityLeg {
  const { spec, decimals } = plan
  let usd: string | null = null
  let reason = plan.reason
  if (reason === null) {
    const priced =
      plan.peg !== null ? pegPrice(plan.peg) : plan.slot === null ? MISSING_PRICE : judged[plan.slot]!
    if (priced.problem !== null || decimals === null) reason = priced.problem ?? 'asset_unknown'
    else usd = formatUnits(toUsd(spec.amount, decimals, priced), USD_DECIMALS)
  }
  return {
    role: spec.role,
    direction: spec.direction,
    asset: spec.asset,
    symbol: spec.asset === null ? null : (network?.assets[spec.asset]?.symbol ?? null),
    amount_raw: spec.amount.toString(),
    amount: decimals === null ? null : formatUnits(spec.amount, decimals),
    amount_usd: usd,
    usd_unavailable_reason: usd === null ? reason : null,
  }
}

/**
 * An action's USD value: the assets it moved, counted once — the asset legs its account sent, or,
 * when it sent none, those it received (a swap is worth what went in; a withdrawal what came out).
 * Protocol tokens are not counted: they stand for the same assets. Null when one counted leg is
 * unpriced (with that leg's reason), or when the action moved no asset (`protocol_token` when it
 * moved only protocol tokens, `no_amount` when it names no amount).
 */
export function actionUsd(legs: readonly ActivityLeg[]): { usd: string | null; reason: string | null } {
  const assets = legs.filter((l) => l.role === 'asset')
  const sent = assets.filter((l) => l.direction === 'sent')
  const counted = sent.length > 0 ? sent : assets.filter((l) => l.direction === 'received')
  if (counted.length === 0) return { usd: null, reason: legs.length > 0 ? 'protocol_token' : 'no_amount' }
  const unpriced = counted.find((l) => l.amount_usd === null)
  if (unpriced) return { usd: null, reason: unpriced.usd_unavailable_reason }
  const total = counted.reduce((sum, l) => sum + BigInt(l.amount_usd!.replace('.', '')), 0n)
  return { usd: formatUnits(total, USD_DECIMALS), reason: null }
}
