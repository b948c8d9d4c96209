import type { ComponentChildren } from 'preact'

/**
 * A table's scrolling box, named and reachable by keyboard: at 360 px a wide table scrolls
 * sideways, and a region that scrolls must take focus to be scrolled without a mouse.
 */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region needs focus to be scrolled by keyboard (WCAG 2.1.1)
    <section class="table-wrap" tabIndex={0} aria-label={label}>
      {children}
    </section>
  )
}
