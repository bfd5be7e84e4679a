import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/** False on the server and while hydrating, true once the page's script runs: forms switch to their scripted path. */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
