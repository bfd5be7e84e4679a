import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { getFreshSessionUser, getSessionUser } from '~/auth/guards.server'
import { profiles, session } from '~/db/schema'
import { pageRequest } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { useDemoData } from '../../tests/helpers/test-database'
import { currentDatabaseHandle, type DatabaseHandle, db, recordQueries } from './db.server'
import { runInRequestScope } from './request-scope.server'
import { readSession, SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S, sessionToken } from './session-read.server'

beforeAll(async () => {
  await useDemoData()
})

async function counted<T>(run: () => Promise<T>) {
  const { value, recorded } = await recordQueries(currentDatabaseHandle() as DatabaseHandle, run)
  return { value, statements: recorded.length }
}

function tokenOf(cookie: string) {
  return sessionToken(pageRequest('/', cookie)) as string
}

describe('reading the session in one statement', () => {
  it('a signed-in member: user, profile and company from one statement', async () => {
    const cookie = await signInAs('office@bluelagoon.test')
    const { value, statements } = await counted(() => readSession(pageRequest('/app', cookie)))
    expect(statements).toBe(1)
    expect(value).toMatchObject({
      kind: 'session',
      email: 'office@bluelagoon.test',
      profile: { role: 'admin', email: 'office@bluelagoon.test', hasCompletedSetup: true },
      company: { name: 'Blue Lagoon Pool Co.', timezone: expect.any(String) },
    })
    if (value.kind === 'session') expect(value.profile?.createdAt).toBeInstanceOf(Date)
  })

  it('a page that asks for the session and the company reads the database once', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const { getCompanySummary } = await import('~/models/company.server')
    const { value, statements } = await counted(() =>
      runInRequestScope('GET', async () => {
        const user = await getSessionUser(pageRequest('/app', cookie))
        return getCompanySummary(user?.profile?.companyId as string)
      }),
    )
    expect(statements).toBe(1)
    expect(value?.name).toBe('Blue Lagoon Pool Co.')
  })

  it('no cookie, a forged cookie or a tampered signature: nobody, without asking the database', async () => {
    const cookie = await signInAs('tech@bluelagoon.test')
    const part = cookie.split('; ').find((each) => each.includes('session_token')) ?? ''
    const [name, value] = part.split('=') as [string, string]
    const decoded = decodeURIComponent(value)
    const token = decoded.slice(0, decoded.lastIndexOf('.'))
    const forged = `${name}=${encodeURIComponent(`${token}.${Buffer.alloc(32).toString('base64')}`)}`
    const unsigned = `${name}=${token}`
    // Another token with this one's signature: its first character changed (to one it is not: a token may start with x).
    const otherFirst = decoded.startsWith('x') ? 'y' : 'x'
    const otherToken = `${name}=${encodeURIComponent(`${otherFirst}${decoded.slice(1)}`)}`
    for (const attempt of [undefined, forged, unsigned, otherToken, `${name}=%E0%A4%A`]) {
      const { value: read, statements } = await counted(() => readSession(pageRequest('/app', attempt)))
      expect(read).toEqual({ kind: 'none' })
      expect(statements).toBe(0)
    }
  })

  it('a signed-out (deleted) or expired session is nobody on the very next request', async () => {
    const gone = await signInAs('tech@bluelagoon.test')
    await db()
      .delete(session)
      .where(eq(session.token, tokenOf(gone)))
    expect(await getFreshSessionUser(pageRequest('/app', gone))).toBeNull()

    const expired = await signInAs('tech@bluelagoon.test')
    await db()
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.token, tokenOf(expired)))
    expect(await getFreshSessionUser(pageRequest('/app', expired))).toBeNull()
  })

  it('a deactivated member or a changed role is seen on the very next request', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const [profile] = await db().select().from(profiles).where(eq(profiles.email, 'dispatch@bluelagoon.test'))
    expect((await getFreshSessionUser(pageRequest('/app', cookie)))?.profile?.role).toBe('dispatcher')
    await db()
      .update(profiles)
      .set({ role: 'tech' })
      .where(eq(profiles.id, profile?.id as string))
    expect((await getFreshSessionUser(pageRequest('/app', cookie)))?.profile?.role).toBe('tech')
    await db()
      .update(profiles)
      .set({ deactivatedAt: new Date() })
      .where(eq(profiles.id, profile?.id as string))
    expect(await getFreshSessionUser(pageRequest('/app', cookie))).toBeNull()
    await db()
      .update(profiles)
      .set({ role: 'dispatcher', deactivatedAt: null })
      .where(eq(profiles.id, profile?.id as string))
  })

  it('a session due for its daily extension goes through better-auth, which extends it', async () => {
    const cookie = await signInAs('owner@bluelagoon.test')
    const due = new Date(Date.now() + (SESSION_EXPIRES_IN_S - SESSION_UPDATE_AGE_S - 60) * 1000)
    await db()
      .update(session)
      .set({ expiresAt: due })
      .where(eq(session.token, tokenOf(cookie)))
    expect(await readSession(pageRequest('/app', cookie))).toEqual({ kind: 'refresh' })
    const user = await getFreshSessionUser(pageRequest('/app', cookie))
    expect(user?.email).toBe('owner@bluelagoon.test')
    expect(user?.company?.name).toBe('Blue Lagoon Pool Co.')
    const [row] = await db()
      .select()
      .from(session)
      .where(eq(session.token, tokenOf(cookie)))
    expect(row?.expiresAt.getTime()).toBeGreaterThan(due.getTime() + 60_000)
    expect((await readSession(pageRequest('/app', cookie))).kind).toBe('session')
  })
})
