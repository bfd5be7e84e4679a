import { isRouteErrorResponse, useRouteError } from 'react-router'
import { ErrorPage } from './error-page'
import { GuardCard, isGuardReason } from './guard-card'

/** Error boundary body for signed-in areas: guard cards for 403s, the friendly page otherwise. */
export function RouteError() {
  const error = useRouteError()
  if (isRouteErrorResponse(error)) {
    const reason = (error.data as { reason?: unknown } | null)?.reason
    if (error.status === 403 && isGuardReason(reason)) {
      return (
        <div className="px-4 py-10">
          <GuardCard reason={reason} />
        </div>
      )
    }
    return <ErrorPage status={error.status} />
  }
  console.error(error)
  return <ErrorPage status={500} />
}
