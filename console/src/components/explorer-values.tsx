/**
 * How the explorer shows a value the API may leave unknown: an em dash with the API's reason in
 * words (null is never shown as 0), and an asset by its symbol with its contract on hover.
 */
import { formatDecimal, formatUsd, shortAddress } from '../format.ts'
import { reasonText } from '../reasons.ts'

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
