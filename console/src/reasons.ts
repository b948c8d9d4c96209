/**
 * The API's reason codes for an unknown value, in words: one vocabulary for every page (the code
 * itself stays in a title where a page shows it). An unknown code is shown as the API sent it.
 */
const REASONS: Record<string, string> = {
  price_missing: 'no price',
  price_stale: 'price too old',
  history_missing: 'history too short',
  rate_missing: 'rate unknown',
  reserves_missing: 'reserves never seen',
  emissions_missing: 'emissions unknown',
  config_missing: 'reserve configuration unknown',
  close_time_missing: 'close time unknown',
  no_holders: 'nothing held',
  emission_token_missing: 'emission token unknown',
  protocol_token: 'protocol token, not valued',
  no_amount: 'no amount',
  asset_unknown: 'asset unknown',
  valuation_ledgers_differ: 'protocols valued at different ledgers',
}

export function reasonText(reason: string | null | undefined): string | null {
  if (!reason) return null
  return REASONS[reason] ?? reason.replaceAll('_', ' ')
}
