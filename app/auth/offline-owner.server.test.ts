// Whose pages a phone keeps (decision 030): every answer under /app names the person signed in, in a header the
// service worker keeps with each saved copy and a cookie it reads offline; with no session that cookie is deleted.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { user } from '~/db/schema'
import { OWNER_COOKIE, OWNER_HEADER } from '~/field/offline-cache'
import { db } from '~/utils/db.server'
import { runInRequestScope } from '~/utils/request-scope.server'
import { TEST_ORIGIN } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { useDemoData } from '../../tests/helpers/test-database'
import { tagOfflineOwner } from './offline-owner.server'

const ask = (path: string, cookie: string, method = 'GET', response = new Response('page')) =>
  runInRequestScope(method, () =>
    tagOfflineOwner(new Request(`${TEST_ORIGIN}${path}`, { method, headers: { cookie } }), response),
  )

let tyler: string
let tylerId: string

beforeAll(async () => {
  await useDemoData()
  tyler = await signInAs('tech@bluelagoon.test')
  const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, 'tech@bluelagoon.test'))
  tylerId = row?.id ?? ''
})

describe('tagOfflineOwner', () => {
  it('names the person signed in on every staff page, its data and its photos', async () => {
    for (const path of [
      '/app',
      '/app.data',
      '/app/visits/x',
      '/app/visits/x.data?_routes=a',
      '/app/visits/x/photos/y',
    ]) {
      const answer = await ask(path, tyler)
      expect(answer.headers.get(OWNER_HEADER), path).toBe(tylerId)
      expect(answer.headers.getSetCookie().join('\n'), path).toMatch(
        new RegExp(`^${OWNER_COOKIE}=${tylerId}; Path=/; Max-Age=\\d+; SameSite=Lax`),
      )
      expect(await answer.text()).toBe('page')
    }
    // A redirect (immutable headers) and an answer without a body are tagged too, unchanged otherwise.
    const moved = await ask('/app/visits/x', tyler, 'GET', Response.redirect(`${TEST_ORIGIN}/app`, 302))
    expect([moved.status, moved.headers.get('Location'), moved.headers.get(OWNER_HEADER)]).toEqual([
      302,
      `${TEST_ORIGIN}/app`,
      tylerId,
    ])
    const empty = await ask('/app.data', tyler, 'GET', new Response(null, { status: 204 }))
    expect([empty.status, empty.headers.get(OWNER_HEADER)]).toEqual([204, tylerId])
  })

  it('deletes the owner cookie when the session is gone, so the phone shows nobody’s saved pages', async () => {
    const answer = await ask('/app', `${OWNER_COOKIE}=${tylerId}; pool-bud.session_token=expired`)
    expect(answer.headers.get(OWNER_HEADER)).toBeNull()
    expect(answer.headers.getSetCookie()).toEqual([expect.stringMatching(new RegExp(`^${OWNER_COOKIE}=; .*Max-Age=0`))])
  })

  it('leaves alone what is not a staff page read: writes, the live stream, other pages, visitors', async () => {
    for (const [path, method] of [
      ['/app/visits/x', 'POST'],
      ['/app/events', 'GET'],
      ['/login', 'GET'],
      ['/customer/c1', 'GET'],
    ] as const) {
      const answer = await ask(path, tyler, method)
      expect(answer.headers.get(OWNER_HEADER), path).toBeNull()
      expect(answer.headers.getSetCookie(), path).toEqual([])
    }
    expect((await ask('/app', '')).headers.getSetCookie()).toEqual([])
  })
})
