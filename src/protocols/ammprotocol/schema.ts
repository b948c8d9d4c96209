import { Type } from 'typebox'
import {
  Amount,
  NullableAmount,
  named,
  nullableInteger,
  nullableString,
  shareGroupSchema,
} from '../kit/response-schema.ts'

const Problem = Type.Unsafe<'price_missing' | 'price_stale' | 'reserves_missing' | null>({
  type: ['string', 'null'],
  enum: ['price_missing', 'price_stale', 'reserves_missing', null],
  description:
    "Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set",
})

const Position = Type.Object({
  protocol: Type.String({ description: '`ammprotocol`' }),
  contract_address: Type.String({ description: 'The Soroswap pair (C…), which is also its LP token' }),
  position_type: Type.Unsafe<'liquidity'>({
    type: 'string',
    enum: ['liquidity'],
    description: '`liquidity`: one row per token of the pair, token 0 first',
  }),
  asset: nullableString("The pair's token (C…); null when unknown"),
  shares: Amount("LP tokens the account's `Balance` entry of the pair holds, 7 decimals"),
  amount: NullableAmount(
    "floor(LP balance × reserve_i / total_supply), in the token's decimals; null when the pair's reserves are unknown",
  ),
  amount_usd: NullableAmount(
    "amount × the token's USD price at the valuation ledger, 7 decimals (half-even)",
  ),
  rate: NullableAmount('reserve_i / total_supply: tokens per LP token, 18 decimals rounded down'),
  rate_ledger: nullableInteger(
    "Ledger at which the pair's instance entry used (reserves, total supply) was written",
  ),
  ledger: Type.Integer({ description: 'Ledger at which the LP balance itself last changed' }),
  usd_unavailable_reason: Problem,
})
named('AmmPosition', Position)

const Group = named(
  'AmmGroup',
  shareGroupSchema(Problem, {
    contract_address: 'The Soroswap pair (C…)',
    shares: 'LP tokens held, 7 decimals',
    total_supply: "The pair's LP total supply at the valuation (1,000 units locked to the pair included)",
    share_of_pool: 'shares / total_supply, 18 decimals rounded down',
    value_usd: 'Σ amount_usd of the two rows; null when one is unavailable',
    rate_ledger: "Ledger at which the pair's instance entry used was written",
  }),
)

/** `data` of the AMM positions answer (the routes add `enrichment` and `meta`). */
export const AmmPositionsData = Type.Object({
  address: Type.String(),
  positions: Type.Array(Position, { description: 'Two rows per pair the account holds LP tokens of' }),
  groups: Type.Array(Group, { description: 'One per pair, in the order of the rows' }),
})
named('AmmPositionsData', AmmPositionsData)

const tokenAmount = (what: string, token: 0 | 1) =>
  NullableAmount(`${what}, in token ${token}'s decimals; null with unavailable_reason history_missing`)

const Volume = Type.Object(
  {
    from_ledger: nullableInteger(
      "First ledger of the window: the first one closed after the pin's close time minus 24 hours (the store's first ledger when it holds the pair's whole history); null when the stored ledgers do not cover the window",
    ),
    to_ledger: Type.Integer({ description: 'Last ledger of the window: the ledger answered for' }),
    swaps: nullableInteger("The pair's swaps in [from_ledger, to_ledger]"),
    token_0_in: tokenAmount('Σ amount_0_in of the swaps (token 0 paid in)', 0),
    token_0_out: tokenAmount('Σ amount_0_out (token 0 paid out)', 0),
    token_1_in: tokenAmount('Σ amount_1_in', 1),
    token_1_out: tokenAmount('Σ amount_1_out', 1),
    fees_0: tokenAmount('Σ ceil(amount_0_in × 3 / 1000): the 0.3 % fee the pair keeps of every input', 0),
    fees_1: tokenAmount('Σ ceil(amount_1_in × 3 / 1000)', 1),
    volume_usd: NullableAmount(
      'token_0_in × price_0 + token_1_in × price_1 at the ledger answered for (each swap counted once, by what it paid in), 7 decimals',
    ),
    fees_usd: NullableAmount('fees_0 × price_0 + fees_1 × price_1, 7 decimals'),
    unavailable_reason: Type.Unsafe<'history_missing' | 'price_missing' | 'price_stale' | null>({
      type: ['string', 'null'],
      enum: ['history_missing', 'price_missing', 'price_stale', null],
      description:
        'history_missing: the store cannot tell every swap of the window (its ledgers start inside it and the pair is older), every figure null; price_missing / price_stale: the USD figures are null; null when all are set',
    }),
  },
  {
    description:
      "The pair's trading over the 24 hours of close time ending at the ledger, from its stored swaps",
  },
)
named('AmmVolume', Volume)

/** One pair at a ledger. */
export const AmmPairData = Type.Object({
  contract_address: Type.String({ description: 'The Soroswap pair (C…)' }),
  token_0: nullableString('Token 0 (C…), the lower address'),
  token_1: nullableString('Token 1 (C…)'),
  reserve_0: NullableAmount("Reserve0 as the pair's instance entry states it, in token 0's decimals"),
  reserve_1: NullableAmount("Reserve1, in token 1's decimals"),
  total_supply: NullableAmount(
    "LP total supply (`TotalSupply`), 7 decimals; 0 when the pair's instance entry has no `TotalSupply` yet (before the first mint: the LP token reads it as 0); null when the entry was never seen",
  ),
  price_0_in_1: NullableAmount(
    'Token 0 priced in token 1 by the reserves (reserve_1 / reserve_0 in display units), 18 decimals rounded down; null when a reserve is 0 or unknown',
  ),
  price_1_in_0: NullableAmount('Token 1 priced in token 0, likewise'),
  tvl_usd: NullableAmount(
    'reserve_0 × price_0 + reserve_1 × price_1 in USD, 7 decimals; null when a price is unavailable',
  ),
  state_ledger: nullableInteger(
    "Ledger at which the pair's instance entry used was written; null when never seen",
  ),
  usd_unavailable_reason: Problem,
  volume_24h: Volume,
})
named('AmmPairData', AmmPairData)

export const AmmReservesData = Type.Object({
  pairs: Type.Array(AmmPairData, { description: 'Every pair the network description lists, in its order' }),
})
named('AmmReservesData', AmmReservesData)
