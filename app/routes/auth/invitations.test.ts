// Existing accounts invited to a company (security review F3 and F14, decision 011): nothing changes for them
// until they sign in and accept on /invitations.
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER } from '~/auth/better-auth.server'
import { companies, customers, invitations, profiles, user } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { inviteOwner } from '~/models/owner-invitation.server'
import { startTrialCompany } from '~/models/trial.server'
import { action as teamAction } from '~/routes/app/team'
import { action as loginAction } from '~/routes/auth/login'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../../tests/helpers/customers'
import { clientIp, emailsTo } from '../../../tests/helpers/links'
import { formRequest, pageRequest, routeArgs, SAME_ORIGIN, settle, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './invitations'

const post = (cookie: string, path: string, fields: Record<string, string>) =>
  formRequest(path, fields, cookie, SAME_ORIGIN)

async function outcome(promise: unknown) {
  const { returned, thrown } = await settle(promise as Promise<unknown>)
  const value = (returned ?? thrown) as { data?: unknown; init?: { status?: number } | null; status?: number }
  const location = value instanceof Response ? value.headers.get('Location') : null
  return { status: value?.init?.status ?? value?.status ?? 200, body: value?.data ?? returned, location }
}

async function profileOf(email: string) {
  const [row] = await db()
    .select({ id: user.id, role: profiles.role, companyId: profiles.companyId, done: profiles.hasCompletedSetup })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.email, email))
  return row
}

