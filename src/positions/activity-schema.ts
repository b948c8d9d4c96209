import { Type } from 'typebox'
import { named, nullableString, nullableTimestamp } from '../protocols/kit/response-schema.ts'

/**
 * The shape of one activity (`Activity`, and its legs `ActivityLeg`), as the activity routes
 * answer it and the `activity.created` webhook event carries it: one schema for both.
 */

export const Leg = Type.Object(
  {
    role: Type.Union([Type.Literal('asset'), Type.Literal('shares'), Type.Literal('debt')], {
      description:
        "`asset`: a token that moved; `shares`: the protocol's own claim token (LP tokens, df-tokens, b-tokens); `debt`: Blend d-tokens",
    }),
    direction: Type.Union(
      [Type.Literal('sent'), Type.Literal('received'), Type.Literal('minted'), Type.Literal('burnt')],
      {
        description:
          "From `account`'s side: an asset or token it sent or received, a protocol token minted to it or burnt from it",
      },
    ),
    asset: nullableString(
      "The token's contract (C…): the asset, the pair or vault for their shares, the reserve's asset for b-/d-tokens; null when the action does not name it",
    ),
    symbol: nullableString("The asset's symbol in the network description; null when it does not list it"),
    amount_raw: Type.String({
      description: "In the token's smallest units, as the chain states it",
      pattern: '^[0-9]+$',
    }),
    amount: nullableString(
      "amount_raw in the token's units, with exactly its decimals; null when they are unknown",
    ),
    amount_usd: nullableString(
      "amount × the USD price at or before the action's ledger, 7 decimals, rounded half-even; null with a reason",
    ),
    usd_unavailable_reason: nullableString(
      'Only when amount_usd is null: price_missing, price_stale, asset_unknown, protocol_token (shares and d-tokens are not valued)',
    ),
  },
  { additionalProperties: false },
)
named('ActivityLeg', Leg)

export const Action = Type.Object({
  protocol: Type.String(),
  type: Type.String({
    description: "The action's name in its protocol: `supply`, `borrow`, `swap`, `deposit`, ...",
  }),
  contract_address: Type.String({
    description: 'The contract that emitted it (or, FxDAO, that was called)',
  }),
  account: Type.String({ description: 'The account whose action it is (the legs are from its side)' }),
  ledger: Type.Integer(),
  closed_at: nullableTimestamp('Close time of its ledger (RFC 3339, UTC); null when unknown'),
  tx_hash: Type.String(),
  operation: Type.Integer({ description: 'Operation index in the transaction' }),
  event_index: Type.Integer({
    description: "Order of its event among the watched contracts' events of the transaction",
  }),
  legs: Type.Array(Leg, {
    description: 'Every asset and protocol token the action moved, each in its own units and in USD',
  }),
  amount_usd: nullableString(
    "The action's USD value at its own ledger, 7 decimals: Σ amount_usd of the asset legs the account sent, or, when it sent none, of those it received",
  ),
  usd_unavailable_reason: nullableString(
    'Only when amount_usd is null: the reason of the first unpriced counted leg, `protocol_token` when it moved only protocol tokens, `no_amount` when it names no amount',
  ),
  details: Type.Record(Type.String(), Type.Unknown(), {
    description: "The protocol's other fields of the action; amounts in their token's units",
  }),
})
named('Activity', Action)
