import { Type } from 'typebox'
import { NullableAmount, named, nullableInteger, nullableString } from '../kit/response-schema.ts'

const UNSEEN =
  'null when an entry it needs was written before the store’s first ledger and never seen since (see `unavailable_reason`)'

const Strategy = Type.Object({
  contract_address: Type.String({ description: 'The strategy contract (C…)' }),
  name: nullableString("The strategy's name in the vault's `AssetStrategySet`"),
  paused: Type.Unsafe<boolean | null>({ type: ['boolean', 'null'], description: 'Paused in the vault' }),
  pool: nullableString('The Blend pool it lends into (its `Config`)'),
  shares: NullableAmount(
    `The vault's strategy shares (\`VaultPos\`), in the asset's decimals; 0 when the store saw the vault's whole history and no entry; ${UNSEEN}`,
  ),
  b_rate: NullableAmount(
    "The Blend reserve's b_rate used, 12 decimals, as the pool last stored it (not projected); null when not needed or unknown",
  ),
  b_rate_ledger: nullableInteger('Ledger at which that `ResData` was written'),
  balance: NullableAmount(
    "floor(floor(shares × total_b_tokens / total_shares) × b_rate / 10^12): the strategy's `balance(vault)`, in the asset's decimals",
  ),
  locked_fee: NullableAmount(
    "The vault's `Report.locked_fee` after reporting this balance and locking its gains, as a deposit would",
  ),
  invested: NullableAmount('balance − locked_fee'),
})
named('YieldStrategy', Strategy)

const Apy = (days: number) =>
  Type.Object(
    {
      apy: NullableAmount(
        `(price_per_share at to_ledger / price_per_share at from_ledger) ^ (365 days / the close time between them) − 1: compounded, a fraction with 7 decimals ("0.0523000" is 5.23 %), rounded toward zero; null with unavailable_reason otherwise`,
      ),
      from_ledger: nullableInteger(
        `The latest ledger closed at least ${days} days (of close time) before to_ledger; null when the store's ledgers do not reach back that far`,
      ),
      to_ledger: Type.Integer({ description: 'The ledger answered for (the pin, or the head)' }),
      unavailable_reason: Type.Unsafe<'history_missing' | 'rate_missing' | null>({
        type: ['string', 'null'],
        enum: ['history_missing', 'rate_missing', null],
        description:
          'Why apy is null: history_missing (the stored ledgers, or the vault’s shares, do not reach back to from_ledger), rate_missing (a price per share is unknown); null when apy is set',
      }),
    },
    { description: `The vault's APY for the asset over the ${days} days of close time ending at to_ledger` },
  )

const Asset = Type.Object({
  asset: Type.String({ description: 'The asset contract (C…)' }),
  idle: NullableAmount(
    `The vault's own balance of the asset, in its decimals; 0 when the store saw the vault's whole history and no entry; ${UNSEEN}`,
  ),
  invested: NullableAmount('Σ invested of the strategies'),
  total_managed_funds: NullableAmount('idle + invested'),
  price_per_share: NullableAmount(
    "The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down); null without supply",
  ),
  apy_7d: Apy(7),
  apy_30d: Apy(30),
  strategies: Type.Array(Strategy),
})
named('YieldAsset', Asset)

export const YieldVault = Type.Object({
  contract_address: Type.String({ description: 'The DeFindex vault (C…)' }),
  name: Type.String({
    description: 'The vault’s name, as the network description, `GET /v1/protocols` and `enrichment` give it',
  }),
  share_symbol: nullableString('The df-token symbol (`METADATA`)'),
  total_supply: NullableAmount(
    `Every df-token, 7 decimals (the 1,000 locked to the vault included); 0 before the first mint; ${UNSEEN}`,
  ),
  vault_fee_bps: nullableInteger('`VaultFee`: basis points of strategy gains locked as fees'),
  protocol_fee_bps: nullableInteger("`DeFindexProtocolFeeRate`: the protocol's basis points of those fees"),
  assets: Type.Array(Asset, { description: "The vault's assets, in its `AssetStrategySet` order" }),
  rate_ledger: nullableInteger('The latest ledger at which an entry used was written'),
  unavailable_reason: Type.Unsafe<'rate_missing' | null>({
    type: ['string', 'null'],
    enum: ['rate_missing', null],
    description:
      'rate_missing when a figure above is null because an entry it needs (the vault’s instance, a strategy’s `VaultPos`, the vault’s balance of an asset, a `Report`) was written before the store’s first ledger and never seen since (the answer is then `partial_result`); null otherwise',
  }),
})
named('YieldVault', YieldVault)

/** `data` of `GET /v1/protocols/yieldprotocol/pools/{vault}`. */
export const YieldPoolData = YieldVault

/** `data` of `GET /v1/protocols/yieldprotocol/reserves`. */
export const YieldReservesData = Type.Object({
  vaults: Type.Array(YieldVault, { description: 'Every vault the network description lists' }),
})
named('YieldReservesData', YieldReservesData)
