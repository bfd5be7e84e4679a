import { useEffect, useState } from 'react'
import { saveDayForOffline } from './offline-app.client'
import { MAX_SAVED_STOPS } from './offline-cache'

export type DaySaved = { state: 'saving' } | { state: 'saved' | 'partly'; stops: number }

/**
 * Today, loaded online, saves itself and its stops' visit pages on the phone (docs/product.md "The visit": the day is
 * on the phone after one online load), and again whenever the day's stops change. Null until it starts, and where it
 * cannot.
 */
export function useSaveDayForOffline(visitIds: string[]): DaySaved | null {
  const [saved, setSaved] = useState<DaySaved | null>(null)
  // The stops' ids are what matters, not the array's identity (a revalidation makes a new one).
  const key = visitIds.join(',')
  useEffect(() => {
    const ids = key ? key.split(',') : []
    let current = true
    setSaved({ state: 'saving' })
    void saveDayForOffline(ids).then((answer) => {
      if (!current) return
      const stops = Math.min(ids.length, MAX_SAVED_STOPS)
      setSaved(answer ? { state: answer.saved === answer.total ? 'saved' : 'partly', stops } : null)
    })
    return () => {
      current = false
    }
  }, [key])
  return saved
}
