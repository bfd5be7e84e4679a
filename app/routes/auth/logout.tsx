import { redirect } from 'react-router'
import { callAuthEndpoint, cookieHeaders } from '~/auth/better-auth.server'
import { ownerCookieDeletion } from '~/auth/offline-owner.server'
import type { Route } from './+types/logout'

// Logging out is a POST (a link or image elsewhere cannot log anyone out); it returns to "/".
export async function action({ request }: Route.ActionArgs) {
  const result = await callAuthEndpoint(request, '/sign-out', {})
  const headers = cookieHeaders(result.response)
  // The phone's service worker then serves nobody's saved pages (decision 030).
  headers.append('Set-Cookie', ownerCookieDeletion())
  throw redirect('/', { headers })
}

export function loader() {
  throw redirect('/')
}
