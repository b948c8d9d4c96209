import { Type } from 'typebox'

const nullableString = (description: string, pattern?: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], description, ...(pattern ? { pattern } : {}) })
const nullableInteger = (description: string) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], description })

const AMOUNT = '^-?[0-9]+\\.[0-9]+$'

const Position = Type.Object({
  protocol: Type.String({ description: '`lendingprotocol`' }),
  contract_address: Type.String({ description: 'The Blend pool (C…)' }),
  position_type: Type.Unsafe<'supply' | 'collateral' | 'borrow'>({
    type: 'string',
    enum: ['supply', 'collateral', 'borrow'],
    description: 'supply (not collateral), collateral, or borrow',
  }),
  asset: Type.String({ description: "The reserve's asset contract (C…)" }),
  shares: Type.String({ description: "b-tokens (supply, collateral) or d-tokens (borrow), in the asset's decimals", pattern: AMOUNT }),
  amount: nullableString(
    "Underlying amount in the asset's decimals: floor(b × b_rate / 10^12), ceil(d × d_rate / 10^12); null when the rate is not known",
    AMOUNT,
  ),
  amount_usd: nullableString('amount × the asset price at the valuation ledger, 7 decimals; null when unavailable', AMOUNT),
  rate: nullableString('b_rate or d_rate used, 12 decimals', AMOUNT),
  rate_ledger: nullableInteger('The ledger at which that rate was written (the reserve\'s ResData)'),
  ledger: Type.Integer({ description: 'Ledger at which this balance itself last changed' }),
  usd_unavailable_reason: Type.Unsafe<'price_missing' | 'price_stale' | 'rate_missing' | null>({
    type: ['string', 'null'],
    enum: ['price_missing', 'price_stale', 'rate_missing', null],
    description: 'Why amount_usd is null; null when it is set',
  }),
})

const Group = Type.Object({
  contract_address: Type.String({ description: 'The Blend pool (C…)' }),
  collateral_usd: nullableString('Σ amount_usd of collateral rows', AMOUNT),
  supplied_usd: nullableString('Σ amount_usd of supply rows (not collateral)', AMOUNT),
  borrowed_usd: nullableString('Σ amount_usd of borrow rows', AMOUNT),
  effective_collateral_usd: nullableString(
    "Σ floor(price × floor(collateral × c_factor / 10^7) / 10^decimals), as Blend's health factor counts it, 7 decimals",
    AMOUNT,
  ),
  effective_liabilities_usd: nullableString(
    "Σ ceil(price × ceil(borrowed × 10^7 / l_factor) / 10^decimals), as Blend counts it, 7 decimals",
    AMOUNT,
  ),
  borrow_limit: nullableString('effective liabilities / effective collateral, 7 decimals (floor); null without collateral', AMOUNT),
  health_factor: nullableString('effective collateral / effective liabilities, 7 decimals (floor); null without debt', AMOUNT),
  usd_unavailable_reason: Type.Unsafe<'price_missing' | 'price_stale' | 'rate_missing' | 'config_missing' | null>({
    type: ['string', 'null'],
    enum: ['price_missing', 'price_stale', 'rate_missing', 'config_missing', null],
    description: 'Why the USD figures are null; null when they are set',
  }),
})

const Asset = Type.Object({
  decimals: Type.Integer(),
  price_source: nullableString('Oracle contract of the price; null when none was used'),
  price_usd: nullableString("USD price used, in the feed's own decimals; null when missing"),
  symbol: Type.String(),
  tags: Type.Array(Type.String()),
})

const Contract = Type.Object({
  name: Type.String(),
  position_types: Type.Array(Type.String()),
  protocol: Type.String(),
  status: Type.String(),
  version: Type.String(),
})

export const LendingPositionsSchema = Type.Object({
  data: Type.Object({
    address: Type.String(),
    positions: Type.Array(Position),
    groups: Type.Array(Group),
  }),
  enrichment: Type.Object({
    assets: Type.Record(Type.String(), Asset),
    contracts: Type.Record(Type.String(), Contract),
  }),
  meta: Type.Object({
    requested_ledger: Type.Unsafe<number | bigint | null>({
      type: ['integer', 'null'],
      description: 'The pin, echoed unchanged; null when omitted',
    }),
    as_of_ledger: nullableInteger('Ledger of the snapshot served; null when the pin predates the first snapshot'),
    attribution_confidence: Type.Number({ description: '1 for positions held directly by the address' }),
    data_staleness_seconds: nullableInteger('Now minus the close time of last_indexed_ledger'),
    last_indexed_ledger: nullableInteger('The indexer checkpoint'),
    indexed_from_ledger: nullableInteger('The first ledger the store ingested (null before the first batch)'),
    oracle_staleness_seconds: Type.Integer({
      description: 'Close time of the valuation ledger minus the oldest price timestamp used; 0 when none',
    }),
    partial_result: Type.Boolean({
      description:
        "true when the answer needs what the store does not hold: ledgers above the head, a pool's history before indexed_from_ledger, or a reserve whose asset or rate was never seen",
    }),
    response_time_ms: Type.Integer(),
    sources: Type.Array(Type.String(), { description: 'The ledger source and the oracle contracts used' }),
  }),
})