/** Where the login form sends this person (the home of someone with nothing else to go to). */
async function landingAfterLogin(email: string) {
  const request = new Request(`${TEST_ORIGIN}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', [CLIENT_IP_HEADER]: clientIp() },
    body: new URLSearchParams({ intent: 'login', email, password: 'pooldemo123' }),
  })
  return (await outcome(loginAction(routeArgs(request)))).location
}

let blue: string
let blueOwner: string
let sunsetOwner: string

async function inviteAs(cookie: string, email: string, role = 'tech') {
  return outcome(
    teamAction(routeArgs(post(cookie, '/app/team', { intent: 'invite', role, fullName: 'Invited One', email }))),
  )
}

beforeAll(async () => {
  await useDemoData()
  blue = (await profileOf('owner@bluelagoon.test'))?.companyId as string
  blueOwner = await signInAs('owner@bluelagoon.test')
  sunsetOwner = await signInAs('owner@sunsetpools.test')
})

describe('a verified account with no company (F14)', () => {
  it('is invited with the same answer as a new address, and nothing changes until it accepts', async () => {
    await createDemoLogin(db(), { email: 'solo@example.com', fullName: 'Sol Solo', role: null, companyId: null })
    const before = await profileOf('solo@example.com')
    const fresh = await inviteAs(blueOwner, 'someone.new@example.com')
    const invited = await inviteAs(blueOwner, 'solo@example.com')
    expect(invited).toEqual(fresh)
    expect(await profileOf('solo@example.com')).toEqual(before)
    // Their email asks them to sign in and decide; it carries no sign-in link.
    const [mail] = await emailsTo('solo@example.com')
    expect(mail?.subject).toBe('Blue Lagoon Pool Co. invited you to join them on Pool Bud')
    expect(mail?.text).toContain(`${TEST_ORIGIN}/invitations`)
    expect(mail?.text).not.toContain('magic-link')

    // After signing in, they land on the invitation.
    expect(await landingAfterLogin('solo@example.com')).toBe('/invitations')
    const cookie = await signInAs('solo@example.com')
    const page = (await loader(routeArgs(pageRequest('/invitations', cookie)))) as {
      invitations: Array<{ id: string; companyName: string; roleLabel: string; invitedBy: string | null }>
      trialCompanyName: string | null
    }
    expect(page.invitations).toEqual([
      {
        id: expect.any(String),
        companyName: 'Blue Lagoon Pool Co.',
        roleLabel: 'Technician',
        invitedBy: 'Olivia Marsh',
      },
    ])
    expect(page.trialCompanyName).toBeNull()

    // Declining changes nothing else; with nothing left to decide, the page sends them home.
    const declined = await outcome(
      action(
        routeArgs(post(cookie, '/invitations', { intent: 'decline', invitationId: page.invitations[0]?.id ?? '' })),
      ),
    )
    expect(declined.body).toEqual({ error: null, notice: 'Invitation declined.' })
    expect(await profileOf('solo@example.com')).toEqual(before)
    expect((await outcome(loader(routeArgs(pageRequest('/invitations', cookie))))).location).toBe('/app')

    // Invited again (now as dispatcher), they accept: a member with that role, signing in with their own password.
    await inviteAs(blueOwner, 'solo@example.com', 'dispatcher')
    const [again] = await db()
      .select()
      .from(invitations)
      .where(eq(invitations.userId, before?.id ?? ''))
    const accepted = await outcome(
      action(routeArgs(post(cookie, '/invitations', { intent: 'accept', invitationId: again?.id ?? '' }))),
    )
    expect(accepted.location).toBe('/app')
    expect(await profileOf('solo@example.com')).toMatchObject({ role: 'dispatcher', companyId: blue, done: true })
    expect(
      await db()
        .select()
        .from(invitations)
        .where(eq(invitations.userId, before?.id ?? '')),
    ).toEqual([])
    await expect(signInAs('solo@example.com')).resolves.toContain('session_token')
  })

  it('accepts one of two invitations: the other closes, and nobody accepts for someone else', async () => {
    await createDemoLogin(db(), { email: 'wanted@example.com', fullName: 'Wan Ted', role: null, companyId: null })
    await createDemoLogin(db(), { email: 'bystander@example.com', fullName: 'By Stander', role: null, companyId: null })
    await inviteAs(blueOwner, 'wanted@example.com')
    await inviteAs(sunsetOwner, 'wanted@example.com')
    const wanted = await profileOf('wanted@example.com')
    const offers = await db()
      .select()
      .from(invitations)
      .where(eq(invitations.userId, wanted?.id ?? ''))
    expect(offers).toHaveLength(2)
    const sunsetOffer = offers.find((offer) => offer.companyId !== blue)

    // Someone else's invitation id is not theirs to accept.
    const bystander = await signInAs('bystander@example.com')
    await inviteAs(blueOwner, 'bystander@example.com')
    const stolen = await outcome(
      action(routeArgs(post(bystander, '/invitations', { intent: 'accept', invitationId: sunsetOffer?.id ?? '' }))),
    )
    expect(stolen.status).toBe(404)
    expect((await profileOf('bystander@example.com'))?.role).toBeNull()
    // A decision that names no invitation, or is neither accept nor decline, is refused before anything is read.
    const malformed: Record<string, string>[] = [
      { intent: 'accept' },
      { intent: 'join', invitationId: sunsetOffer?.id ?? '' },
    ]
    for (const fields of malformed) {
      const refused = await outcome(action(routeArgs(post(bystander, '/invitations', fields))))
      expect(refused, fields.intent).toMatchObject({
        status: 400,
        body: { error: 'Choose an invitation to accept or decline.', notice: null },
      })
    }

    const cookie = await signInAs('wanted@example.com')
    const accepted = await outcome(
      action(routeArgs(post(cookie, '/invitations', { intent: 'accept', invitationId: sunsetOffer?.id ?? '' }))),
    )
    expect(accepted.location).toBe('/app')
    expect(await profileOf('wanted@example.com')).toMatchObject({ role: 'tech', companyId: sunsetOffer?.companyId })
    expect(
      await db()
        .select()
        .from(invitations)
        .where(eq(invitations.userId, wanted?.id ?? '')),
    ).toEqual([])
    // A member now: the page (and any other company's invitation) is no longer for them.
    expect((await outcome(loader(routeArgs(pageRequest('/invitations', cookie))))).location).toBe('/app')
  })

  it('an owner invitation makes them the owner once accepted, and the previous owner an admin', async () => {
    await createDemoLogin(db(), { email: 'future.owner@example.com', fullName: 'Fu Ture', role: null, companyId: null })
    const [admin] = await db()
      .select({ id: profiles.id })
      .from(profiles)
      .where(eq(profiles.email, 'admin@poolbud.test'))
    const created = await inviteOwner({
      mode: 'new',
      companyName: 'Handover Pools',
      owner: { fullName: 'First Owner', email: 'first.owner@example.com', phone: null },
      invitedBy: admin?.id ?? '',
    })
    const companyId = created.ok ? created.companyId : ''
    const offered = await inviteOwner({
      mode: 'existing',
      companyId,
      owner: { fullName: 'Fu Ture', email: 'future.owner@example.com', phone: null },
      invitedBy: admin?.id ?? '',
    })
    expect(offered).toMatchObject({ ok: true, message: expect.stringContaining('once they sign in and accept') })
    expect((await profileOf('first.owner@example.com'))?.role).toBe('owner')
    const cookie = await signInAs('future.owner@example.com')
    const page = (await loader(routeArgs(pageRequest('/invitations', cookie)))) as {
      invitations: Array<{ id: string; roleLabel: string; invitedBy: string | null }>
    }
    expect(page.invitations[0]).toMatchObject({ roleLabel: 'Owner', invitedBy: 'Pat Admin' })
    await outcome(
      action(
        routeArgs(post(cookie, '/invitations', { intent: 'accept', invitationId: page.invitations[0]?.id ?? '' })),
      ),
    )
    expect(await profileOf('future.owner@example.com')).toMatchObject({ role: 'owner', companyId })
    expect((await profileOf('first.owner@example.com'))?.role).toBe('admin')
  })
})

describe('someone whose only company is a trial of their own (F14, decision 011)', () => {
  it('can accept; the trial company keeps its data, without members, and its own invitations close', async () => {
    await createDemoLogin(db(), { email: 'trier@example.com', fullName: 'Tri Er', role: null, companyId: null })
    await createDemoLogin(db(), { email: 'trier.friend@example.com', fullName: 'Fri End', role: null, companyId: null })
    const trier = await profileOf('trier@example.com')
    const trial = await startTrialCompany({ userId: trier?.id ?? '', companyName: 'Trier Pools', timezone: 'UTC' })
    const trialId = trial.ok ? trial.companyId : ''
    await addTestCustomer(trialId, { customerName: 'Test Customer', address: '1 Test St' })
    const trierCookie = await signInAs('trier@example.com')
    // The trial invited someone with an account too (an invitation, not a member).
    await inviteAs(trierCookie, 'trier.friend@example.com')

    await inviteAs(blueOwner, 'trier@example.com')
    expect(await landingAfterLogin('trier@example.com')).toBe('/invitations')
    const page = (await loader(routeArgs(pageRequest('/invitations', trierCookie)))) as {
      invitations: Array<{ id: string }>
      trialCompanyName: string | null
    }
    expect(page.trialCompanyName).toBe('Trier Pools')
    const accepted = await outcome(
      action(
        routeArgs(post(trierCookie, '/invitations', { intent: 'accept', invitationId: page.invitations[0]?.id ?? '' })),
      ),
    )
    expect(accepted.location).toBe('/app')
    expect(await profileOf('trier@example.com')).toMatchObject({ role: 'tech', companyId: blue })

    const [company] = await db().select().from(companies).where(eq(companies.id, trialId))
    expect(company?.name).toBe('Trier Pools')
    expect(await db().select().from(customers).where(eq(customers.companyId, trialId))).toHaveLength(1)
    const [members] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(profiles)
      .where(eq(profiles.companyId, trialId))
    expect(members?.n).toBe(0)
    expect(await db().select().from(invitations).where(eq(invitations.companyId, trialId))).toEqual([])
  })

  it('is not abandoned once someone else is in it: that owner is told nothing and changes nowhere', async () => {
    await createDemoLogin(db(), { email: 'busy.trial@example.com', fullName: 'Bu Sy', role: null, companyId: null })
    const busy = await profileOf('busy.trial@example.com')
    await startTrialCompany({ userId: busy?.id ?? '', companyName: 'Busy Pools', timezone: 'UTC' })
    // A teammate invited to the trial (pending) makes it a company with people in it.
    await inviteAs(await signInAs('busy.trial@example.com'), 'busy.teammate@example.com')
    const before = await profileOf('busy.trial@example.com')

    expect((await inviteAs(blueOwner, 'busy.trial@example.com')).status).toBe(200)
    expect(await profileOf('busy.trial@example.com')).toEqual(before)
    expect(
      await db()
        .select()
        .from(invitations)
        .where(and(eq(invitations.userId, busy?.id ?? ''))),
    ).toEqual([])
    const [notice] = await emailsTo('busy.trial@example.com')
    expect(notice?.subject).toBe('Blue Lagoon Pool Co. tried to invite you to Pool Bud')
  })
})
