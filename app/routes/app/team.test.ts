import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER } from '~/auth/better-auth.server'
import { companies, customers, emailOutbox, invitations, profiles, session, user, visits } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { startTrialCompany } from '~/models/trial.server'
import { action as customersAction } from '~/routes/app/customers'
import { loader as dashboardLoader } from '~/routes/app/dashboard'
import { action as loginAction } from '~/routes/auth/login'
import { db } from '~/utils/db.server'
import { formRequest, pageRequest, routeArgs, SAME_ORIGIN, settle, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './team'

const post = (cookie: string, fields: Record<string, string>) => formRequest('/app/team', fields, cookie, SAME_ORIGIN)

type Reply = { ok: boolean; message: string; result?: { error?: Record<string, string[] | null> } }
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
  await useDemoData()
  owner = await signInAs('owner@bluelagoon.test')
  admin = await signInAs('office@bluelagoon.test')
  blueLagoon = (await profileByEmail('owner@bluelagoon.test'))?.companyId as string
})

describe('inviting teammates', () => {
  it("an owner's invite creates the pending member and emails a one-time link to /welcome", async () => {
    const result = await reply(
      action(
        routeArgs(
          post(owner, { intent: 'invite', role: 'dispatcher', fullName: 'Kai Rivers', email: 'Kai@Example.com' }),
        ),
      ),
    )
    expect(result).toEqual({
      status: 200,
      // The form empties for the next teammate.
      body: {
        intent: 'invite',
        ok: true,
        message: 'Invitation sent. Your teammate will receive an email shortly.',
        result: { initialValue: null },
      },
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
    expect((await reply(action(routeArgs(post(admin, fields))))).body.message).toBe('Invitation sent.')
    expect((await reply(action(routeArgs(post(admin, fields))))).body.ok).toBe(true)
    expect(await emailsTo('lee.park@example.com')).toHaveLength(2)
  })

  it('sends at most 3 invitations to one address an hour, then answers 429 with a message', async () => {
    const fields = { intent: 'invite', role: 'tech', fullName: 'Rae Limit', email: 'rae.limit@example.com' }
    for (let i = 0; i < 3; i++) expect((await reply(action(routeArgs(post(owner, fields))))).body.ok).toBe(true)
    const limited = await reply(action(routeArgs(post(owner, fields))))
    expect(limited.status).toBe(429)
    expect(limited.body.message).toBe('Several invitations went to this address in the last hour. Try again later.')
    expect(await emailsTo('rae.limit@example.com')).toHaveLength(3)
  })

  it('admins may not invite owners or admins, even by posting the role directly', async () => {
    for (const role of ['owner', 'admin', 'platform_admin', 'customer']) {
      const result = await reply(
        action(
          routeArgs(post(admin, { intent: 'invite', role, fullName: 'Sneaky', email: `${role}.sneaky@example.com` })),
        ),
      )
      expect(result.status, role).toBe(403)
      expect(result.body.message).toBe('You cannot invite someone with that role.')
      expect(await profileByEmail(`${role}.sneaky@example.com`)).toBeUndefined()
    }
  })

  it('answers an address of another company, a platform admin or a customer exactly as a new one, changes nothing, and tells that address (F4)', async () => {
    const fresh = await reply(
      action(
        routeArgs(post(owner, { intent: 'invite', role: 'admin', fullName: 'X', email: 'brand.new@example.com' })),
      ),
    )
    for (const email of ['owner@sunsetpools.test', 'admin@poolbud.test', 'customer@bluelagoon.test']) {
      const before = await profileByEmail(email)
      const [userBefore] = await db().select().from(user).where(eq(user.email, email))
      const result = await reply(
        action(routeArgs(post(owner, { intent: 'invite', role: 'admin', fullName: 'X', email }))),
      )
      expect(result, email).toEqual(fresh)
      expect(await profileByEmail(email)).toEqual(before)
      expect((await db().select().from(user).where(eq(user.email, email)))[0]).toEqual(userBefore)
      expect(
        await db()
          .select()
          .from(invitations)
          .where(eq(invitations.userId, userBefore?.id ?? '')),
      ).toEqual([])
      // The address learns that Blue Lagoon tried; no link that could sign anyone in.
      const mails = await emailsTo(email)
      expect(mails).toHaveLength(1)
      expect(mails[0]?.subject).toBe('Blue Lagoon Pool Co. tried to invite you to Pool Bud')
      expect(mails[0]?.text).toContain('already used by another Pool Bud account, so nothing changed')
      expect(mails[0]?.text).not.toMatch(/https?:\/\//)
    }
  })

  it('an active teammate is not invited again', async () => {
    const result = await reply(
      action(
        routeArgs(post(owner, { intent: 'invite', role: 'tech', fullName: 'Tech', email: 'tech@bluelagoon.test' })),
      ),
    )
    expect(result.body).toMatchObject({ ok: false, message: 'This person is already on your team.' })
  })

  it('answers missing fields with the spec messages', async () => {
    const result = await reply(
      action(routeArgs(post(owner, { intent: 'invite', role: 'tech', fullName: ' ', email: '' }))),
    )
    expect(result.status).toBe(400)
    expect(result.body.result?.error).toMatchObject({
      fullName: ['Full name is required.'],
      email: ['Email is required.'],
    })
  })

  it('dispatchers and technicians cannot invite (403)', async () => {
    for (const email of ['dispatch@bluelagoon.test', 'tech@bluelagoon.test']) {
      const cookie = await signInAs(email)
      const { thrown } = await settle(
        action(routeArgs(post(cookie, { intent: 'invite', role: 'tech', fullName: 'X', email: 'x.y@example.com' }))),
      )
      expect((thrown as { init?: { status?: number } }).init?.status).toBe(403)
    }
  })
})

describe('the team list', () => {
  it('owners see everyone; admins only dispatchers and technicians', async () => {
    const forOwner = (await loader(routeArgs(pageRequest('/app/team', owner)))) as { members: Array<{ role: string }> }
    const forAdmin = (await loader(routeArgs(pageRequest('/app/team', admin)))) as { members: Array<{ role: string }> }
    expect(new Set(forOwner.members.map((m) => m.role))).toEqual(new Set(['owner', 'admin', 'dispatcher', 'tech']))
    expect(new Set(forAdmin.members.map((m) => m.role))).toEqual(new Set(['dispatcher', 'tech']))
    expect(forOwner.members[0]?.role).toBe('owner')
  })
})

describe('changing roles and deactivating', () => {
  it('an owner changes a role, but never to or from owner', async () => {
    const lee = await profileByEmail('lee.park@example.com')
    const ok = await reply(
      action(routeArgs(post(owner, { intent: 'change-role', memberId: lee?.id ?? '', role: 'dispatcher' }))),
    )
    expect(ok.body).toMatchObject({ ok: true, message: 'Role updated.' })
    expect((await profileByEmail('lee.park@example.com'))?.role).toBe('dispatcher')
    const toOwner = await reply(
      action(routeArgs(post(owner, { intent: 'change-role', memberId: lee?.id ?? '', role: 'owner' }))),
    )
    expect(toOwner.status).toBe(403)
    expect((await profileByEmail('lee.park@example.com'))?.role).toBe('dispatcher')
  })

  it('answers a row form its schema refuses with 400 on that row, naming the field', async () => {
    const lee = await profileByEmail('lee.park@example.com')
    const badRole = await reply(
      action(routeArgs(post(owner, { intent: 'change-role', memberId: lee?.id ?? '', role: 'boss' }))),
    )
    expect(badRole.status).toBe(400)
    expect(badRole.body).toMatchObject({
      intent: 'change-role',
      memberId: lee?.id,
      ok: false,
      message: 'Choose a role.',
    })
    expect(badRole.body.result?.error).toEqual({ role: ['Choose a role.'] })
    for (const intent of ['deactivate', 'reactivate', 'resend']) {
      const noOne = await reply(action(routeArgs(post(owner, { intent }))))
      expect(noOne.status, intent).toBe(400)
      expect(noOne.body, intent).toMatchObject({ intent, memberId: '', ok: false, message: 'Choose a teammate.' })
    }
    expect((await profileByEmail('lee.park@example.com'))?.role).toBe(lee?.role)
  })

  it('an intent no form sends is the 400 error page', async () => {
    const lee = await profileByEmail('lee.park@example.com')
    const unknown = await reply(action(routeArgs(post(owner, { intent: 'promote', memberId: lee?.id ?? '' }))))
    expect(unknown).toEqual({ status: 400, body: 'Unknown action.' })
  })

  it("admins cannot change roles or deactivate (403); another company's member is a 404", async () => {
    const tech = await profileByEmail('tech@bluelagoon.test')
    const { thrown } = await settle(action(routeArgs(post(admin, { intent: 'deactivate', memberId: tech?.id ?? '' }))))
    expect((thrown as { init?: { status?: number } }).init?.status).toBe(403)
    const sunsetTech = await profileByEmail('tech@sunsetpools.test')
    for (const intent of ['deactivate', 'change-role', 'reactivate']) {
      const other = await settle(
        action(routeArgs(post(owner, { intent, memberId: sunsetTech?.id ?? '', role: 'dispatcher' }))),
      )
      expect((other.thrown as { init?: { status?: number } }).init?.status, intent).toBe(404)
    }
    expect(await profileByEmail('tech@sunsetpools.test')).toEqual(sunsetTech)
  })

  it('deactivating ends their sessions, blocks sign-in and unassigns their open visits', async () => {
    const tech2 = await profileByEmail('tech2@bluelagoon.test')
    const techCookie = await signInAs('tech2@bluelagoon.test')
    const openVisits = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(and(eq(visits.technicianId, tech2?.id ?? ''), isNull(visits.completedAt)))
    expect(openVisits.length).toBeGreaterThan(0)

    const result = await reply(action(routeArgs(post(owner, { intent: 'deactivate', memberId: tech2?.id ?? '' }))))
    expect(result.body.ok).toBe(true)
    expect(
      await db()
        .select()
        .from(session)
        .where(eq(session.userId, tech2?.id ?? '')),
    ).toHaveLength(0)
    const stillOpen = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(and(eq(visits.technicianId, tech2?.id ?? ''), isNull(visits.completedAt)))
    expect(stillOpen).toHaveLength(0)
    // Completed visits keep their technician (the history stays).
    const history = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(eq(visits.technicianId, tech2?.id ?? ''))
    expect(history.length).toBeGreaterThan(0)

    // The old cookie no longer works, and the password no longer signs in.
    const { thrown } = await settle(dashboardLoader(routeArgs(pageRequest('/app', techCookie))))
    expect(thrown).toHaveRedirect(/^\/login/)
    const login = new Request(`${TEST_ORIGIN}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', [CLIENT_IP_HEADER]: '192.0.2.44' },
      body: new URLSearchParams({ intent: 'login', email: 'tech2@bluelagoon.test', password: 'pooldemo123' }),
    })
    const refused = await reply(loginAction(routeArgs(login)))
    expect(refused.status).toBe(403)
    expect(JSON.stringify(refused.body)).toContain('This account has been deactivated. Contact your company owner.')
    expect(
      await db()
        .select()
        .from(session)
        .where(eq(session.userId, tech2?.id ?? '')),
    ).toHaveLength(0)

    // Reactivated, they can sign in again.
    await reply(action(routeArgs(post(owner, { intent: 'reactivate', memberId: tech2?.id ?? '' }))))
    await expect(signInAs('tech2@bluelagoon.test')).resolves.toContain('session_token')
  })

  it('an owner cannot deactivate themselves or another owner', async () => {
    const me = await profileByEmail('owner@bluelagoon.test')
    const { thrown } = await settle(action(routeArgs(post(owner, { intent: 'deactivate', memberId: me?.id ?? '' }))))
    expect((thrown as { init?: { status?: number } }).init?.status).toBe(404)
    expect((await profileByEmail('owner@bluelagoon.test'))?.deactivatedAt).toBeNull()
  })
})

describe('invitation limits', () => {
  it('a company sends at most 30 invitations an hour, whatever the addresses; then 429, portal invitations too (F4)', async () => {
    const sunset = await signInAs('owner@sunsetpools.test')
    const invite = (email: string) =>
      reply(action(routeArgs(post(sunset, { intent: 'invite', role: 'tech', fullName: 'Limit Test', email }))))
    // Addresses that already have accounts elsewhere count exactly like new ones.
    const taken = ['tech@bluelagoon.test', 'admin@poolbud.test']
    for (const email of [...taken, ...Array.from({ length: 28 }, (_, i) => `limit.${i}@example.com`)]) {
      expect((await invite(email)).status, email).toBe(200)
    }
    for (const email of ['limit.over@example.com', 'office@bluelagoon.test']) {
      const over = await invite(email)
      expect(over.status, email).toBe(429)
      expect(over.body.message).toMatch(
        /^Your company has sent 30 invitations in the last hour, the most we allow\. Try again in \d+ minutes\.$/,
      )
      expect(await emailsTo(email), email).toHaveLength(0)
    }
    expect(await profileByEmail('limit.over@example.com')).toBeUndefined()

    // Portal invitations keep their own refusals but share the company's hourly allowance.
    const [wes] = await db().select().from(customers).where(eq(customers.email, 'wes.harmon@example.com'))
    const portal = await reply(
      customersAction(
        routeArgs(
          new Request(`${TEST_ORIGIN}/app/customers`, {
            method: 'POST',
            headers: { cookie: sunset, 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN },
            body: new URLSearchParams({ intent: 'invite', customerId: wes?.id ?? '' }),
          }),
        ),
      ),
    )
    expect(portal.status).toBe(429)
    expect(await emailsTo('wes.harmon@example.com')).toHaveLength(0)
  })

  it('a trial company sends at most 10 invitation emails a day (F7); a company made by a platform admin is no trial', async () => {
    await createDemoLogin(db(), { email: 'trial.sender@example.com', fullName: 'Tri Al', role: null, companyId: null })
    const [sender] = await db().select().from(user).where(eq(user.email, 'trial.sender@example.com'))
    const trial = await startTrialCompany({ userId: sender?.id ?? '', companyName: 'Spam Pools', timezone: 'UTC' })
    const cookie = await signInAs('trial.sender@example.com')
    const invite = (email: string) =>
      reply(action(routeArgs(post(cookie, { intent: 'invite', role: 'tech', fullName: 'Victim', email }))))
    for (let i = 0; i < 10; i++) expect((await invite(`spam.target.${i}@example.com`)).status).toBe(200)
    const over = await invite('spam.target.10@example.com')
    expect(over.status).toBe(429)
    expect(over.body.message).toMatch(/^A trial company can send 10 invitations a day\. Try again in \d+ hours\.$/)
    expect(await emailsTo('spam.target.10@example.com')).toHaveLength(0)
    const [company] = await db()
      .select()
      .from(companies)
      .where(eq(companies.id, trial.ok ? trial.companyId : ''))
    expect(company?.trialEndsAt).not.toBeNull()
    const [seeded] = await db().select().from(companies).where(eq(companies.id, blueLagoon))
    expect(seeded?.trialEndsAt).toBeNull()
  })
})

describe('invitation emails carry no text of the sender (F7)', () => {
  it("neither a link-like company name nor the inviter's own name reaches the email", async () => {
    await createDemoLogin(db(), { email: 'relay@example.com', fullName: 'Relay', role: null, companyId: null })
    const [sender] = await db().select().from(user).where(eq(user.email, 'relay@example.com'))
    await startTrialCompany({
      userId: sender?.id ?? '',
      companyName: 'Cheap meds at pills-now.example call 555 010 9999',
      timezone: 'UTC',
    })
    await db()
      .update(profiles)
      .set({ fullName: 'Visit https://evil.example/win now' })
      .where(eq(profiles.id, sender?.id ?? ''))
    const cookie = await signInAs('relay@example.com')
    const sent = await reply(
      action(
        routeArgs(
          post(cookie, {
            intent: 'invite',
            role: 'tech',
            fullName: 'Go to evil.example',
            email: 'relay.target@example.com',
          }),
        ),
      ),
    )
    expect(sent.status).toBe(200)
    const [mail] = await emailsTo('relay.target@example.com')
    for (const part of [mail?.subject, mail?.text, mail?.html]) {
      expect(part).not.toMatch(/pills-now|evil\.example|555 010|Visit|Cheap meds/)
    }
    expect(mail?.subject).toBe('Join a pool company on Pool Bud')
    expect(mail?.text).toContain('a pool company added you to their team on Pool Bud as Technician')
  })
})
