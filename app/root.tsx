import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation } from 'react-router'
import type { Route } from './+types/root'
import { ErrorPage } from './components/error-page'
import { FlashMessage, inShell } from './components/flash-message'
import { takeFlash } from './utils/flash.server'
import { useNonce } from './utils/nonce'
import { Stylesheet } from './utils/stylesheet'

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0e7490" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The staff app installs from the browser (decision 019); its service worker registers in /app only. */}
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <Stylesheet />
        <Meta />
        <Links />
      </head>
      <body className="min-h-full bg-slate-50 font-sans text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

/** Only the one-time message an action left (utils/flash.server.ts): the root loader runs on every navigation. */
export async function loader({ request }: Route.LoaderArgs) {
  const { flash, headers } = await takeFlash(request)
  return data({ flash }, { headers })
}

export default function App({ loaderData }: Route.ComponentProps) {
  // The staff app's frame shows the message under its navigation (AppShell); other pages float it at the top.
  const { pathname } = useLocation()
  return (
    <>
      {inShell(pathname) ? null : <FlashMessage flash={loaderData.flash} />}
      <Outlet />
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorPage status={404} />
  }
  if (!isRouteErrorResponse(error)) console.error(error)
  return <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} />
}
