import { Type } from 'typebox'
import { AMOUNT_PATTERN as AMOUNT, Amount, named, nullableString } from '../kit/response-schema.ts'

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
named('Vault', Vault)

/** `data` of the vault positions answer (the routes add `enrichment` and `meta`). */
export const VaultPositionsData = Type.Object({ address: Type.String(), vaults: Type.Array(Vault) })
named('VaultPositionsData', VaultPositionsData)
