import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { getAuth } from '~/auth/better-auth.server'
import { customers, emailOutbox, profiles, user } from '~/db/schema'
import { action as setupAction, loader as setupLoader } from '~/routes/auth/customer-setup'
import { db } from '~/utils/db.server'
import { findTestCustomer } from '../../tests/helpers/customers'
import { pageRequest, routeArgs, TEST_ORIGIN } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { useDemoData } from '../../tests/helpers/test-database'
import { EMAIL_TAKEN, inviteCustomer } from './invitation.server'

let blue: string
const idOf = async (name: string) => {
  const [row] = await db()
    .select({ id: customers.id, companyId: customers.companyId })
    .from(customers)
    .where(eq(customers.customerName, name))
  if (!row) throw new Error(name)
  blue = row.companyId
  return row.id
}

/** The sign-in link of the newest email to `to`. */
async function latestLink(to: string) {
  const rows = await db().select().from(emailOutbox).where(eq(emailOutbox.to, to))
  const last = rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]
  const link = last?.text.match(/https?:\/\/\S+magic-link\/verify\S+/)?.[0]
  if (!link) throw new Error(`no invite link for ${to}`)
  return link.replace(/[)\]]+$/, '')
}

/** Opens an emailed link the way a browser would (through better-auth's handler). */
async function follow(link: string) {
  return getAuth().handler(new Request(link, { headers: { origin: TEST_ORIGIN } }))
}

beforeAll(async () => {
  await useDemoData()
  const [row] = await db()
    .select({ companyId: customers.companyId })
    .from(customers)
    .where(eq(customers.customerName, 'Dana Whitfield'))
  blue = row?.companyId ?? ''
})

