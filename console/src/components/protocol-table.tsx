import type { ComponentChildren } from 'preact'

/**
 * A table's scrolling box, reachable by keyboard (a narrow screen scrolls it sideways, and a
 * keyboard user must be able to), named for screen readers.
 */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
    <section class="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  )
}

/** Why a figure is unknown, in words; the API's own code stays in the title. */
const REASONS: Record<string, string> = {
  price_missing: 'no price',
  price_stale: 'price too old',
  history_missing: 'history too short',
  rate_missing: 'rate unknown',
  reserves_missing: 'reserves never seen',
  emissions_missing: 'emissions unknown',
  config_missing: 'configuration unknown',
  close_time_missing: 'close time unknown',
  no_holders: 'nothing held',
  emission_token_missing: 'emission token unknown',
}

export function reasonWords(reason: string): string {
  return REASONS[reason] ?? reason.replaceAll('_', ' ')
}

/** An unknown figure: "—" with the API's reason in words when it gives one (null is never 0). */
export function Unknown({ reason }: { reason: string | null | undefined }) {
  return <span title={reason ?? undefined}>{reason ? `— (${reasonWords(reason)})` : '—'}</span>
}
