import { randomBytes } from 'node:crypto'
import { and, eq, gte } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { CLIENT_IP_HEADER, callAuthEndpoint, getAuth } from '~/auth/better-auth.server'
import { getSessionUser } from '~/auth/guards.server'
import { emailOutbox, profiles, user } from '~/db/schema'
import { db } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import { formRequest, pageRequest, routeArgs, SAME_ORIGIN, settle, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import AccountPage, { action, loader } from './account'

let ipCounter = 0
/** Each post comes from its own client address unless a test pins one (the rate limit is per address). */
const post = (cookie: string, fields: Record<string, string>, ip = `10.77.${++ipCounter}.1`) =>
  formRequest('/app/account', fields, cookie, { ...SAME_ORIGIN, [CLIENT_IP_HEADER]: ip })

type Reply = {
  notice: string | null
  pendingEmail: string | null
  result: { error?: Record<string, string[] | null> }
}

async function save(cookie: string, fields: Record<string, string>, ip?: string) {
  const value = (await action(routeArgs(post(cookie, fields, ip)))) as unknown as {
    data: Reply
    init: { status?: number } | null
  }
  return { ...value.data, status: value.init?.status ?? 200, errors: value.data.result.error ?? {} }
}

function details(email: string, extra: Record<string, string> = {}) {
  return { fullName: 'Dana Dispatch', email, phone: '555-0100', country: 'USA', ...extra }
}

/** Emails queued to `to` since `since`, oldest first. */
async function outboxTo(to: string, since: Date) {
  return db()
    .select({ to: emailOutbox.to, subject: emailOutbox.subject, text: emailOutbox.text })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, to), gte(emailOutbox.createdAt, since)))
    .orderBy(emailOutbox.createdAt)
}

async function canSignIn(email: string) {
  const request = new Request(`${TEST_ORIGIN}/login`, { headers: { [CLIENT_IP_HEADER]: `10.78.${++ipCounter}.1` } })
  const result = await callAuthEndpoint(request, '/sign-in/email', { email, password: 'pooldemo123' })
  return result.ok
}

async function emailsOf(userId: string) {
  const [row] = await db()
    .select({ signIn: user.email, profile: profiles.email, phone: profiles.phone })
    .from(user)
    .innerJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.id, userId))
  return row
}

async function userIdOf(email: string) {
  const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, email))
  if (!row) throw new Error(`no user ${email}`)
  return row.id
}

/** Opens an emailed link as a browser holding `cookie` would; returns where it redirects. */
async function follow(link: string, cookie?: string) {
  const response = await getAuth().handler(new Request(link, { headers: cookie ? { cookie } : {} }))
  expect(response.status).toBe(302)
  return new URL(response.headers.get('location') ?? '', TEST_ORIGIN)
}

function linkIn(text: string) {
  const link = text.match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)?.[0]
  if (!link) throw new Error(`no verification link in:\n${text}`)
  return link
}

const unique = () => randomBytes(4).toString('hex')

beforeAll(async () => {
  await useDemoData()
})

afterEach(() => {
  vi.useRealTimers()
})

/** Where the page sends a link's landing (`path`), and the message it leaves for that page. */
async function landingOutcome(path: string, cookie: string) {
  const { thrown } = await settle(loader(routeArgs(pageRequest(path, cookie))))
  const response = thrown as Response
  const flashCookie = response.headers.getSetCookie().map((c) => c.split(';')[0])
  const { flash } = await takeFlash(pageRequest('/app/account', flashCookie.join('; ')))
  return { location: response.headers.get('Location'), flash: flash && { tone: flash.tone, text: flash.text } }
}

// First: the tests below change these logins' emails and passwords.
describe('the account page', () => {
  /** The page's HTML as `email` sees it, rendered inside a router as React Router would. */
  async function pageOf(email: string) {
    const loaderData = await loader(routeArgs(pageRequest('/app/account', await signInAs(email))))
    const router = createMemoryRouter(
      [{ path: '/app/account', element: createElement(AccountPage, { loaderData, params: {}, matches: [] } as never) }],
      { initialEntries: ['/app/account'] },
    )
    return renderToString(createElement(RouterProvider, { router })).replaceAll('<!-- -->', '')
  }

  it("shows a technician the profile, the calendar feed and the password forms, filled with the profile's details", async () => {
    const html = await pageOf('tech@bluelagoon.test')
    for (const text of ['My Account', 'Full name', 'Address line 1', 'State / Province', 'Country', 'Save changes']) {
      expect(html).toContain(text)
    }
    expect(html).toContain('value="tech@bluelagoon.test"')
    expect(html).toContain('Calendar feed')
    expect(html).toContain('Create calendar link')
    expect(html).toContain('Current password')
    expect(html).toContain('Confirm new password')
  })

  it('shows the office no calendar feed', async () => {
    const html = await pageOf('office@bluelagoon.test')
    expect(html).toContain('Change password')
    expect(html).not.toContain('Calendar feed')
  })
})

