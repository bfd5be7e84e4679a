import { useEffect, useState } from 'react'
import type { Flash } from '~/utils/flash'
import { cn } from './ui/cn'

/**
 * The message an action left for this page (utils/flash.server.ts), shown once near the top of the screen. It stays
 * until dismissed or until the next message replaces it, so a slow reader never loses it; errors are announced
 * assertively, everything else politely.
 */
export function FlashMessage({ flash }: { flash: Flash | null }) {
  const [shown, setShown] = useState(flash)
  useEffect(() => {
    if (flash) setShown(flash)
  }, [flash])
  if (!shown) return null
  return (
    <div className="pointer-events-none fixed inset-x-0 top-2 z-50 flex justify-center px-3">
      <div
        key={shown.id}
        role={shown.tone === 'error' ? 'alert' : 'status'}
        data-testid="flash-message"
        className={cn(
          'pointer-events-auto flex max-w-lg items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg',
          shown.tone === 'error' && 'border-red-200 bg-red-50 text-danger',
          shown.tone === 'success' && 'border-emerald-200 bg-emerald-50 text-emerald-800',
          shown.tone === 'info' && 'border-brand-100 bg-brand-50 text-brand-900',
        )}
      >
        <p className="flex-1">{shown.text}</p>
        <button
          type="button"
          onClick={() => setShown(null)}
          className="-my-1 -mr-2 rounded px-2 py-1 font-medium hover:bg-black/5 focus-visible:outline-2"
          aria-label="Dismiss message"
        >
          ×
        </button>
      </div>
    </div>
  )
}
