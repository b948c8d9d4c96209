import { Type } from 'typebox'
import { Amount, NullableAmount, named, nullableInteger, nullableString } from '../kit/response-schema.ts'

const Position = Type.Object({
  protocol: Type.String({ description: '`lendingprotocol`' }),
  contract_address: Type.String({ description: 'The Blend pool (C…)' }),
  position_type: Type.Unsafe<'supply' | 'collateral' | 'borrow'>({
    type: 'string',
    enum: ['supply', 'collateral', 'borrow'],
    description: '`supply` (lent, not collateral), `collateral`, or `borrow`',
  }),
  asset: nullableString(
    "The reserve's asset contract (C…); null when the store never saw the pool's reserve list",
  ),
  shares: Amount(
    "b-tokens (supply, collateral) or d-tokens (borrow) as the pool's `Positions` entry holds them, in the asset's decimals",
  ),
  amount: NullableAmount(
    "Underlying in the asset's decimals: floor(b × b_rate / 10^12) or ceil(d × d_rate / 10^12), Blend's own rounding; null when the rate is unknown",
  ),
  amount_usd: NullableAmount(
    "amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable",
  ),
  rate: NullableAmount(
    'The b_rate or d_rate used, 12 decimals, exactly as the pool last wrote it (not projected)',
  ),
  rate_ledger: nullableInteger(
    "Ledger at which that rate was written (the reserve's `ResData`); null when unknown",
  ),
  ledger: Type.Integer({ description: 'Ledger at which this balance itself last changed' }),
  usd_unavailable_reason: Type.Unsafe<'price_missing' | 'price_stale' | 'rate_missing' | null>({
    type: ['string', 'null'],
    enum: ['price_missing', 'price_stale', 'rate_missing', null],
    description: 'Why amount_usd is null; null when it is set',
  }),
})
named('LendingPosition', Position)

const Emission = Type.Object({
  reserve_token_id: Type.Integer({
    description: 'reserve index × 2 for the d-token, × 2 + 1 for the b-token',
  }),
  asset: nullableString("The reserve's asset (C…); null when unknown"),
  token_type: Type.Unsafe<'b_token' | 'd_token'>({
    type: 'string',
    enum: ['b_token', 'd_token'],
    description: '`b_token` (supply and collateral earn it) or `d_token` (borrowing earns it)',
  }),
  accrued: Amount('BLND the pool has recorded as owed (`UserEmis.accrued`), 7 decimals'),
  claimable: NullableAmount(
    "BLND claimable at the valuation ledger, as Blend's SDK estimates it: accrued + floor(balance × (index − user index) / (10^decimals × 10^7)), the token's index brought up to the ledger's close time from its EmisData; null when the store lacks the reserve's data",
  ),
  emission_ledger: nullableInteger("Ledger at which the token's `EmisData` used was written"),
})
named('LendingEmission', Emission)

const Group = Type.Object({
  contract_address: Type.String({ description: 'The Blend pool (C…)' }),
  collateral_usd: NullableAmount('Σ amount_usd of the collateral rows'),
  supplied_usd: NullableAmount('Σ amount_usd of the supply rows (not collateral)'),
  borrowed_usd: NullableAmount('Σ amount_usd of the borrow rows'),
  effective_collateral_usd: NullableAmount(
    "Σ price × floor(collateral × c_factor), each reserve rounded down as Blend's health factor counts it, 7 decimals (rounded down)",
  ),
  effective_liabilities_usd: NullableAmount(
    'Σ price × ceil(borrowed / l_factor), each reserve rounded up, 7 decimals (rounded up)',
  ),
  borrow_limit: NullableAmount(
    "effective liabilities / effective collateral (the SDK's borrowLimit; 1 = no room left), 7 decimals rounded down; null without collateral",
  ),
  health_factor: NullableAmount(
    'effective collateral / effective liabilities, as the pool computes it (under 1: liquidatable), 7 decimals rounded down; null without debt',
  ),
  claimable_blnd: NullableAmount(
    'Σ claimable of `emissions`; null when the pool emits nothing the account holds, or one is unknown',
  ),
  emissions: Type.Array(Emission, {
    description: 'Each reserve token the account holds or is owed BLND for, by id',
  }),
  usd_unavailable_reason: Type.Unsafe<
    'price_missing' | 'price_stale' | 'rate_missing' | 'config_missing' | null
  >({
    type: ['string', 'null'],
    enum: ['price_missing', 'price_stale', 'rate_missing', 'config_missing', null],
    description:
      "Why a USD figure or the health figures are null (config_missing: the reserve's ResConfig was never seen); null when all are set",
  }),
})
named('LendingGroup', Group)

/** `data` of the lending positions answer (the routes add `enrichment` and `meta`). */
export const LendingPositionsData = Type.Object({
  address: Type.String(),
  positions: Type.Array(Position, {
    description: 'One row per (pool, reserve, supply | collateral | borrow)',
  }),
  groups: Type.Array(Group, { description: 'One per pool the account holds something in' }),
})
named('LendingPositionsData', LendingPositionsData)
