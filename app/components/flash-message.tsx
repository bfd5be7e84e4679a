import { useEffect, useState } from 'react'
import { useLocation, useRouteLoaderData } from 'react-router'
import { type Flash, isFlash } from '~/utils/flash'
import { cn } from './ui/cn'

/** Pages inside the signed-in frame (AppShell) show the message under their navigation, not over it. */
export function inShell(pathname: string) {
  return /^\/(app|staff)(\/|$)/.test(pathname)
}

/** The message the root loader took for this navigation (root.tsx), for the frame that shows it. */
export function useRootFlash(): Flash | null {
  const root = useRouteLoaderData('root') as { flash?: unknown } | undefined
  return isFlash(root?.flash) ? root.flash : null
}

/**
 * The message an action left for this page (utils/flash.server.ts), shown once. It stays while the page does (a
 * background revalidation does not take it away, so a slow reader never loses it) and leaves on the next navigation
 * (decision 049), or when dismissed; errors are announced assertively, everything else politely. `inline`: in the
 * page's flow under the staff app's navigation; otherwise floating at the top of pages without that frame.
 */
export function FlashMessage({ flash, inline = false }: { flash: Flash | null; inline?: boolean }) {
  const { key } = useLocation()
  const [shown, setShown] = useState<{ flash: Flash | null; at: string }>({ flash, at: key })
  useEffect(() => {
    // A new message replaces the shown one; a navigation without one clears it.
    setShown((was) =>
      flash && flash.id !== was.flash?.id ? { flash, at: key } : was.at === key ? was : { flash, at: key },
    )
  }, [flash, key])
  const message = shown.flash
  if (!message) return null
  const box = (
    <div
      key={message.id}
      role={message.tone === 'error' ? 'alert' : 'status'}
      data-testid="flash-message"
      className={cn(
        'pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm',
        inline ? 'w-full' : 'max-w-lg shadow-lg',
        message.tone === 'error' && 'border-red-200 bg-red-50 text-danger',
        message.tone === 'success' && 'border-emerald-200 bg-emerald-50 text-emerald-800',
        message.tone === 'info' && 'border-brand-100 bg-brand-50 text-brand-900',
      )}
    >
      {/* A long word (an email address) wraps rather than widening a phone's page. */}
      <p className="min-w-0 flex-1 [overflow-wrap:anywhere]">{message.text}</p>
      <button
        type="button"
        onClick={() => setShown({ flash: null, at: key })}
        // 44 px to tap (WCAG 2.5.5); the negative margins keep the message as short as its line of text.
        className="-my-3 -mr-3 inline-flex size-11 shrink-0 items-center justify-center rounded font-medium hover:bg-black/5 focus-visible:outline-2"
        aria-label="Dismiss message"
      >
        ×
      </button>
    </div>
  )
  if (inline) return <div className="mx-auto max-w-6xl px-4 pt-4">{box}</div>
  return <div className="pointer-events-none fixed inset-x-0 top-2 z-50 flex justify-center px-3">{box}</div>
}
