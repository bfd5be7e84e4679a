// Where better-auth's emailed links land: the sign-up confirmation (/login?verified=1, `&error=CODE` when it failed)
// and the change of sign-in email (/app/account?email=updated, `&error=CODE` likewise). Their outcome is said once,
// as a flash message (utils/flash.server.ts) on the same page without those parameters, so a reload or a bookmark
// never says it again.
import type { FlashMessage } from '~/utils/flash.server'

const VERIFY_ERRORS: Record<string, string> = {
  TOKEN_EXPIRED: 'That confirmation link has expired. Log in to get a new one.',
  INVALID_TOKEN: 'That confirmation link is not valid. Use the newest link we emailed you.',
}

/** A link's landing: the message to show once, and the same page without the link's parameters. */
export type LinkLanding = { flash: FlashMessage; to: string }

/** `url` without `names`, as a path; every other parameter (a return path, say) is kept. */
function without(url: URL, names: readonly string[]) {
  const search = new URLSearchParams(url.search)
  for (const name of names) search.delete(name)
  const query = search.toString()
  return query ? `${url.pathname}?${query}` : url.pathname
}

/** The sign-up confirmation link's landing, or null when `url` is none (an unknown error code says nothing). */
export function verifyLinkLanding(url: URL): LinkLanding | null {
  const error = url.searchParams.get('error')
  const to = without(url, ['verified', 'error'])
  if (error) {
    const text = VERIFY_ERRORS[error]
    return text ? { flash: { tone: 'error', text }, to } : null
  }
  return url.searchParams.get('verified') === '1' ? { flash: 'Email confirmed. You can log in now.', to } : null
}

/**
 * better-auth's error codes on the email change's landing, in words (docs/product.md "Forms": clear, in the danger
 * color).
 */
function emailLinkError(code: string, currentEmail: string) {
  switch (code) {
    case 'TOKEN_EXPIRED':
      return `That email confirmation link has expired. You still log in with ${currentEmail}; save your new email again to get a new link.`
    case 'INVALID_TOKEN':
      return `That email confirmation link is not valid or has already been used. You log in with ${currentEmail}.`
    case 'EMAIL_TAKEN':
      return `Someone else has started using that address since you asked for it, so you still log in with ${currentEmail}.`
    case 'INVALID_USER':
      return 'That email confirmation link belongs to another account. Log out, then open it again.'
    default:
      return `We could not confirm that email change. You still log in with ${currentEmail}; save your new email again to get a new link.`
  }
}

/**
 * The email-change link's landing for the signed-in person (`email`: the address they log in with now), or null
 * when `url` is none.
 */
export function emailChangeLanding(url: URL, email: string): LinkLanding | null {
  const error = url.searchParams.get('error')
  const to = without(url, ['email', 'error'])
  if (error) return { flash: { tone: 'error', text: emailLinkError(error, email) }, to }
  return url.searchParams.get('email') === 'updated'
    ? { flash: `Email updated. You now log in with ${email}.`, to }
    : null
}
