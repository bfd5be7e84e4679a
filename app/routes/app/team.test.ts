import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { emailOutbox, jobs, profiles, session, user } from '~/db/schema'
import { seedDemoData } from '~/db/seed.server'
import { loader as dashboardLoader } from '~/routes/app/dashboard'
import { action as loginAction } from '~/routes/auth/login'
import { CLIENT_IP_HEADER } from '~/utils/auth.server'
import { db } from '~/utils/db.server'
import { pageRequest, settle, signInAs, TEST_ORIGIN } from '../../../tests/helpers/session'
import { action, loader } from './team'

const call = (request: Request) => ({ request, params: {}, context: {} }) as never

function post(cookie: string, fields: Record<string, string>) {
  return new Request(`${TEST_ORIGIN}/app/team`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN },
    body: new URLSearchParams(fields),
  })
}

type Reply = { ok: boolean; message: string; fieldErrors?: Record<string, string[]> }
async function reply(promise: unknown) {
  const { returned, thrown } = await settle(promise as Promise<unknown>)
  const value = (returned ?? thrown) as { data?: Reply; init?: { status?: number } | null; status?: number }
  return { status: value.init?.status ?? value.status ?? 200, body: value.data as Reply }
}

async function profileByEmail(email: string) {
  const [row] = await db().select().from(profiles).where(eq(profiles.email, email))
  return row
}

async function emailsTo(address: string) {
  return db().select().from(emailOutbox).where(eq(emailOutbox.to, address))
}

let owner: string
let admin: string
let blueLagoon: string

beforeAll(async () => {
  await seedDemoData(db())
  owner = await signInAs('owner@bluelagoon.test')
  admin = await signInAs('office@bluelagoon.test')
  blueLagoon = (await profileByEmail('owner@bluelagoon.test'))?.companyId as string
})

describe('inviting teammates', () => {
  it("an owner's invite creates the pending member and emails a one-time link to /welcome", async () => {
    const result = await reply(
      action(
        call(post(owner, { intent: 'invite', role: 'dispatcher', fullName: 'Kai Rivers', email: 'Kai@Example.com' })),
      ),
    )
    expect(result).toEqual({
      status: 200,
      body: { intent: 'invite', ok: true, message: 'Invitation sent. Your teammate will receive an email shortly.' },
    })
    const kai = await profileByEmail('kai@example.com')
    expect(kai).toMatchObject({ companyId: blueLagoon, role: 'dispatcher', fullName: 'Kai Rivers', phone: null })
    expect(kai?.hasCompletedSetup).toBe(false)
    const [mail] = await emailsTo('kai@example.com')
    expect(mail?.subject).toContain('Blue Lagoon Pool Co.')
    expect(mail?.html).toContain('/api/auth/magic-link/verify')
    expect(mail?.html).toMatch(/callbackURL=(%2F|\/)welcome/)
  })

  it("an admin's invite says 'Invitation sent.'; re-inviting a pending member sends a new link", async () => {
    const fields = { intent: 'invite', role: 'tech', fullName: 'Lee Park', email: 'lee.park@example.com' }
    expect((await reply(action(call(post(admin, fields))))).body.message).toBe('Invitation sent.')
    expect((await reply(action(call(post(admin, fields))))).body.ok).toBe(true)
    expect(await emailsTo('lee.park@example.com')).toHaveLength(2)
  })

  it('sends at most 3 invitations to one address an hour, then answers 429 with a message', async () => {
    const fields = { intent: 'invite', role: 'tech', fullName: 'Rae Limit', email: 'rae.limit@example.com' }
    for (let i = 0; i < 3; i++) expect((await reply(action(call(post(owner, fields))))).body.ok).toBe(true)
    const limited = await reply(action(call(post(owner, fields))))
    expect(limited.status).toBe(429)
    expect(limited.body.message).toBe('Several invitations went to this address in the last hour. Try again later.')
    expect(await emailsTo('rae.limit@example.com')).toHaveLength(3)
  })

  it('admins may not invite owners or admins, even by posting the role directly', async () => {
    for (const role of ['owner', 'admin', 'platform_admin', 'customer']) {
      const result = await reply(
        action(call(post(admin, { intent: 'invite', role, fullName: 'Sneaky', email: `${role}.sneaky@example.com` }))),
      )
      expect(result.status, role).toBe(403)
      expect(result.body.message).toBe('You cannot invite someone with that role.')
      expect(await profileByEmail(`${role}.sneaky@example.com`)).toBeUndefined()
    }
  })

  it('refuses the address of another company, a platform admin or a customer, and leaves them untouched', async () => {
    for (const email of ['owner@sunsetpools.test', 'admin@poolbud.test', 'customer@bluelagoon.test']) {
      const before = await profileByEmail(email)
      const [userBefore] = await db().select().from(user).where(eq(user.email, email))
      const result = await reply(action(call(post(owner, { intent: 'invite', role: 'admin', fullName: 'X', email }))))
      expect(result.status, email).toBe(400)
      expect(result.body.message).toBe(
        'That email already belongs to another Pool Bud account. Use a different email address.',
      )
      expect(await profileByEmail(email)).toEqual(before)
      expect((await db().select().from(user).where(eq(user.email, email)))[0]).toEqual(userBefore)
      expect(await emailsTo(email)).toHaveLength(0)
    }
  })

  it('an active teammate is not invited again', async () => {
    const result = await reply(
      action(call(post(owner, { intent: 'invite', role: 'tech', fullName: 'Tech', email: 'tech@bluelagoon.test' }))),
    )
    expect(result.body).toMatchObject({ ok: false, message: 'This person is already on your team.' })
  })

  it('answers missing fields with the spec messages', async () => {
    const result = await reply(action(call(post(owner, { intent: 'invite', role: 'tech', fullName: ' ', email: '' }))))
    expect(result.status).toBe(400)
    expect(result.body.fieldErrors).toMatchObject({
      fullName: ['Full name is required.'],
      email: ['Email is required.'],
    })
  })

  it('dispatchers and technicians cannot invite (403)', async () => {
    for (const email of ['dispatch@bluelagoon.test', 'tech@bluelagoon.test']) {
      const cookie = await signInAs(email)
      const { thrown } = await settle(
        action(call(post(cookie, { intent: 'invite', role: 'tech', fullName: 'X', email: 'x.y@example.com' }))),
      )
      expect((thrown as { init?: { status?: number } }).init?.status).toBe(403)
    }
  })
})

