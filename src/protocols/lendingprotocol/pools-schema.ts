import { Type } from 'typebox'
import {
  NullableAmount,
  named,
  nullableInteger,
  nullableString,
  nullableTimestamp as Timestamp,
} from '../kit/response-schema.ts'

const SEVEN = '7 decimals'

const RATES_REASONS = ['rate_missing', 'config_missing', 'pool_config_missing', null]
const EMISSION_REASONS = [
  'emissions_missing',
  'rate_missing',
  'config_missing',
  'close_time_missing',
  'no_holders',
  'emission_token_missing',
  'price_missing',
  'price_stale',
  null,
]
const EMISSION_REASONS_TEXT =
  "`emissions_missing` (the token's `EmisData` was never seen and the store lacks the pool's history before its first ledger), `rate_missing` (no `ResData`), `config_missing` (the asset's decimals are unknown), `close_time_missing` (the ledger's close time is unknown, so expiry cannot be judged), `no_holders` (nothing supplied or borrowed: BLND per dollar held is undefined), `emission_token_missing` (the pool's `BLNDTkn` was never seen), `price_missing` or `price_stale` (the asset's or BLND's USD price)"

const EmissionApr = (side: string) =>
  NullableAmount(
    `BLND emitted to ${side} a year, in USD per USD ${side === 'suppliers' ? 'supplied' : 'borrowed'}: eps × 31,536,000 × BLND price ÷ (${side === 'suppliers' ? 'supplied' : 'borrowed'} × the asset's price), both prices at the ledger, ${SEVEN} rounded down; 0 when the token has no \`EmisData\` (in a history the store holds whole), no eps, or its emissions expired by the ledger's close time; null with the reason otherwise`,
  )
const EmissionReason = (field: string) =>
  Type.Unsafe<string | null>({
    type: ['string', 'null'],
    enum: EMISSION_REASONS,
    description: `Why \`${field}\` is null: ${EMISSION_REASONS_TEXT}; null when it is set`,
  })

const Reserve = Type.Object({
  contract_address: Type.String({ description: 'The Blend pool (C…)' }),
  asset: Type.String({ description: "The reserve's asset contract (C…)" }),
  index: nullableInteger("The reserve's index in the pool's `ResList` (its key in `Positions`)"),
  decimals: nullableInteger("The asset's decimals (b- and d-tokens have the same)"),
  enabled: Type.Unsafe<boolean | null>({
    type: ['boolean', 'null'],
    description: 'A disabled reserve takes no supply or borrow',
  }),
  c_factor: NullableAmount(`Collateral factor, ${SEVEN}`),
  l_factor: NullableAmount(`Liability factor, ${SEVEN}`),
  target_utilization: NullableAmount(`The interest curve's target utilization (\`util\`), ${SEVEN}`),
  max_utilization: NullableAmount(`Utilization above which borrowing is refused, ${SEVEN}`),
  r_base: NullableAmount(`Interest curve: base rate, ${SEVEN}`),
  r_one: NullableAmount(`Interest curve: slope up to the target, ${SEVEN}`),
  r_two: NullableAmount(`Interest curve: slope from the target to 95%, ${SEVEN}`),
  r_three: NullableAmount(`Interest curve: slope above 95%, ${SEVEN}`),
  reactivity: NullableAmount(`How fast ir_mod follows utilization, ${SEVEN}`),
  supply_cap: NullableAmount("Most underlying the reserve takes, in the asset's decimals"),
  b_rate: NullableAmount('b-token → underlying, 12 decimals, as last written'),
  d_rate: NullableAmount('d-token → underlying, 12 decimals, as last written'),
  b_supply: NullableAmount("Every b-token (supply and collateral), in the asset's decimals"),
  d_supply: NullableAmount("Every d-token, in the asset's decimals"),
  backstop_credit: NullableAmount("Underlying owed to the backstop, in the asset's decimals"),
  supplied: NullableAmount('floor(b_supply × b_rate / 10^12): underlying supplied'),
  borrowed: NullableAmount('ceil(d_supply × d_rate / 10^12): underlying borrowed'),
  utilization: NullableAmount(
    `As the pool computes it: 0 with nothing borrowed, 1 when borrowed ≥ supplied, else ceil(borrowed / supplied), ${SEVEN}`,
  ),
  borrow_apr: NullableAmount(
    `The interest curve at this utilization and ir_mod (every step rounded up, as the contract and the SDK's setRates do); r_base with nothing borrowed. A simple annual rate, ${SEVEN}`,
  ),
  supply_apr: NullableAmount(
    `borrow_apr × floor(utilization × (1 − backstop take rate)), rounded down; 0 with nothing borrowed, ${SEVEN}`,
  ),
  borrow_apy: NullableAmount(
    `(1 + borrow_apr / 365)^365 − 1: compounded daily, as Blend's UI estimates it, computed exactly and rounded up, ${SEVEN}`,
  ),
  supply_apy: NullableAmount(
    `(1 + supply_apr / 52)^52 − 1: compounded weekly, as Blend's UI estimates it, computed exactly and rounded down, ${SEVEN}`,
  ),
  rates_unavailable_reason: Type.Unsafe<'rate_missing' | 'config_missing' | 'pool_config_missing' | null>({
    type: ['string', 'null'],
    enum: RATES_REASONS,
    description:
      "Why a rate is null: `rate_missing` (the reserve's `ResData` was never seen: every rate is null), `config_missing` (its `ResConfig`: the APRs and APYs), `pool_config_missing` (the pool's `Config`, whose backstop take rate the supply rates need); null when every rate is set",
  }),
  supply_emission_apr: EmissionApr('suppliers'),
  supply_emission_apr_unavailable_reason: EmissionReason('supply_emission_apr'),
  borrow_emission_apr: EmissionApr('borrowers'),
  borrow_emission_apr_unavailable_reason: EmissionReason('borrow_emission_apr'),
  computed_ledger: Type.Integer({
    description:
      "The ledger the utilization, APRs, APYs and emission APRs are computed at: the pin, or the checkpoint when the pin is above it or omitted. Their inputs are the entries in force there (`rate_ledger`, `config_ledger`, the pool config's `ledger`, the emissions endpoint's `ledger`) and the prices at or before it",
  }),
  ir_mod: NullableAmount(`The rate modifier, ${SEVEN}`),
  last_accrued_at: Timestamp(
    'When the pool last accrued the reserve (`ResData.last_time`), RFC 3339; null when the `ResData` was never seen',
  ),
  rate_ledger: nullableInteger('Ledger at which this `ResData` (rates, supplies, ir_mod) was written'),
  config_ledger: nullableInteger('Ledger at which this `ResConfig` was written'),
  supplied_usd: NullableAmount("supplied × the asset's USD price at the ledger, 7 decimals"),
  borrowed_usd: NullableAmount("borrowed × the asset's USD price at the ledger, 7 decimals"),
  usd_unavailable_reason: Type.Unsafe<'price_missing' | 'price_stale' | 'rate_missing' | null>({
    type: ['string', 'null'],
    enum: ['price_missing', 'price_stale', 'rate_missing', null],
    description: 'Why the USD fields are null; null when they are set',
  }),
})
named('LendingReserve', Reserve)

