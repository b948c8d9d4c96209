/**
 * How the explorer shows a value the API may leave unknown: an em dash with the API's reason in
 * words (null is never shown as 0), and an asset by its symbol with its contract on hover.
 */
import { formatDecimal, formatUsd, shortAddress } from '../format.ts'

const REASONS: Record<string, string> = {
  price_missing: 'no price',
  price_stale: 'price too old',
  rate_missing: 'rate unknown',
  config_missing: 'reserve configuration unknown',
  reserves_missing: 'reserves unknown',
  protocol_token: 'protocol token, not valued',
  no_amount: 'no amount',
  asset_unknown: 'asset unknown',
  valuation_ledgers_differ: 'protocols valued at different ledgers',
}

/** The API's reason code in words (an unknown code is shown as the API sent it). */
export function reasonText(reason: string | null | undefined): string | null {
  if (!reason) return null
  return REASONS[reason] ?? reason.replaceAll('_', ' ')
}

/** A USD value, or "—" followed by why it is unknown. */
export function Usd({ value, reason }: { value: string | null | undefined; reason?: string | null }) {
  if (value !== null && value !== undefined) return <>{formatUsd(value)}</>
  const why = reasonText(reason)
  return <>—{why && <span class="reason"> ({why})</span>}</>
}

/** An amount in its asset's units, or "—" with a reason. */
export function Amount({ value, reason }: { value: string | null | undefined; reason?: string | null }) {
  if (value !== null && value !== undefined) return <>{formatDecimal(value)}</>
  const why = reasonText(reason)
  return <>—{why && <span class="reason"> ({why})</span>}</>
}

/** An asset named by its symbol when the API gives one, its contract shortened otherwise. */
export function AssetName({ asset, symbol }: { asset: string | null; symbol?: string | null | undefined }) {
  if (asset === null) return <>unknown asset</>
  return <span title={asset}>{symbol ?? shortAddress(asset)}</span>
}