describe('changing the sign-in email', () => {
  it('mails a link to the new address, tells the old one, and changes nothing until the link is followed', async () => {
    const oldEmail = 'dispatch@bluelagoon.test'
    const newEmail = `dana.${unique()}@example.com`
    const userId = await userIdOf(oldEmail)
    const cookie = await signInAs(oldEmail)
    const since = new Date(Date.now() - 1000)

    const reply = await save(cookie, details(` ${newEmail.toUpperCase()} `, { phone: '555-0199' }))
    expect(reply).toMatchObject({ status: 200, notice: 'Profile updated.', pendingEmail: newEmail, errors: {} })

    // The new address gets the one working link; the old address a notice without any link.
    const [confirmation, ...moreToNew] = await outboxTo(newEmail, since)
    expect(moreToNew).toEqual([])
    expect(confirmation?.subject).toBe('Confirm your new Pool Bud email address')
    const link = linkIn(confirmation?.text ?? '')
    expect(link.startsWith(`${TEST_ORIGIN}/api/auth/verify-email?token=`)).toBe(true)
    const notices = await outboxTo(oldEmail, since)
    expect(notices.map((email) => email.subject)).toEqual(['Your Pool Bud sign-in email is about to change'])
    expect(notices[0]?.text).toContain(newEmail)
    expect(notices[0]?.text).not.toMatch(/verify-email|token=/)

    // Until the link is followed: the other details are saved, the sign-in email is not.
    expect(await emailsOf(userId)).toEqual({ signIn: oldEmail, profile: oldEmail, phone: '555-0199' })
    expect(await canSignIn(oldEmail)).toBe(true)
    expect(await canSignIn(newEmail)).toBe(false)

    const landing = await follow(link, cookie)
    expect(`${landing.pathname}${landing.search}`).toBe('/app/account?email=updated')
    expect(await emailsOf(userId)).toEqual({ signIn: newEmail, profile: newEmail, phone: '555-0199' })
    expect(await canSignIn(newEmail)).toBe(true)
    expect(await canSignIn(oldEmail)).toBe(false)
    // The landing says so once, on the page without the link's parameters, which shows the new address to the
    // same, still signed-in browser.
    expect(await landingOutcome('/app/account?email=updated', cookie)).toEqual({
      location: '/app/account',
      flash: { tone: 'success', text: `Email updated. You now log in with ${newEmail}.` },
    })
    const page = (await loader(routeArgs(pageRequest('/app/account', cookie)))) as { profile: { email: string } | null }
    expect(page.profile?.email).toBe(newEmail)

    // The link works once.
    const again = await follow(link, cookie)
    expect(again.searchParams.get('error')).toBe('INVALID_TOKEN')
    expect((await emailsOf(userId))?.signIn).toBe(newEmail)
  })

  it('works when the link is opened in a browser that is not signed in', async () => {
    const oldEmail = 'tech@bluelagoon.test'
    const newEmail = `tech.${unique()}@example.com`
    const since = new Date(Date.now() - 1000)
    expect((await save(await signInAs(oldEmail), details(newEmail))).pendingEmail).toBe(newEmail)
    const [confirmation] = await outboxTo(newEmail, since)
    const landing = await follow(linkIn(confirmation?.text ?? ''))
    expect(landing.searchParams.get('error')).toBeNull()
    expect(await canSignIn(newEmail)).toBe(true)
  })

  it('refuses an expired link and keeps the old email', async () => {
    const oldEmail = 'office@bluelagoon.test'
    const newEmail = `office.${unique()}@example.com`
    const since = new Date(Date.now() - 1000)
    await save(await signInAs(oldEmail), details(newEmail))
    const [confirmation] = await outboxTo(newEmail, since)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 25 * 60 * 60 * 1000)
    const landing = await follow(linkIn(confirmation?.text ?? ''))
    vi.useRealTimers()
    expect(`${landing.pathname}`).toBe('/app/account')
    expect(landing.searchParams.get('error')).toBe('TOKEN_EXPIRED')
    expect(await canSignIn(oldEmail)).toBe(true)
    expect(await canSignIn(newEmail)).toBe(false)
  })

  it('says so, and keeps the old email, when someone took the address before the link was followed', async () => {
    const oldEmail = 'tech2@bluelagoon.test'
    const newEmail = `maya.${unique()}@example.com`
    const userId = await userIdOf(oldEmail)
    const since = new Date(Date.now() - 1000)
    expect((await save(await signInAs(oldEmail), details(newEmail))).pendingEmail).toBe(newEmail)
    const [confirmation] = await outboxTo(newEmail, since)
    // Someone signs up with that address in the meantime.
    const signUp = await callAuthEndpoint(
      new Request(`${TEST_ORIGIN}/login`, { headers: { [CLIENT_IP_HEADER]: '10.80.0.1' } }),
      '/sign-up/email',
      { email: newEmail, password: 'another-person-1', name: 'Someone else' },
    )
    expect(signUp.ok).toBe(true)
    const landing = await follow(linkIn(confirmation?.text ?? ''))
    expect(`${landing.pathname}${landing.search}`).toBe('/app/account?email=updated&error=EMAIL_TAKEN')
    expect(await landingOutcome(`${landing.pathname}${landing.search}`, await signInAs(oldEmail))).toEqual({
      location: '/app/account',
      flash: {
        tone: 'error',
        text: `Someone else has started using that address since you asked for it, so you still log in with ${oldEmail}.`,
      },
    })
    expect((await emailsOf(userId))?.signIn).toBe(oldEmail)
    expect((await emailsOf(userId))?.profile).toBe(oldEmail)
  })

  it("refuses another user's email with a clear message, saves nothing and sends nothing", async () => {
    const ownEmail = 'owner@sunsetpools.test'
    const userId = await userIdOf(ownEmail)
    const before = await emailsOf(userId)
    const since = new Date(Date.now() - 1000)
    const cookie = await signInAs(ownEmail)
    for (const taken of ['owner@bluelagoon.test', 'ADMIN@poolbud.test']) {
      const reply = await save(cookie, details(taken, { phone: '555-0666' }))
      expect(reply.status).toBe(400)
      expect(reply.notice).toBeNull()
      expect(reply.errors.email).toEqual([
        'That email already belongs to another Pool Bud account. Use a different email address.',
      ])
      expect(await outboxTo(taken.toLowerCase(), since)).toEqual([])
    }
    expect(await outboxTo(ownEmail, since)).toEqual([])
    expect(await emailsOf(userId)).toEqual(before)
    expect(await canSignIn('owner@bluelagoon.test')).toBe(true)
  })

  it('saves the other details without any email when the address is unchanged', async () => {
    const email = 'owner@bluelagoon.test'
    const since = new Date(Date.now() - 1000)
    const reply = await save(await signInAs(email), details('Owner@BlueLagoon.test', { city: 'Tampa' }))
    expect(reply).toMatchObject({ status: 200, notice: 'Profile updated.', pendingEmail: null })
    expect(await outboxTo(email, since)).toEqual([])
  })

  it("answers a blank email with 'Email is required.'", async () => {
    const reply = await save(await signInAs('owner@bluelagoon.test'), details(''))
    expect(reply.status).toBe(400)
    expect(reply.errors.email).toEqual(['Email is required.'])
  })

  it('is rate-limited per client like the other auth endpoints', async () => {
    const staff = await signInAs('tech@sunsetpools.test')
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      statuses.push((await save(staff, details(`flood.${unique()}@example.com`), '10.79.0.1')).status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    const limited = await save(staff, details(`flood.${unique()}@example.com`), '10.79.0.1')
    expect(limited.errors['']).toEqual(['Too many attempts. Wait a minute, then try again.'])
    // Another client is not affected.
    expect((await save(staff, details(`calm.${unique()}@example.com`), '10.79.0.2')).status).toBe(200)
  })
})

