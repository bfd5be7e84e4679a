import type { ReactNode } from 'react'

/**
 * A wide table's box, scrolled sideways when the screen is narrower than the table. It is a named region in the tab
 * order, so a keyboard can scroll it too: a scrolled box with no control inside is otherwise out of a keyboard's
 * reach (WCAG 2.1.1; axe's "scrollable-region-focusable").
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolled region must take focus for the keyboard to scroll it
    <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto">
      {children}
    </div>
  )
}
