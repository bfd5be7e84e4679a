import { type ReactNode, useEffect, useId, useRef } from 'react'

/**
 * A modal question: a native <dialog> opened with showModal(), so the page behind is inert (focus stays inside),
 * Escape closes it, and focus goes back to the control that opened it.
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
  focusInstead,
}: {
  open: boolean
  /** Called however it closes: a button, Escape. */
  onClose: () => void
  title: ReactNode
  children: ReactNode
  /** Where focus goes when what opened the dialog is no longer on the page (what it did re-drew it). */
  focusInstead?: () => HTMLElement | null
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const opener = useRef<HTMLElement | null>(null)
  const titleId = useId()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
      dialog.showModal()
    } else if (!open && dialog.open) {
      dialog.close()
    }
  }, [open])

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      // Escape closes the dialog at once, puts focus back and only then queues its "close" event: a quick hand can
      // press the opener again in between. So the state closes on "cancel" (before the dialog does), and a "close"
      // event that arrives after the dialog was opened again is stale and ignored.
      onCancel={() => onClose()}
      onClose={(event) => {
        if (event.currentTarget.open) return
        onClose()
        const target = opener.current?.isConnected ? opener.current : focusInstead?.()
        target?.focus()
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      {open ? (
        <div className="space-y-4 p-5">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {children}
        </div>
      ) : null}
    </dialog>
  )
}
