import { Type } from 'typebox'
import { Amount, NullableAmount, nullableInteger, nullableString } from '../kit/response-schema.ts'

const Strategy = Type.Object({
  address: Type.String({ description: 'The strategy contract (C…)' }),
  name: nullableString("The strategy's name in the vault's `AssetStrategySet`"),
  paused: Type.Unsafe<boolean | null>({ type: ['boolean', 'null'], description: 'Paused in the vault' }),
  pool: nullableString('The Blend pool it lends into (its `Config`)'),
  shares: Amount("The vault's strategy shares (`VaultPos`), in the asset's decimals"),
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

const Asset = Type.Object({
  asset: Type.String({ description: 'The asset contract (C…)' }),
  idle: Amount("The vault's own balance of the asset, in its decimals"),
  invested: NullableAmount('Σ invested of the strategies'),
  total_managed_funds: NullableAmount('idle + invested'),
  price_per_share: NullableAmount(
    "The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down); null without supply",
  ),
  strategies: Type.Array(Strategy),
})

export const YieldVault = Type.Object({
  vault: Type.String({ description: 'The DeFindex vault (C…)' }),
  name: nullableString('The df-token name (`METADATA`)'),
  symbol: nullableString('The df-token symbol'),
  total_supply: Amount('Every df-token, 7 decimals (the 1,000 locked to the vault included)'),
  vault_fee_bps: nullableInteger('`VaultFee`: basis points of strategy gains locked as fees'),
  protocol_fee_bps: nullableInteger("`DeFindexProtocolFeeRate`: the protocol's basis points of those fees"),
  assets: Type.Array(Asset, { description: "The vault's assets, in its `AssetStrategySet` order" }),
  rate_ledger: nullableInteger('The latest ledger at which an entry used was written'),
})

/** `data` of `GET /v1/protocols/yieldprotocol/pools/{vault}`. */
export const YieldPoolData = YieldVault

/** `data` of `GET /v1/protocols/yieldprotocol/reserves`. */
export const YieldReservesData = Type.Object({
  vaults: Type.Array(YieldVault, { description: 'Every vault the network description lists' }),
})
