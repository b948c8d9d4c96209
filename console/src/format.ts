/**
 * How numbers, amounts, addresses and times are shown. Amounts arrive as decimal strings with the
 * asset's decimals (the API never sends a float): they are formatted as strings, digit by digit,
 * so no amount is ever rounded by floating point. Only charts plot Number() of a USD string.
 */

/** Groups the integer digits of a decimal string by thousands and trims its fraction to `maxFraction` digits (truncating, never rounding up). */
export function formatDecimal(value: string | null | undefined, maxFraction = 7): string {
  if (value === null || value === undefined) return '—'
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value)
  if (!match) return value
  const [, sign, whole = '0', fraction = ''] = match
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const kept = fraction.slice(0, maxFraction).replace(/0+$/, '')
  return `${sign}${grouped}${kept ? `.${kept}` : ''}`
}

/** A USD value as `$1,234.56` (cents truncated from the decimal string); null is unknown, shown as an em dash. */
export function formatUsd(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—'
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value)
  if (!match) return value
  const [, sign, whole = '0', fraction = ''] = match
  const cents = `${fraction}00`.slice(0, 2)
  return `${sign}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`
}

/** A ratio given as a decimal string (0.05 = 5%) as a percentage with two decimals, by string arithmetic. */
export function formatPercent(ratio: string | null | undefined): string {
  if (ratio === null || ratio === undefined) return '—'
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(ratio)
  if (!match) return ratio
  const [, sign, whole = '0', fraction = ''] = match
  const digits = `${whole}${`${fraction}00`.slice(0, 2)}`.replace(/^0+(?=\d)/, '')
  const rest = `${fraction.slice(2)}00`.slice(0, 2)
  return `${sign}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${rest}%`
}

/** An integer (a ledger, a count) with thousands separators. */
export function formatInteger(value: number | string | null | undefined): string {
  if (value === null || value === undefined) return '—'
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** A Stellar address or hash shortened to its first and last characters: `GABC…WXYZ`. */
export function shortAddress(address: string, keep = 4): string {
  return address.length <= keep * 2 + 1 ? address : `${address.slice(0, keep)}…${address.slice(-keep)}`
}

/** An RFC 3339 time in the reader's locale, with the UTC value in `title`. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '—'
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return value
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}
