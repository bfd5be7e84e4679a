import { useEffect, useRef } from 'react'
import { useFetchers, useNavigation, useRevalidator } from 'react-router'

/** A change this tab just made has already reloaded its data (and shows its own message). */
const OWN_CHANGE_WINDOW_MS = 3_000

/**
 * Revalidates the page's data when the server announces a change in the company
 * (a visit created, assigned, completed, a reading or photo saved). EventSource reconnects by itself.
 *
 * Events that arrive right after this tab submitted a form are skipped: the action already
 * revalidated the page, and a second revalidation would wipe the action's success message
 * (React Router clears action data on any later load).
 */
export function useLiveUpdates(enabled: boolean) {
  const revalidator = useRevalidator()
  const navigation = useNavigation()
  const fetchers = useFetchers()
  const lastSubmit = useRef(0)
  const submitting =
    (navigation.formMethod !== undefined && navigation.formMethod.toUpperCase() !== 'GET') ||
    fetchers.some((fetcher) => fetcher.formMethod !== undefined && fetcher.formMethod.toUpperCase() !== 'GET')
  if (submitting) lastSubmit.current = Date.now()

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return
    const source = new EventSource('/app/events')
    let timer: ReturnType<typeof setTimeout> | undefined
    // Without signal the page's data cannot be fetched again, and a failed reload would put an error page where the
    // technician's day was (the stream can still deliver what the server sent before the signal went). A change
    // heard then is loaded when the signal returns.
    let missed = false
    const reload = () => {
      missed = !navigator.onLine
      if (!missed) revalidator.revalidate()
    }
    // Several changes in a burst (e.g. a visit and its reading) cause one reload, not several.
    const onChange = () => {
      clearTimeout(timer)
      timer = setTimeout(() => {
        if (Date.now() - lastSubmit.current < OWN_CHANGE_WINDOW_MS) return
        reload()
      }, 300)
    }
    const onOnline = () => {
      if (missed) reload()
    }
    source.addEventListener('change', onChange)
    window.addEventListener('online', onOnline)
    return () => {
      clearTimeout(timer)
      source.removeEventListener('change', onChange)
      window.removeEventListener('online', onOnline)
      source.close()
    }
  }, [enabled, revalidator.revalidate])
}