describe('account page access', () => {
  it('sends visitors to log in and keeps the landing address', async () => {
    const result = await settle(loader(routeArgs(pageRequest('/app/account?email=updated'))))
    expect(result.thrown).toHaveRedirect(`/login?redirectTo=${encodeURIComponent('/app/account?email=updated')}`)
  })
})

type PasswordReply = { status: number; notice: string | null; errors: Record<string, string[] | null>; cookie: string }

/** Posts the "Change password" form as the browser holding `cookie`; `cookie` of the answer is the new session. */
async function changePassword(cookie: string, fields: Record<string, string>): Promise<PasswordReply> {
  const value = (await action(routeArgs(post(cookie, { intent: 'change-password', ...fields })))) as unknown as {
    data: Reply
    init: { status?: number; headers?: HeadersInit } | null
  }
  const setCookies = new Headers(value.init?.headers).getSetCookie()
  return {
    status: value.init?.status ?? 200,
    notice: value.data.notice,
    errors: value.data.result.error ?? {},
    cookie: setCookies.map((header) => header.split(';')[0]).join('; '),
  }
}

async function signedIn(cookie: string) {
  return (await getSessionUser(pageRequest('/app/account', cookie))) !== null
}

const fields = (currentPassword: string, password: string, confirmPassword = password) => ({
  currentPassword,
  password,
  confirmPassword,
})

