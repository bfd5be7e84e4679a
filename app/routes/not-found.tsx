import { data } from 'react-router'
import { ErrorPage } from '~/components/error-page'

// Any URL no route claims: a real 404 status with the friendly page.
export function loader() {
  throw data(null, { status: 404 })
}

export function action() {
  throw data(null, { status: 404 })
}

export default function NotFound() {
  return <ErrorPage status={404} />
}

export function ErrorBoundary() {
  return <ErrorPage status={404} />
}
