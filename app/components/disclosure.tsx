import { type ReactNode, useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { cn } from './ui/cn'

/**
 * A menu that opens from a button: a native <details>, so it works before JavaScript loads. Once it has loaded,
 * it also closes the way people expect a menu to: a click or tap outside, Escape (focus back on the button), or
 * following one of its links.
 */
export function Disclosure({
  summary,
  summaryLabel,
  className,
  summaryClassName,
  panelClassName,
  children,
}: {
  summary: ReactNode
  /** The accessible name of the button when `summary` is an icon. */
  summaryLabel?: string
  className?: string
  summaryClassName?: string
  panelClassName?: string
  children: ReactNode
}) {
  const ref = useRef<HTMLDetailsElement>(null)
  const location = useLocation()

  // A link inside the panel navigated: the menu has done its visit.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation on purpose.
  useEffect(() => {
    if (ref.current) ref.current.open = false
  }, [location.key])

  useEffect(() => {
    const details = ref.current
    if (!details) return
    const onPointerDown = (event: PointerEvent) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !details.open) return
      details.open = false
      details.querySelector('summary')?.focus()
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [])

  return (
    <details ref={ref} className={cn('relative', className)}>
      <summary
        aria-label={summaryLabel}
        className={cn(
          'flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-lg px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden',
          summaryClassName,
        )}
      >
        {summary}
      </summary>
      <div
        className={cn(
          'absolute right-0 z-20 mt-1 w-64 rounded-xl border border-slate-200 bg-white p-2 shadow-lg',
          panelClassName,
        )}
      >
        {children}
      </div>
    </details>
  )
}
