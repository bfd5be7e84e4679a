// One-time links (security review F6, fault drill #3), always used through better-auth's real handler.
import { randomUUID } from 'node:crypto'
import { and, eq, isNotNull, isNull, like, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER, callAuthEndpoint } from '~/auth/better-auth.server'
import { getSessionUser } from '~/auth/guards.server'
import { companies, customers, emailOutbox, profiles, user, verification } from '~/db/schema'
import { action as welcomeAction } from '~/routes/auth/welcome'
import { db } from '~/utils/db.server'
import { latestInviteLink, requestResetToken, resetWith, signsIn } from '../../tests/helpers/links'
import { pageRequest, TEST_ORIGIN } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { useDemoData } from '../../tests/helpers/test-database'
import { inviteCustomer } from './invitation.server'
import { inviteOwner } from './owner-invitation.server'
import { createInviteLink } from './sign-in-links.server'
import { inviteTeamMember } from './team.server'

let blue: string
let ownerId: string

beforeAll(async () => {
  await useDemoData()
  const [owner] = await db()
    .select({ id: profiles.id, companyId: profiles.companyId })
    .from(profiles)
    .where(eq(profiles.email, 'owner@bluelagoon.test'))
  blue = owner?.companyId as string
  ownerId = owner?.id as string
})

/** Invites `email` to Blue Lagoon as a technician (again, when pending) and returns the emailed link. */
async function inviteTech(email: string) {
  const result = await inviteTeamMember({
    companyId: blue,
    inviter: { id: ownerId, role: 'owner' },
    role: 'tech',
    fullName: 'Link Person',
    email,
    phone: null,
  })
  expect(result.ok).toBe(true)
  return latestInviteLink(email)
}

const STRONG = 'Lagoon-harbor-7391'

describe('an invitation link is written in the transaction that creates the invitee (fault drill #3)', () => {
  it('signs in once through the real handler, and not twice', async () => {
    const email = 'link.once@example.com'
    const id = randomUUID()
    const link = await db().transaction(async (tx) => {
      await tx.insert(user).values({ id, email, name: 'Link Once', emailVerified: false })
      await tx.insert(profiles).values({ id, companyId: blue, role: 'tech', email, hasCompletedSetup: false })
      return createInviteLink(tx, { email, callbackURL: '/welcome' })
    })
    const first = await signsIn(link)
    expect(first).toMatchObject({ signedIn: true, location: `${TEST_ORIGIN}/welcome` })
    const cookie = first.response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    expect((await getSessionUser(pageRequest('/welcome', cookie)))?.id).toBe(id)
    const second = await signsIn(link)
    expect(second.signedIn).toBe(false)
    expect(second.location).toContain('/login?invite=invalid')
  })

  it('a failure after the invitee is written leaves neither the invitee, their link nor the email', async () => {
    const [customer] = await db()
      .select({ id: customers.id, email: customers.email })
      .from(customers)
      .where(and(eq(customers.companyId, blue), isNull(customers.portalUserId), isNotNull(customers.email)))
      .limit(1)
    const companiesBefore = await db().select({ n: sql<number>`count(*)::int` }).from(companies)
    let results: unknown[] = []
    // The outbox refuses every email: the invitee was already written when it fails.
    await db().execute(
      sql.raw(`create function refuse_email() returns trigger language plpgsql as $$
        begin raise exception 'outbox unavailable'; end $$`),
    )
    await db().execute(
      sql.raw('create trigger refuse_email before insert on email_outbox for each row execute function refuse_email()'),
    )
    try {
      const team = await inviteTeamMember({
        companyId: blue,
        inviter: { id: ownerId, role: 'owner' },
        role: 'tech',
        fullName: 'Crash Test',
        email: 'crash.team@example.com',
        phone: null,
      })
      const owner = await inviteOwner({
        mode: 'new',
        companyName: 'Crash Pools',
        owner: { fullName: 'Crash Owner', email: 'crash.owner@example.com', phone: null },
        invitedBy: ownerId,
      })
      const portal = await inviteCustomer({ companyId: blue, customerId: customer?.id ?? '' })
      results = [team, owner, portal]
    } finally {
      await db().execute(sql.raw('drop trigger refuse_email on email_outbox'))
      await db().execute(sql.raw('drop function refuse_email()'))
    }
    for (const email of ['crash.team@example.com', 'crash.owner@example.com', customer?.email ?? '']) {
      expect(await db().select().from(user).where(eq(user.email, email)), email).toHaveLength(0)
      expect(await db().select().from(emailOutbox).where(eq(emailOutbox.to, email)), email).toHaveLength(0)
      const links = await db()
        .select()
        .from(verification)
        .where(and(like(verification.identifier, 'magic-link:%'), like(verification.value, `%${email}%`)))
      expect(links, email).toHaveLength(0)
    }
    expect(await db().select({ n: sql<number>`count(*)::int` }).from(companies)).toEqual(companiesBefore)
    const [row] = await db()
      .select()
      .from(customers)
      .where(eq(customers.id, customer?.id ?? ''))
    expect(row?.portalUserId).toBeNull()
    // Answered as a failure, not as a success with a lost email.
    for (const result of results) expect(result).toMatchObject({ ok: false, code: 'failed' })
  })
})

