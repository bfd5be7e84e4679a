import { useEffect, useId, useRef, useState } from 'react'
import { Link, NavLink, useLocation } from 'react-router'
import { buttonClass } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { MARKETING_LINKS, TRIAL_SIGNUP_PATH } from './nav-links'

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])'

function focusablesIn(container: HTMLElement) {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE))
}

/**
 * The public nav below 768 px: a "Menu" button that opens a modal drawer. Focus moves in and is trapped while it is
 * open; Escape, Close or a tap outside close it and hand focus back to the button so keyboard users do not lose their place.
 */
export function MobileNav({ signedIn }: { signedIn: boolean }) {
  const [open, setOpen] = useState(false)
  const menuButtonRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)
  const backdropRef = useRef<HTMLDivElement>(null)
  // Set by the close paths that should return focus; a link click should not, the new page takes over.
  const restoreFocusRef = useRef(false)
  const panelId = useId()
  const titleId = useId()

  // Adjusting state during render rather than in an effect, so the new page never paints under a stale drawer.
  const location = useLocation()
  const [lastKey, setLastKey] = useState(location.key)
  if (location.key !== lastKey) {
    setLastKey(location.key)
    setOpen(false)
  }

  function closeAndRestoreFocus() {
    restoreFocusRef.current = true
    setOpen(false)
  }

  useEffect(() => {
    if (!open) {
      // Focusing here, after the trap's listeners are gone, so the trap cannot pull focus back into the drawer.
      if (restoreFocusRef.current) {
        restoreFocusRef.current = false
        menuButtonRef.current?.focus()
      }
      return
    }
    const panel = panelRef.current
    if (!panel) return
    focusablesIn(panel)[0]?.focus()

    const previousOverflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'

    function onKeyDown(event: KeyboardEvent) {
      if (!panel) return
      if (event.key === 'Escape') {
        event.preventDefault()
        restoreFocusRef.current = true
        setOpen(false)
        return
      }
      if (event.key !== 'Tab') return
      const items = focusablesIn(panel)
      const first = items[0]
      const last = items.at(-1)
      if (!first || !last) return
      const active = document.activeElement
      const outside = !panel.contains(active)
      if (event.shiftKey && (active === first || outside)) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && (active === last || outside)) {
        event.preventDefault()
        first.focus()
      }
    }
    // Tab is not the only way out: screen-reader cursors and clicks on the page edge can move focus too.
    function onFocusIn(event: FocusEvent) {
      if (panel && event.target instanceof Node && !panel.contains(event.target)) focusablesIn(panel)[0]?.focus()
    }
    // A document listener instead of onClick keeps the backdrop a plain, hidden-from-readers element.
    function onClick(event: MouseEvent) {
      if (event.target === backdropRef.current) {
        restoreFocusRef.current = true
        setOpen(false)
      }
    }
    // Above the breakpoint CSS hides the drawer, and an invisible focus trap would strand keyboard users.
    const desktop = window.matchMedia('(min-width: 48rem)')
    function onBreakpoint(event: MediaQueryListEvent) {
      if (event.matches) setOpen(false)
    }

    document.addEventListener('keydown', onKeyDown)
    document.addEventListener('focusin', onFocusIn)
    document.addEventListener('click', onClick)
    desktop.addEventListener('change', onBreakpoint)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      document.removeEventListener('focusin', onFocusIn)
      document.removeEventListener('click', onClick)
      desktop.removeEventListener('change', onBreakpoint)
      document.body.style.overflow = previousOverflow
    }
  }, [open])

  return (
    <div className="md:hidden">
      <button
        ref={menuButtonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(true)}
        className={buttonClass('ghost', 'px-3')}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="size-5">
          <path d="M4 7h16M4 12h16M4 17h16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        Menu
      </button>

      {/* Keyboard users have Escape and the Close button; a tap here is for pointer users only. */}
      {open ? <div ref={backdropRef} aria-hidden="true" className="fixed inset-0 z-40 bg-slate-900/50" /> : null}

      <div
        ref={panelRef}
        id={panelId}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        hidden={!open}
        className="fixed inset-y-0 right-0 z-50 flex w-full max-w-xs flex-col gap-6 overflow-y-auto bg-white p-4 shadow-xl"
      >
        <div className="flex items-center justify-between">
          <h2 id={titleId} className="text-lg font-bold text-brand-900">
            Menu
          </h2>
          <button
            type="button"
            aria-label="Close navigation"
            onClick={closeAndRestoreFocus}
            className={buttonClass('ghost', 'min-w-11 px-2')}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="size-5">
              <path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>

        <nav aria-label="Mobile">
          <ul className="flex flex-col gap-1">
            {MARKETING_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  // Same-page links do not change the location, yet the visitor still expects the drawer to close.
                  onClick={() => setOpen(false)}
                  className={({ isActive }) =>
                    cn(
                      'flex min-h-12 items-center rounded-lg px-3 text-base font-semibold',
                      isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-800 hover:bg-slate-100',
                    )
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="mt-auto flex flex-col gap-2 border-t border-slate-200 pt-4">
          {signedIn ? (
            <Link to="/app" onClick={() => setOpen(false)} className={buttonClass('primary')}>
              Go to Dashboard
            </Link>
          ) : (
            <>
              <Link to={TRIAL_SIGNUP_PATH} onClick={() => setOpen(false)} className={buttonClass('primary')}>
                Get started
              </Link>
              <Link to="/login" onClick={() => setOpen(false)} className={buttonClass('secondary')}>
                Log in
              </Link>
            </>
          )}
        </div>
      </div>
    </div>
  )
}
