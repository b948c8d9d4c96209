import { formatUnits } from './amounts.ts'
import type { UsdPart } from './protocol-module.ts'
import { USD_DECIMALS } from './valuation.ts'

/**
 * USD totals of one protocol's positions answer, and of every protocol's together: what the
 * account holds (collateral, supplied, liquidity, vault shares), what it owes, and the difference.
 */
export interface UsdTotals {
  /** USD with 7 decimals as a BigInt count of 10^-7; null when a part is unpriced or nothing is held. */
  assetsUsd: bigint | null
  debtUsd: bigint | null
  /** Why a total is null although positions exist (the first row's reason); null otherwise. */
  reason: string | null
  /** Whether any position was counted. */
  held: boolean
}

export const NO_TOTALS: UsdTotals = { assetsUsd: null, debtUsd: null, reason: null, held: false }

/** A 7-decimal USD string of an answer back to its integer count of 10^-7 USD. */
export function parseUsd(text: string): bigint {
  const [whole, fraction = ''] = text.split('.')
  if (fraction.length !== USD_DECIMALS) throw new RangeError(`not a 7-decimal USD value: ${text}`)
  const negative = whole!.startsWith('-')
  const value = BigInt(`${negative ? whole!.slice(1) : whole}${fraction}`)
  return negative ? -value : value
}

/** Sums parts; a total with an unpriced part is null, with the first such part's reason. */
export function sumUsdParts(parts: readonly UsdPart[]): UsdTotals {
  if (parts.length === 0) return NO_TOTALS
  let assets: bigint | null = 0n
  let debt: bigint | null = 0n
  let reason: string | null = null
  for (const part of parts) {
    if (part.usd === null) {
      if (part.side === 'asset') assets = null
      else debt = null
      reason ??= part.reason ?? 'price_missing'
      continue
    }
    const value = parseUsd(part.usd)
    if (part.side === 'asset' && assets !== null) assets += value
    if (part.side === 'debt' && debt !== null) debt += value
  }
  return { assetsUsd: assets, debtUsd: debt, reason, held: true }
}

/** Adds totals of several protocols: null stays null, the first reason is kept. */
export function addTotals(list: readonly UsdTotals[]): UsdTotals {
  const held = list.filter((t) => t.held)
  if (held.length === 0) return NO_TOTALS
  const add = (values: Array<bigint | null>) =>
    values.some((v) => v === null) ? null : values.reduce<bigint>((a, v) => a + v!, 0n)
  return {
    assetsUsd: add(held.map((t) => t.assetsUsd)),
    debtUsd: add(held.map((t) => t.debtUsd)),
    reason: held.find((t) => t.reason !== null)?.reason ?? null,
    held: true,
  }
}

/** The reason of totals left null because their parts were valued at different ledgers. */
export const VALUATION_LEDGERS_DIFFER = 'valuation_ledgers_differ'

/**
 * Totals of several sections, each valued at its own ledger: added up when every section that
 * holds something was valued at one ledger (returned with it), never across ledgers: then null,
 * with `VALUATION_LEDGERS_DIFFER` (and `valuationLedger` null).
 */
export function addValuedTotals(
  sections: ReadonlyArray<{ totals: UsdTotals; valuationLedger: number | null }>,
): { totals: UsdTotals; valuationLedger: number | null } {
  const ledgers = new Set<number | null>()
  for (const s of sections) if (s.totals.held) ledgers.add(s.valuationLedger)
  if (ledgers.size > 1) {
    return {
      totals: { assetsUsd: null, debtUsd: null, reason: VALUATION_LEDGERS_DIFFER, held: true },
      valuationLedger: null,
    }
  }
  const [ledger = null] = ledgers
  return { totals: addTotals(sections.map((s) => s.totals)), valuationLedger: ledger }
}

/** The totals as an answer writes them. */
export function formatTotals(t: UsdTotals) {
  const fmt = (v: bigint | null) => (v === null ? null : formatUnits(v, USD_DECIMALS))
  return {
    assets_usd: fmt(t.assetsUsd),
    debt_usd: fmt(t.debtUsd),
    net_usd: t.assetsUsd === null || t.debtUsd === null ? null : fmt(t.assetsUsd - t.debtUsd),
    usd_unavailable_reason: t.reason,
  }
}

/**
 * The parts of an answer in DESIGN §4.1's row shape (lending, AMM, yield): every row with
 * `position_type` `borrow` is debt, every other row (supply, collateral, liquidity, vault_share)
 * an asset, valued by its `amount_usd`.
 */
export function rowUsdParts(data: unknown): UsdPart[] {
  const rows = (data as { positions?: unknown }).positions
  if (!Array.isArray(rows)) return []
  return rows.map(
    (row: {
      position_type?: string
      amount_usd?: string | null
      usd_unavailable_reason?: string | null
    }) => ({
      side: row.position_type === 'borrow' ? 'debt' : 'asset',
      usd: row.amount_usd ?? null,
      reason: row.usd_unavailable_reason ?? null,
    }),
  )
}