describe('links die when a newer one is issued, when one is used, and when a password is set (F6)', () => {
  it('a new invitation voids the older link of the same person', async () => {
    const older = await inviteTech('resent@example.com')
    const newer = await inviteTech('resent@example.com')
    expect(newer).not.toBe(older)
    expect((await signsIn(older)).location).toContain('/login?invite=invalid')
    expect(await signsIn(newer)).toMatchObject({ signedIn: true, location: `${TEST_ORIGIN}/welcome` })
  })

  it('a new portal invitation voids the older setup link', async () => {
    const [customer] = await db()
      .select({ id: customers.id, email: customers.email })
      .from(customers)
      .where(and(eq(customers.companyId, blue), isNull(customers.portalUserId), isNotNull(customers.email)))
      .limit(1)
    const email = customer?.email ?? ''
    expect((await inviteCustomer({ companyId: blue, customerId: customer?.id ?? '' })).ok).toBe(true)
    const older = await latestInviteLink(email)
    expect((await inviteCustomer({ companyId: blue, customerId: customer?.id ?? '' })).ok).toBe(true)
    const newer = await latestInviteLink(email)
    expect((await signsIn(older)).signedIn).toBe(false)
    expect((await signsIn(newer)).location).toBe(`${TEST_ORIGIN}/customer-setup?customerId=${customer?.id}`)
  })

  it('a new reset link voids the older one', async () => {
    const older = await requestResetToken('tech2@bluelagoon.test')
    const newer = await requestResetToken('tech2@bluelagoon.test')
    expect(await resetWith(older, STRONG)).toBe(400)
    expect(await resetWith(newer, STRONG)).toBe(200)
    await expect(signInAs('tech2@bluelagoon.test', STRONG)).resolves.toContain('session_token')
  })

  it('using the invitation link voids the reset link the invitee also had', async () => {
    const link = await inviteTech('two.links@example.com')
    const reset = await requestResetToken('two.links@example.com')
    expect((await signsIn(link)).signedIn).toBe(true)
    expect(await resetWith(reset, STRONG)).toBe(400)
  })

  it('a reset voids the invitation link', async () => {
    const link = await inviteTech('reset.first@example.com')
    const reset = await requestResetToken('reset.first@example.com')
    expect(await resetWith(reset, STRONG)).toBe(200)
    expect((await signsIn(link)).location).toContain('/login?invite=invalid')
  })

  it('choosing the password on /welcome voids every outstanding link of that person', async () => {
    const first = await inviteTech('welcome.done@example.com')
    const opened = await signsIn(first)
    const cookie = opened.response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    // While they fill in /welcome, the office sends the invitation again and someone asks for a reset.
    const resent = await inviteTech('welcome.done@example.com')
    const reset = await requestResetToken('welcome.done@example.com')
    const done = (await welcomeAction({
      request: new Request(`${TEST_ORIGIN}/welcome`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ fullName: 'Wel Come', password: STRONG, confirmPassword: STRONG }),
      }),
      params: {},
      context: {},
    } as never)) as { done: boolean }
    expect(done.done).toBe(true)
    expect((await signsIn(resent)).location).toContain('/login?invite=invalid')
    expect(await resetWith(reset, 'Another-strong-pass-42')).toBe(400)
    await expect(signInAs('welcome.done@example.com', STRONG)).resolves.toContain('session_token')
  })

  it('changing the password voids an outstanding reset link', async () => {
    const reset = await requestResetToken('dispatch@bluelagoon.test')
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const request = new Request(`${TEST_ORIGIN}/app/account`, {
      headers: { cookie, [CLIENT_IP_HEADER]: '192.0.2.91' },
    })
    const changed = await callAuthEndpoint(request, '/change-password', {
      currentPassword: 'pooldemo123',
      newPassword: STRONG,
    })
    expect(changed.status).toBe(200)
    expect(await resetWith(reset, 'Another-strong-pass-42')).toBe(400)
    await expect(signInAs('dispatch@bluelagoon.test', STRONG)).resolves.toContain('session_token')
  })
})
