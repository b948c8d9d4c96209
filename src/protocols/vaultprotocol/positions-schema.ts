import { Type } from 'typebox'

// Nullable values are written as JSON Schema type arrays, not anyOf: the response serializer
// handles a type array directly, while anyOf makes it validate every value to choose a branch.
const nullableString = (description: string, pattern?: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], description, ...(pattern ? { pattern } : {}) })
const nullableInteger = (description: string) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], description })

const AMOUNT = '^-?[0-9]+\\.[0-9]+$'
const Amount = (description: string) => Type.String({ description, pattern: AMOUNT })

const Vault = Type.Object({
  collateral: Amount("Collateral in the collateral asset's units, with exactly its decimals"),
  collateral_usd: nullableString(
    'collateral × its USD price at the valuation ledger, 7 decimals; null when unavailable',
    AMOUNT,
  ),
  collateralization_ratio: nullableString(
    'Collateral value over debt, both in USD (so the denomination\'s own price applies), 4 decimals ("1.8500" = 185%); null when debt is zero or a price is unavailable',
    '^[0-9]+\\.[0-9]{4}$',
  ),
  contract_address: Type.String(),
  debt: Amount(
    'Debt in denomination units: ceil(normalised debt × rate / 10^12), with the debt token decimals',
  ),
  debt_usd: nullableString('debt × the denomination price (USD is exactly 1), 7 decimals', AMOUNT),
  denomination: Type.String(),
  ledger: Type.Integer({ description: 'Ledger at which this position itself last changed' }),
  net_usd: nullableString('collateral_usd − debt_usd of the rounded values', AMOUNT),
  usd_unavailable_reason: Type.Unsafe<'price_missing' | 'price_stale' | null>({
    type: ['string', 'null'],
    enum: ['price_missing', 'price_stale', null],
    description: 'Why the USD fields are null: price_missing or price_stale; null when they are set',
  }),
  vault_index: Type.String({
    description:
      'floor(10^9 × total_collateral / total_debt), as the contract computes it: the sort key of its vault list',
  }),
  rate_ledger: Type.Optional(
    Type.Unsafe<null>({
      type: 'null',
      description:
        '`/at` surface only: the ledger of the rate used to accrue the position; always null here, FxDAO debt is stored plainly and does not accrue',
    }),
  ),
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

export const VaultPositionsSchema = Type.Object({
  data: Type.Object({ address: Type.String(), vaults: Type.Array(Vault) }),
  enrichment: Type.Object({
    assets: Type.Record(Type.String(), Asset),
    contracts: Type.Record(Type.String(), Contract),
  }),
  meta: Type.Object({
    // An int64 pin beyond 2^53 is carried as a BigInt so it echoes back exactly.
    requested_ledger: Type.Unsafe<number | bigint | null>({
      type: ['integer', 'null'],
      description: 'The pin, echoed unchanged; null when omitted',
    }),
    as_of_ledger: nullableInteger(
      'Ledger of the snapshot served; null when the pin predates the first snapshot',
    ),
    attribution_confidence: Type.Number({ description: '1 for positions held directly by the address' }),
    data_staleness_seconds: nullableInteger('Now minus the close time of last_indexed_ledger'),
    last_indexed_ledger: nullableInteger('The indexer checkpoint'),
    indexed_from_ledger: nullableInteger(
      'The first ledger the store ingested: its knowledge starts there (null before the first batch)',
    ),
    oracle_staleness_seconds: Type.Integer({
      description:
        'Close time of the valuation ledger minus the oldest price timestamp used; 0 when no price was needed',
    }),
    partial_result: Type.Boolean({
      description:
        "true when the answer needs ledgers the store does not hold: the pin is above the indexed head, or the contract's history before indexed_from_ledger was never ingested",
    }),
    response_time_ms: Type.Integer(),
    sources: Type.Array(Type.String(), { description: 'The ledger source and the oracle contracts used' }),
  }),
})
