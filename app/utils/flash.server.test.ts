import { describe, expect, it } from 'vitest'
import { loader as rootLoader } from '~/root'
import { flashHeader, redirectWithFlash, takeFlash } from './flash.server'

function cookieFrom(setCookie: string) {
  return setCookie.split(';')[0] as string
}

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Response) return error
    throw error
  }
  throw new Error('expected a thrown response')
}

describe('flash messages', () => {
  it('a redirect carries its message to the next page load, once', async () => {
    const response = await thrown(redirectWithFlash('/app/customers', 'Customer saved.'))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/app/customers')
    const cookie = cookieFrom(response.headers.get('Set-Cookie') ?? '')

    const first = await takeFlash(new Request('http://x/app/customers', { headers: { Cookie: cookie } }))
    expect(first.flash).toMatchObject({ tone: 'success', text: 'Customer saved.' })
    // The same response clears the cookie, so a reload shows nothing.
    const cleared = new Headers(first.headers).get('Set-Cookie') ?? ''
    expect(cleared).toMatch(/^pb-flash=;/)
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/)
  })

  it('errors keep their tone, and every message gets a new id', async () => {
    const a = cookieFrom(await flashHeader({ tone: 'error', text: 'Visit not moved.' }))
    const b = cookieFrom(await flashHeader({ tone: 'error', text: 'Visit not moved.' }))
    const first = await takeFlash(new Request('http://x/', { headers: { Cookie: a } }))
    const second = await takeFlash(new Request('http://x/', { headers: { Cookie: b } }))
    expect(first.flash?.tone).toBe('error')
    expect(first.flash?.id).not.toBe(second.flash?.id)
  })

  it('a forged or tampered cookie shows nothing', async () => {
    const forged = `pb-flash=${Buffer.from(JSON.stringify({ id: 'x', tone: 'success', text: 'You won' })).toString('base64')}`
    expect((await takeFlash(new Request('http://x/', { headers: { Cookie: forged } }))).flash).toBeNull()

    const genuine = cookieFrom(await flashHeader('Saved.'))
    const tampered = genuine.replace(/.(?=\.[^.]*$)/, (c) => (c === 'A' ? 'B' : 'A'))
    expect((await takeFlash(new Request('http://x/', { headers: { Cookie: tampered } }))).flash).toBeNull()
  })

  it('the root loader hands the message to every page and clears it', async () => {
    const cookie = cookieFrom(await flashHeader('Plan saved.'))
    const result = (await rootLoader({
      request: new Request('http://x/app', { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    } as never)) as unknown as { data: { flash: { text: string } | null }; init: ResponseInit | null }
    expect(result.data.flash?.text).toBe('Plan saved.')
    expect(new Headers(result.init?.headers).get('Set-Cookie')).toMatch(/^pb-flash=;/)

    const none = (await rootLoader({
      request: new Request('http://x/app'),
      params: {},
      context: {},
    } as never)) as unknown as {
      data: { flash: unknown }
    }
    expect(none.data.flash).toBeNull()
  })
})