describe('the team list', () => {
  it('owners see everyone; admins only dispatchers and technicians', async () => {
    const forOwner = (await loader(call(pageRequest('/app/team', owner)))) as { members: Array<{ role: string }> }
    const forAdmin = (await loader(call(pageRequest('/app/team', admin)))) as { members: Array<{ role: string }> }
    expect(new Set(forOwner.members.map((m) => m.role))).toEqual(new Set(['owner', 'admin', 'dispatcher', 'tech']))
    expect(new Set(forAdmin.members.map((m) => m.role))).toEqual(new Set(['dispatcher', 'tech']))
    expect(forOwner.members[0]?.role).toBe('owner')
  })
})

describe('changing roles and deactivating', () => {
  it('an owner changes a role, but never to or from owner', async () => {
    const lee = await profileByEmail('lee.park@example.com')
    const ok = await reply(
      action(call(post(owner, { intent: 'change-role', memberId: lee?.id ?? '', role: 'dispatcher' }))),
    )
    expect(ok.body).toMatchObject({ ok: true, message: 'Role updated.' })
    expect((await profileByEmail('lee.park@example.com'))?.role).toBe('dispatcher')
    const toOwner = await reply(
      action(call(post(owner, { intent: 'change-role', memberId: lee?.id ?? '', role: 'owner' }))),
    )
    expect(toOwner.status).toBe(403)
    expect((await profileByEmail('lee.park@example.com'))?.role).toBe('dispatcher')
  })

  it("admins cannot change roles or deactivate (403); another company's member is a 404", async () => {
    const tech = await profileByEmail('tech@bluelagoon.test')
    const { thrown } = await settle(action(call(post(admin, { intent: 'deactivate', memberId: tech?.id ?? '' }))))
    expect((thrown as { init?: { status?: number } }).init?.status).toBe(403)
    const sunsetTech = await profileByEmail('tech@sunsetpools.test')
    for (const intent of ['deactivate', 'change-role', 'reactivate']) {
      const other = await settle(
        action(call(post(owner, { intent, memberId: sunsetTech?.id ?? '', role: 'dispatcher' }))),
      )
      expect((other.thrown as { init?: { status?: number } }).init?.status, intent).toBe(404)
    }
    expect(await profileByEmail('tech@sunsetpools.test')).toEqual(sunsetTech)
  })

  it('deactivating ends their sessions, blocks sign-in and unassigns their open jobs', async () => {
    const tech2 = await profileByEmail('tech2@bluelagoon.test')
    const techCookie = await signInAs('tech2@bluelagoon.test')
    const openJobs = await db()
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.technicianId, tech2?.id ?? ''), isNull(jobs.completedAt)))
    expect(openJobs.length).toBeGreaterThan(0)

    const result = await reply(action(call(post(owner, { intent: 'deactivate', memberId: tech2?.id ?? '' }))))
    expect(result.body.ok).toBe(true)
    expect(
      await db()
        .select()
        .from(session)
        .where(eq(session.userId, tech2?.id ?? '')),
    ).toHaveLength(0)
    const stillOpen = await db()
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.technicianId, tech2?.id ?? ''), isNull(jobs.completedAt)))
    expect(stillOpen).toHaveLength(0)
    // Completed visits keep their technician (the history stays).
    const history = await db()
      .select({ id: jobs.id })
      .from(jobs)
      .where(eq(jobs.technicianId, tech2?.id ?? ''))
    expect(history.length).toBeGreaterThan(0)

    // The old cookie no longer works, and the password no longer signs in.
    const { thrown } = await settle(dashboardLoader(call(pageRequest('/app', techCookie))))
    expect((thrown as Response).headers.get('Location')).toMatch(/^\/login/)
    const login = new Request(`${TEST_ORIGIN}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', [CLIENT_IP_HEADER]: '192.0.2.44' },
      body: new URLSearchParams({ intent: 'login', email: 'tech2@bluelagoon.test', password: 'pooldemo123' }),
    })
    const refused = await reply(loginAction(call(login)))
    expect(refused.status).toBe(403)
    expect(JSON.stringify(refused.body)).toContain('This account has been deactivated. Contact your company owner.')
    expect(
      await db()
        .select()
        .from(session)
        .where(eq(session.userId, tech2?.id ?? '')),
    ).toHaveLength(0)

    // Reactivated, they can sign in again.
    await reply(action(call(post(owner, { intent: 'reactivate', memberId: tech2?.id ?? '' }))))
    await expect(signInAs('tech2@bluelagoon.test')).resolves.toContain('session_token')
  })

  it('an owner cannot deactivate themselves or another owner', async () => {
    const me = await profileByEmail('owner@bluelagoon.test')
    const { thrown } = await settle(action(call(post(owner, { intent: 'deactivate', memberId: me?.id ?? '' }))))
    expect((thrown as { init?: { status?: number } }).init?.status).toBe(404)
    expect((await profileByEmail('owner@bluelagoon.test'))?.deactivatedAt).toBeNull()
  })
})