describe('inviteCustomer', () => {
  it('creates a pending portal login and emails a link that signs in once', async () => {
    const marcus = await idOf('Marcus Bell')
    const result = await inviteCustomer({ companyId: blue, customerId: marcus })
    expect(result).toEqual({ ok: true, message: 'Portal invite sent to marcus.bell@example.com.' })
    const [login] = await db()
      .select({ id: user.id, role: profiles.role, companyId: profiles.companyId, done: profiles.hasCompletedSetup })
      .from(user)
      .innerJoin(profiles, eq(profiles.id, user.id))
      .where(eq(user.email, 'marcus.bell@example.com'))
    expect(login).toMatchObject({ role: 'customer', companyId: blue, done: false })
    const [row] = await db().select().from(customers).where(eq(customers.id, marcus))
    expect(row?.portalUserId).toBe(login?.id)

    const link = await latestLink('marcus.bell@example.com')
    const first = await follow(link)
    expect(first).toHaveRedirect(`${TEST_ORIGIN}/customer-setup?customerId=${marcus}`)
    expect(first.headers.getSetCookie().join(';')).toContain('session_token')
    const second = await follow(link)
    expect(second.headers.get('location')).toContain('/login?invite=invalid')
  })

  it('finishes /customer-setup and then logs in with the new password', async () => {
    const marcus = await idOf('Marcus Bell')
    await inviteCustomer({ companyId: blue, customerId: marcus })
    const response = await follow(await latestLink('marcus.bell@example.com'))
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const page = await setupLoader({
      request: pageRequest(`/customer-setup?customerId=${marcus}`, cookie),
      params: {},
      context: {},
    } as never)
    expect(page).toMatchObject({ state: 'form', defaults: { fullName: 'Marcus Bell' } })
    const other = await idOf('Dana Whitfield')
    expect(
      await setupLoader({
        request: pageRequest(`/customer-setup?customerId=${other}`, cookie),
        params: {},
        context: {},
      } as never),
    ).toEqual({ state: 'not-found' })
    expect(await setupLoader(routeArgs(pageRequest('/customer-setup', cookie)))).toEqual({
      state: 'missing-id',
    })

    const post = (fields: Record<string, string>) =>
      setupAction({
        request: new Request(`${TEST_ORIGIN}/customer-setup?customerId=${marcus}`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields),
        }),
        params: {},
        context: {},
      } as never)
    const base = { fullName: 'Marcus Bell', phone: '', address: '12 Palm Ave, Tampa, FL' }
    const missing = (await post({ ...base, password: '', confirmPassword: '' })) as {
      data: { result: { error: Record<string, string[]> } }
    }
    expect(missing.data.result.error.password).toEqual(['Please choose a password so you can log in later.'])
    const mismatch = (await post({ ...base, password: 'swimming-pool', confirmPassword: 'swimming-poo1' })) as {
      data: { result: { error: Record<string, string[]> } }
    }
    expect(mismatch.data.result.error.confirmPassword).toEqual(['Passwords do not match.'])
    const done = (await post({ ...base, password: 'swimming-pool', confirmPassword: 'swimming-pool' })) as {
      done: string
    }
    expect(done.done).toBe(`/customer/${marcus}`)
    // The service address confirmed at setup is the customer's (first) service location's.
    const [row] = await db().select().from(customers).where(eq(customers.id, marcus))
    expect(row).toMatchObject({ phone: null })
    expect((await findTestCustomer('Marcus Bell')).address).toBe('12 Palm Ave, Tampa, FL')
    await expect(signInAs('marcus.bell@example.com', 'swimming-pool')).resolves.toContain('session_token')
    // Setup never runs twice: a finished customer posting it again goes to the portal, nothing changes.
    const again = await post({
      ...base,
      address: 'Somewhere else',
      password: 'another-pass',
      confirmPassword: 'another-pass',
    }).catch((thrown: Response) => thrown)
    expect((again as Response).headers.get('location')).toBe(`/customer/${marcus}`)
    expect((await findTestCustomer('Marcus Bell')).address).toBe('12 Palm Ave, Tampa, FL')
    // Active now: a second invite is refused rather than resetting anything.
    expect(await inviteCustomer({ companyId: blue, customerId: marcus })).toEqual({
      ok: false,
      code: 'invalid',
      message: 'This customer already has portal access.',
    })
  })

  it("refuses an email of staff or another company's customer, and leaves that account alone", async () => {
    const priya = await idOf('Priya Raman')
    for (const email of ['office@bluelagoon.test', 'customer@sunsetpools.test', 'admin@poolbud.test']) {
      await db().update(customers).set({ email }).where(eq(customers.id, priya))
      expect(await inviteCustomer({ companyId: blue, customerId: priya })).toEqual({
        ok: false,
        code: 'invalid',
        message: EMAIL_TAKEN,
      })
    }
    const [office] = await db().select().from(profiles).where(eq(profiles.email, 'office@bluelagoon.test'))
    expect(office).toMatchObject({ role: 'admin', companyId: blue })
    const [row] = await db().select().from(customers).where(eq(customers.id, priya))
    expect(row?.portalUserId).toBeNull()
  })

  it("cannot invite another company's customer, or one without an email", async () => {
    const marco = await idOf('Marco Ruiz')
    const tom = await idOf('Tom Okafor')
    expect(await inviteCustomer({ companyId: blue, customerId: marco })).toEqual({
      ok: false,
      code: 'not-found',
      message: 'Customer not found.',
    })
    expect(await inviteCustomer({ companyId: blue, customerId: tom })).toEqual({
      ok: false,
      code: 'invalid',
      message: 'Add an email address to this customer first.',
    })
  })

  it('cannot be requested by a visitor: the public magic-link endpoint is disabled', async () => {
    const response = await getAuth().handler(
      new Request(`${TEST_ORIGIN}/api/auth/sign-in/magic-link`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
        body: JSON.stringify({ email: 'dispatch@bluelagoon.test', callbackURL: '/app' }),
      }),
    )
    expect(response.status).toBe(404)
    const sent = await db().select().from(emailOutbox).where(eq(emailOutbox.to, 'dispatch@bluelagoon.test'))
    expect(sent).toHaveLength(0)
  })

  it('sends at most a few invitations to one address per hour', async () => {
    const jamal = await idOf('Jamal Price')
    const results = []
    for (let i = 0; i < 4; i++) results.push(await inviteCustomer({ companyId: blue, customerId: jamal }))
    expect(results.slice(0, 3).every((r) => r.ok)).toBe(true)
    expect(results[3]).toEqual({
      ok: false,
      code: 'rate-limited',
      message: 'Several invitations went to this address in the last hour. Try again later.',
    })
  })
})