const Config = Type.Unsafe<unknown>({
  ...Type.Object({
    oracle: Type.String({ description: 'The oracle the pool prices with' }),
    bstop_rate: Type.String({ description: `Backstop take rate: its share of the interest, ${SEVEN}` }),
    status: Type.Integer({
      description: '0 admin active, 1 active, 2 admin on-ice, 3 on-ice, 4 admin frozen, 5 frozen, 6 setup',
    }),
    status_name: nullableString(
      '`admin_active`, `active`, `admin_on_ice`, `on_ice`, `admin_frozen`, `frozen` or `setup`',
    ),
    max_positions: Type.Integer({ description: 'Most reserves an account may hold collateral or debt in' }),
    min_collateral: Type.String({
      description: "Least collateral a borrower must hold, in the oracle's base units (an integer)",
    }),
    ledger: Type.Integer({ description: 'Ledger at which this `Config` was written' }),
  }),
  type: ['object', 'null'],
  description: "The pool's `PoolConfig` as last written; null when the store never saw it",
})

/** `data` of `GET /v1/protocols/lendingprotocol/pools/{pool}`. */
export const LendingPoolData = Type.Object({
  contract_address: Type.String({ description: 'The Blend pool (C…)' }),
  name: Type.String({ description: "The pool's `Name`, or the network description's name for it" }),
  config: Config,
  reserves: Type.Array(Reserve, { description: 'By reserve index' }),
  supplied_usd: NullableAmount('Σ supplied_usd of the reserves; null when one is unknown or there are none'),
  borrowed_usd: NullableAmount('Σ borrowed_usd of the reserves; null when one is unknown or there are none'),
})
named('LendingPoolData', LendingPoolData)

/** `data` of `GET /v1/protocols/lendingprotocol/reserves`. */
export const LendingReservesData = Type.Object({
  reserves: Type.Array(Reserve, {
    description: "Every pool's reserves, pool by pool in the network description's order",
  }),
})
named('LendingReservesData', LendingReservesData)

const Emission = Type.Object({
  contract_address: Type.String({ description: 'The Blend pool (C…)' }),
  reserve_token_id: Type.Integer({
    description: 'reserve index × 2 for the d-token, × 2 + 1 for the b-token',
  }),
  asset: Type.String({ description: "The reserve's asset contract (C…)" }),
  token_type: Type.Unsafe<'b_token' | 'd_token'>({
    type: 'string',
    enum: ['b_token', 'd_token'],
    description: '`b_token`: suppliers (supply and collateral) earn it; `d_token`: borrowers',
  }),
  share: NullableAmount(
    `The token's share of the pool's emissions (\`PoolEmis\`), ${SEVEN}; null when it has none now`,
  ),
  eps: Type.String({ description: 'BLND emitted per second to all holders of the token, 14 decimals' }),
  expires_at: Timestamp('When emissions at this eps end (`expiration`), RFC 3339'),
  index: Type.String({
    description: 'BLND accrued per whole token since emissions began, 14 decimals, as last written',
  }),
  index_updated_at: Timestamp('When the index was last brought up to date (`last_time`), RFC 3339'),
  ledger: Type.Integer({ description: 'Ledger at which this `EmisData` was written' }),
})
named('LendingPoolEmission', Emission)

/** `data` of `GET /v1/protocols/lendingprotocol/emissions`. */
export const LendingEmissionsData = Type.Object({
  emissions: Type.Array(Emission, { description: 'Pool by pool, by reserve token id' }),
})
named('LendingEmissionsData', LendingEmissionsData)
