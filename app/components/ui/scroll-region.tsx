import { type ReactNode, useEffect, useRef, useState } from 'react'

/**
 * A wide table's box, scrolled sideways when the screen is narrower than the table. While it scrolls it is a named
 * region in the tab order, so a keyboard can scroll it too: a scrolled box with no control inside is otherwise out of
 * a keyboard's reach (WCAG 2.1.1; axe's "scrollable-region-focusable"). When the table fits there is nothing to
 * scroll, and a tab stop that does nothing would only slow a keyboard down: the box measures itself once drawn and
 * again when it or the table changes size. Before that (on the server, without JavaScript) it keeps the tab stop.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null)
  const [scrolls, setScrolls] = useState(true)
  useEffect(() => {
    const element = box.current
    if (!element) return
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth)
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    for (const child of element.children) observer.observe(child)
    return () => observer.disconnect()
  }, [])
  return (
    <div ref={box} role="region" aria-label={label} tabIndex={scrolls ? 0 : undefined} className="overflow-x-auto">
      {children}
    </div>
  )
}
