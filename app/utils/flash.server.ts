// The one way an action says something to the page it redirects to: a short-lived signed cookie that the root
// loader reads and clears, so a reload never shows the message twice and never re-submits the form.
import { createCookie, redirect } from 'react-router'
import { env } from './env.server'
import { type Flash, type FlashTone, isFlash } from './flash'

function flashCookie() {
  return createCookie('pb-flash', {
    // The whole site: client-side navigations fetch `/path.data`, which a narrower path would not cover.
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: env().APP_URL.startsWith('https://'),
    secrets: [env().AUTH_SECRET],
    // Long enough for the redirect to be followed; a message nobody saw within a minute is stale.
    maxAge: 60,
  })
}

export type FlashMessage = string | { tone: FlashTone; text: string }

function toFlash(message: FlashMessage): Flash {
  const { tone, text } = typeof message === 'string' ? { tone: 'success' as const, text: message } : message
  return { id: crypto.randomUUID(), tone, text: text.slice(0, 500) }
}

/** The Set-Cookie header that carries `message` to the next page load. */
export async function flashHeader(message: FlashMessage): Promise<string> {
  return flashCookie().serialize(toFlash(message))
}

/** Redirect to `to` with a message shown once there (a plain string is a success message). */
export async function redirectWithFlash(to: string, message: FlashMessage, init: ResponseInit = {}): Promise<never> {
  const headers = new Headers(init.headers)
  headers.append('Set-Cookie', await flashHeader(message))
  throw redirect(to, { ...init, headers })
}

/**
 * The message waiting for this request, if any, and the header that clears it. A forged or tampered cookie is
 * ignored (it is signed), and so is anything that does not have the shape we write.
 */
export async function takeFlash(request: Request): Promise<{ flash: Flash | null; headers: HeadersInit | undefined }> {
  const cookieHeader = request.headers.get('Cookie')
  if (!cookieHeader?.includes('pb-flash=')) return { flash: null, headers: undefined }
  const value = await flashCookie().parse(cookieHeader)
  const clear = { 'Set-Cookie': await flashCookie().serialize('', { maxAge: 0 }) }
  return { flash: isFlash(value) ? value : null, headers: clear }
}
