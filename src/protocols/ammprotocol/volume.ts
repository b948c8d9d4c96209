import type { ContractInfo, NetworkConfig } from '../../chain/network.ts'
import { divCeil, formatUnits } from '../kit/amounts.ts'
import { historyComplete } from '../kit/coverage.ts'
import { ledgerClosedBy } from '../kit/ledger-times.ts'
import type { PositionsDeps, StateQuery } from '../kit/protocol-module.ts'
import { type Priced, toUsd, USD_DECIMALS } from '../kit/valuation.ts'
import { AMM } from './id.ts'
import { tokenDecimals } from './pairs.ts'

/**
 * A pair's trading over the 24 hours of close time ending at the pin, from its stored `swap`
 * activities (the pair's own `swap` events: amount_0_in, amount_0_out, amount_1_in, amount_1_out):
 *
 *   from_ledger = the first ledger closed after close(pin) − 24 h (or the store's first ledger,
 *                 when the store holds the pair's whole history: no swap came before)
 *   token_i_in / token_i_out = Σ amount_i_in / Σ amount_i_out over the swaps in [from, pin]
 *   fees_i      = Σ ceil(amount_i_in × 3 / 1000): the 0.3 % the pair keeps of every input
 *                 (contracts/pair/src/lib.rs `swap`)
 *   volume_usd  = token_0_in × price_0 + token_1_in × price_1: each swap counted once, by what it paid in
 *   fees_usd    = fees_0 × price_0 + fees_1 × price_1
 *
 * Prices are the pin's, through the same lookup as the pair's TVL.
 */

const DAY_S = 86_400
const FEE_NUMERATOR = 3n
const FEE_DENOMINATOR = 1000n

export type VolumeProblem = 'history_missing' | 'price_missing' | 'price_stale'

export interface PairVolume {
  from_ledger: number | null
  to_ledger: number
  swaps: number | null
  token_0_in: string | null
  token_0_out: string | null
  token_1_in: string | null
  token_1_out: string | null
  fees_0: string | null
  fees_1: string | null
  volume_usd: string | null
  fees_usd: string | null
  unavailable_reason: VolumeProblem | null
}

const FIELDS = ['amount_0_in', 'amount_0_out', 'amount_1_in', 'amount_1_out'] as const

/** The first ledger of the window, or null when the store cannot tell every swap in it. */
async function windowStart(
  deps: PositionsDeps,
  pair: ContractInfo,
  query: StateQuery,
): Promise<number | null> {
  const first = (await deps.reader.head()).firstIndexedLedger
  if (first === null || query.closeTime === null || first > query.ledger) return null
  const before = await ledgerClosedBy(deps.reader, first, query.ledger, query.closeTime - DAY_S)
  if (before !== null) return before + 1
  // The store starts inside the window: complete only if it saw the pair from its deployment.
  return historyComplete(pair, first, query.ledger) ? first : null
}

export async function pairVolume(
  deps: PositionsDeps,
  network: NetworkConfig,
  pair: ContractInfo,
  tokens: [string | null, string | null],
  prices: [Priced | null, Priced | null],
  query: StateQuery,
): Promise<PairVolume> {
  const from = deps.activities ? await windowStart(deps, pair, query) : null
  const empty: PairVolume = {
    from_ledger: from,
    to_ledger: query.ledger,
    swaps: null,
    token_0_in: null,
    token_0_out: null,
    token_1_in: null,
    token_1_out: null,
    fees_0: null,
    fees_1: null,
    volume_usd: null,
    fees_usd: null,
    unavailable_reason: 'history_missing',
  }
  if (from === null || !deps.activities) return empty
  const rows = await deps.activities.activitiesOfContract(AMM, pair.address, 'swap', from, query.ledger)
  const sums = { amount_0_in: 0n, amount_0_out: 0n, amount_1_in: 0n, amount_1_out: 0n }
  let fees0 = 0n
  let fees1 = 0n
  for (const row of rows) {
    const details = JSON.parse(row.details) as Record<string, unknown>
    const v = Object.fromEntries(FIELDS.map((f) => [f, BigInt(String(details[f] ?? '0'))])) as typeof sums
    for (const f of FIELDS) sums[f] += v[f]
    fees0 += divCeil(v.amount_0_in * FEE_NUMERATOR, FEE_DENOMINATOR)
    fees1 += divCeil(v.amount_1_in * FEE_NUMERATOR, FEE_DENOMINATOR)
  }
  const [d0, d1] = [tokenDecimals(network, tokens[0]).decimals, tokenDecimals(network, tokens[1]).decimals]
  const [p0, p1] = prices
  const problem: VolumeProblem | null =
    p0 === null || p1 === null ? 'price_missing' : (p0.problem ?? p1.problem)
  const usd = (a0: bigint, a1: bigint) =>
    problem === null && p0 && p1 ? formatUnits(toUsd(a0, d0, p0) + toUsd(a1, d1, p1), USD_DECIMALS) : null
  return {
    from_ledger: from,
    to_ledger: query.ledger,
    swaps: rows.length,
    token_0_in: formatUnits(sums.amount_0_in, d0),
    token_0_out: formatUnits(sums.amount_0_out, d0),
    token_1_in: formatUnits(sums.amount_1_in, d1),
    token_1_out: formatUnits(sums.amount_1_out, d1),
    fees_0: formatUnits(fees0, d0),
    fees_1: formatUnits(fees1, d1),
    volume_usd: usd(sums.amount_0_in, sums.amount_1_in),
    fees_usd: usd(fees0, fees1),
    unavailable_reason: problem,
  }
}
