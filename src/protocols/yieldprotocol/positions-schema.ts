import { Type } from 'typebox'
import { Amount, NullableAmount, named, nullableInteger, shareGroupSchema } from '../kit/response-schema.ts'

const Problem = Type.Unsafe<'price_missing' | 'price_stale' | 'rate_missing' | null>({
  type: ['string', 'null'],
  enum: ['price_missing', 'price_stale', 'rate_missing', null],
  description:
    "Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set",
})

const Position = Type.Object({
  protocol: Type.String({ description: '`yieldprotocol`' }),
  contract_address: Type.String({ description: 'The DeFindex vault (C…)' }),
  position_type: Type.Unsafe<'vault_share'>({
    type: 'string',
    enum: ['vault_share'],
    description: '`vault_share`: df-tokens of the vault, one row per vault asset',
  }),
  asset: Type.String({
    description: 'One of the vault’s assets (C…); a multi-asset vault has one row per asset',
  }),
  shares: Amount('df-tokens as the vault’s `Balance` entry holds them, 7 decimals'),
  amount: NullableAmount(
    "floor(shares × total_managed_funds / total_supply) in the asset's decimals, the vault's own `get_asset_amounts_per_shares`; null when the vault's funds are unknown",
  ),
  amount_usd: NullableAmount(
    "amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable",
  ),
  price_per_share: NullableAmount(
    "The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down)",
  ),
  total_managed_funds: NullableAmount(
    "The vault's managed funds of the asset (idle + the strategies' balances less locked fees), in the asset's decimals",
  ),
  total_supply: NullableAmount(
    "Every df-token of the vault, 7 decimals; 0 before the first mint; null when the vault's instance entry was never seen",
  ),
  rate_ledger: nullableInteger(
    "The latest ledger at which an entry the price was computed from was written (the vault's, its strategies', the Blend reserve's `ResData`); null when none was seen",
  ),
  ledger: Type.Integer({ description: 'Ledger at which this balance itself last changed' }),
  usd_unavailable_reason: Problem,
})
named('YieldPosition', Position)

const Group = named(
  'YieldGroup',
  shareGroupSchema(Problem, {
    contract_address: 'The DeFindex vault (C…)',
    shares: 'df-tokens held, 7 decimals',
    total_supply: "The vault's df-token supply at the valuation (the 1,000 locked to the vault included)",
    share_of_pool: 'shares / total_supply, 18 decimals rounded down; null when the supply is 0 or unknown',
    value_usd: 'Σ amount_usd of the vault’s rows; null when one is unavailable',
    rate_ledger: 'The latest ledger at which an entry the valuation used was written',
  }),
)

/** `data` of the yield positions answer (the routes add `enrichment` and `meta`). */
export const YieldPositionsData = Type.Object({
  address: Type.String(),
  positions: Type.Array(Position, {
    description: 'One row per (vault, asset) the account holds df-tokens of',
  }),
  groups: Type.Array(Group, { description: 'One per vault, in the order of the rows' }),
})
named('YieldPositionsData', YieldPositionsData)