describe('changing the password', () => {
  it('ends every other session, keeps this browser signed in, and says so', async () => {
    const email = 'admin@poolbud.test'
    const phone = await signInAs(email)
    const laptop = await signInAs(email)
    const reply = await changePassword(laptop, fields('pooldemo123', 'harbour-lights-42'))
    expect(reply).toMatchObject({
      status: 200,
      notice: 'Password changed. You were signed out on every other device.',
      errors: {},
    })
    expect(reply.cookie).toContain('session_token=')
    expect(await signedIn(phone)).toBe(false)
    expect(await signedIn(laptop)).toBe(false)
    expect(await signedIn(reply.cookie)).toBe(true)
    await expect(signInAs(email)).rejects.toThrow(/Invalid email or password/)
    await expect(signInAs(email, 'harbour-lights-42')).resolves.toContain('session_token')
  })

  it('refuses a wrong current password with a clear message, and changes nothing', async () => {
    const email = 'office@bluelagoon.test'
    const other = await signInAs(email)
    const reply = await changePassword(await signInAs(email), fields('not-my-password', 'harbour-lights-43'))
    expect(reply).toMatchObject({
      status: 400,
      notice: null,
      errors: { currentPassword: ['That is not your current password.'] },
      cookie: '',
    })
    expect(await signedIn(other)).toBe(true)
    await expect(signInAs(email)).resolves.toContain('session_token')
  })

  it('applies the password policy and asks for the current password and the confirmation', async () => {
    const cookie = await signInAs('owner@bluelagoon.test')
    const cases: Array<[Record<string, string>, Record<string, string[]>]> = [
      [fields('pooldemo123', 'nine-char'), { password: ['Password must be at least 10 characters.'] }],
      [
        fields('pooldemo123', 'qwertyuiop'),
        { password: ['That password is too common. Choose one that is harder to guess.'] },
      ],
      [
        fields('pooldemo123', 'harbour-lights-44', 'harbour-lights-45'),
        { confirmPassword: ['Passwords do not match.'] },
      ],
      [fields('', 'harbour-lights-44'), { currentPassword: ['Enter your current password.'] }],
    ]
    for (const [form, errors] of cases) {
      const reply = await changePassword(cookie, form)
      expect(reply).toMatchObject({ status: 400, notice: null, errors })
    }
    await expect(signInAs('owner@bluelagoon.test')).resolves.toContain('session_token')
  })

  it("counts wrong current passwords toward the account's sign-in lock", async () => {
    const email = 'tech@sunsetpools.test'
    const cookie = await signInAs(email)
    const statuses = []
    for (let i = 0; i < 5; i++)
      statuses.push((await changePassword(cookie, fields(`guess-${i}`, 'harbour-lights-46'))).status)
    expect(statuses).toEqual([400, 400, 400, 400, 400])
    const locked = await changePassword(cookie, fields('pooldemo123', 'harbour-lights-46'))
    expect(locked.status).toBe(429)
    expect(locked.errors['']).toEqual([
      expect.stringMatching(
        /^Too many failed sign-ins for this account\. Wait 1[45] minutes or reset your password\.$/,
      ),
    ])
    await expect(signInAs(email)).rejects.toThrow(/Too many failed sign-ins/)
  })
})
