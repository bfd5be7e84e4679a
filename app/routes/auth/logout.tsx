import { redirect } from 'react-router'
import { callAuthEndpoint, cookieHeaders } from '~/auth/better-auth.server'
import type { Route } from './+types/logout'

// Logging out is a POST (a link or image elsewhere cannot log anyone out); it returns to "/".
export async function action({ request }: Route.ActionArgs) {
  const result = await callAuthEndpoint(request, '/sign-out', {})
  throw redirect('/', { headers: cookieHeaders(result.response) })
}

export function loader() {
  throw redirect('/')
}
