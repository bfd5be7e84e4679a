import { createContext, useContext } from 'react'
import stylesheetUrl from '~/app.css?url'
import { useNonce } from './nonce'

// The whole stylesheet is small (≈8 KB compressed), so a production page carries it inline: the first paint does
// not wait for a second request (Lighthouse's "render-blocking resources"). The server reads the built file
// (app/utils/stylesheet.server.ts) and hands it down here; the browser renders an empty value and, because React
// never rewrites innerHTML that did not change between its own renders, keeps the server's styles in place.
const InlineStylesheetContext = createContext('')

export const InlineStylesheetProvider = InlineStylesheetContext.Provider

export { stylesheetUrl }

export function Stylesheet() {
  const css = useContext(InlineStylesheetContext)
  // The CSP allows inline styles only with the page's nonce (in the browser the nonce reads as empty,
  // and React keeps the server's attribute).
  const nonce = useNonce()
  // The dev server transforms the CSS on request and hot-reloads it, so it keeps the link.
  if (!import.meta.env.PROD) return <link rel="stylesheet" href={stylesheetUrl} />
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own built CSS (never user input); as children, React would blank it in the browser.
  return <style nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: css }} />
}
