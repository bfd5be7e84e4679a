import { createContext, useContext } from 'react'

// The server renders with a per-request CSP nonce; in the browser the value is hidden and unused.
const NonceContext = createContext('')

export const NonceProvider = NonceContext.Provider

export function useNonce() {
  return useContext(NonceContext)
}
