import { useEffect } from 'react'
import { useRevalidator } from 'react-router'

/**
 * Revalidates the page's data when the server announces a change in the company
 * (a job created, assigned, completed, a reading or photo saved). EventSource reconnects by itself.
 */
export function useLiveUpdates(enabled: boolean) {
  const revalidator = useRevalidator()
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return
    const source = new EventSource('/app/events')
    let timer: ReturnType<typeof setTimeout> | undefined
    // Several changes in a burst (e.g. a job and its reading) cause one reload, not several.
    const onChange = () => {
      clearTimeout(timer)
      timer = setTimeout(() => revalidator.revalidate(), 300)
    }
    source.addEventListener('change', onChange)
    return () => {
      clearTimeout(timer)
      source.removeEventListener('change', onChange)
      source.close()
    }
  }, [enabled, revalidator.revalidate])
}
