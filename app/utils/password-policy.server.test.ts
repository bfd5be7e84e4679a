// The password policy (F11) in every place a password is chosen: the forms (sign-up, reset, staff welcome,
// customer setup, change password in account.test.ts) and better-auth's endpoints called directly.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER, createPasswordResetLink, getAuth } from '~/auth/better-auth.server'
import { setUserPassword } from '~/auth/passwords.server'
import { profiles, user } from '~/db/schema'
import { getCustomerIdForPortalUser } from '~/models/customer.server'
import { action as customerSetupAction } from '~/routes/auth/customer-setup'
import { action as loginAction } from '~/routes/auth/login'
import { action as resetAction } from '~/routes/auth/reset-password'
import { action as welcomeAction } from '~/routes/auth/welcome'
import { formRequest, routeArgs, SAME_ORIGIN, settle, TEST_ORIGIN } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { useDemoData } from '../../tests/helpers/test-database'
import { db } from './db.server'
import { NewPasswordSchema, PASSWORD_TOO_COMMON, PASSWORD_TOO_SHORT } from './forms'
import { checkNewPassword, isCommonPassword } from './password-policy.server'

const GOOD = 'tide-pool-lantern-7'
/** 10+ characters, yet among the 10,000 most common passwords (in some letter case). */
const COMMON = ['password123', 'PASSWORD123', 'qwertyuiop', '1234567890', '9999999999', 'Strawberry', 'washington']

let ipCounter = 0
// Each form from a client address of its own, so the sign-in rate limit stays out of the way.
const post = (path: string, fields: Record<string, string>, cookie?: string) =>
  formRequest(path, fields, cookie, { ...SAME_ORIGIN, [CLIENT_IP_HEADER]: `10.44.${++ipCounter}.1` })

/** The field errors an action answered with (its `data(...)` reply), and its status. */
async function errorsOf(run: unknown) {
  const { returned, thrown } = await settle(run as Promise<unknown>)
  const value = (returned ?? thrown) as {
    data?: { result?: { error?: Record<string, string[] | null> } }
    init?: { status?: number } | null
  }
  return { status: value.init?.status ?? 200, errors: value.data?.result?.error ?? {} }
}

/** better-auth's endpoint, as a direct HTTP request to /api/auth would reach it. */
async function rawAuth(path: string, body: unknown, cookie?: string) {
  const response = await getAuth().handler(
    new Request(`${TEST_ORIGIN}/api/auth${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: TEST_ORIGIN,
        [CLIENT_IP_HEADER]: `10.45.${++ipCounter}.1`,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(body),
    }),
  )
  return { status: response.status, body: (await response.json().catch(() => null)) as { code?: string } | null }
}

async function userIdOf(email: string) {
  const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, email))
  if (!row) throw new Error(`no user ${email}`)
  return row.id
}

/** A reset token for `email`, from the link better-auth makes for the outbox worker. */
async function resetTokenFor(email: string) {
  const link = await createPasswordResetLink(email)
  const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(link?.url ?? '')?.[1]
  if (!token) throw new Error(`no reset link for ${email}`)
  return token
}

beforeAll(async () => {
  await useDemoData()
})

describe('the policy', () => {
  it('refuses the 10,000 most common passwords in any letter case, and nothing else', () => {
    for (const password of COMMON)
      expect({ password, common: isCommonPassword(password) }).toEqual({ password, common: true })
    for (const password of [GOOD, 'pooldemo123', 'Blue Lagoon 2026']) expect(isCommonPassword(password)).toBe(false)
  })

  it('says why, one reason at a time', () => {
    const messages = (value: unknown) => {
      const result = NewPasswordSchema.safeParse(value)
      return result.success ? [] : result.error.issues.map((issue) => issue.message)
    }
    expect(messages('123456789')).toEqual([PASSWORD_TOO_SHORT])
    expect(messages('password')).toEqual([PASSWORD_TOO_SHORT])
    expect(messages(undefined)).toEqual([PASSWORD_TOO_SHORT])
    expect(messages('Password123')).toEqual([PASSWORD_TOO_COMMON])
    expect(messages(GOOD)).toEqual([])
    expect(PASSWORD_TOO_SHORT).toBe('Password must be at least 10 characters.')
    expect(PASSWORD_TOO_COMMON).toBe('That password is too common. Choose one that is harder to guess.')
    expect(checkNewPassword('short-pw1')).toMatchObject({ ok: false, message: PASSWORD_TOO_SHORT })
    expect(checkNewPassword('qwertyuiop')).toMatchObject({ ok: false, message: PASSWORD_TOO_COMMON })
  })
})

describe('sign-up', () => {
  it('refuses a short or common password in the form', async () => {
    for (const [password, message] of [
      ['nine-char', PASSWORD_TOO_SHORT],
      ['password123', PASSWORD_TOO_COMMON],
    ] as const) {
      const reply = await errorsOf(
        loginAction(
          routeArgs(
            post('/login', {
              intent: 'signup',
              email: 'new-person@example.test',
              password,
              confirmPassword: password,
            }),
          ),
        ),
      )
      expect(reply).toEqual({ status: 400, errors: { password: [message] } })
    }
  })

  it('refuses them at /api/auth/sign-up/email too, and creates no account', async () => {
    expect(
      await rawAuth('/sign-up/email', { email: 'raw-short@example.test', password: 'nine-char', name: 'x' }),
    ).toMatchObject({ status: 400, body: { code: 'PASSWORD_TOO_SHORT' } })
    expect(
      await rawAuth('/sign-up/email', { email: 'raw-common@example.test', password: 'Password123', name: 'x' }),
    ).toMatchObject({ status: 400, body: { code: 'PASSWORD_TOO_COMMON', message: PASSWORD_TOO_COMMON } })
    const created = await db().select({ id: user.id }).from(user).where(eq(user.email, 'raw-common@example.test'))
    expect(created).toEqual([])
    expect(
      await rawAuth('/sign-up/email', { email: 'raw-good@example.test', password: GOOD, name: 'x' }),
    ).toMatchObject({
      status: 200,
    })
  })
})

describe('password reset', () => {
  it('refuses a short or common password in the form, and at /api/auth/reset-password; the link still works after', async () => {
    const token = await resetTokenFor('office@bluelagoon.test')
    for (const [password, message] of [
      ['nine-char', PASSWORD_TOO_SHORT],
      ['qwertyuiop', PASSWORD_TOO_COMMON],
    ] as const) {
      const reply = await errorsOf(
        resetAction(routeArgs(post('/reset-password', { token, password, confirmPassword: password }))),
      )
      expect(reply).toEqual({ status: 400, errors: { password: [message] } })
    }
    expect(await rawAuth('/reset-password', { token, newPassword: 'nine-char' })).toMatchObject({
      status: 400,
      body: { code: 'PASSWORD_TOO_SHORT' },
    })
    expect(await rawAuth('/reset-password', { token, newPassword: 'qwertyuiop' })).toMatchObject({
      status: 400,
      body: { code: 'PASSWORD_TOO_COMMON' },
    })
    // Nothing was spent: the same link sets a good password.
    expect(await rawAuth('/reset-password', { token, newPassword: GOOD })).toMatchObject({ status: 200 })
    await expect(signInAs('office@bluelagoon.test', GOOD)).resolves.toContain('session_token')
  })
})

describe('first-time setup', () => {
  it('refuses a short or common password on the staff welcome page, and saves nothing', async () => {
    const cookie = await signInAs('newtech@bluelagoon.test')
    for (const [password, message] of [
      ['nine-char', PASSWORD_TOO_SHORT],
      ['1234567890', PASSWORD_TOO_COMMON],
    ] as const) {
      const reply = await errorsOf(
        welcomeAction(
          routeArgs(post('/welcome', { fullName: 'Noah Reed', password, confirmPassword: password }, cookie)),
        ),
      )
      expect(reply).toEqual({ status: 400, errors: { password: [message] } })
    }
    const [profile] = await db()
      .select({ done: profiles.hasCompletedSetup })
      .from(profiles)
      .where(eq(profiles.id, await userIdOf('newtech@bluelagoon.test')))
    expect(profile?.done).toBe(false)
  })

  it('refuses a short or common password on the customer setup page', async () => {
    const customerUserId = await userIdOf('customer@sunsetpools.test')
    await db().update(profiles).set({ hasCompletedSetup: false }).where(eq(profiles.id, customerUserId))
    const customerId = await getCustomerIdForPortalUser(customerUserId)
    const cookie = await signInAs('customer@sunsetpools.test')
    for (const [password, message] of [
      ['nine-char', PASSWORD_TOO_SHORT],
      ['strawberry', PASSWORD_TOO_COMMON],
    ] as const) {
      const reply = await errorsOf(
        customerSetupAction(
          routeArgs(
            post(
              `/customer-setup?customerId=${customerId}`,
              { fullName: 'Marco Ruiz', address: '1 Palm Way', password, confirmPassword: password },
              cookie,
            ),
          ),
        ),
      )
      expect(reply).toEqual({ status: 400, errors: { password: [message] } })
    }
  })

  it('is applied by setUserPassword and set-password (the server-side ways around the forms), never at sign-in', async () => {
    const userId = await userIdOf('tech2@bluelagoon.test')
    await expect(setUserPassword(userId, 'qwertyuiop')).rejects.toThrow(PASSWORD_TOO_COMMON)
    await expect(setUserPassword(userId, 'nine-char')).rejects.toThrow(PASSWORD_TOO_SHORT)
    await expect(
      getAuth().api.setPassword({
        body: { newPassword: 'Password123' },
        headers: new Headers({ cookie: await signInAs('tech2@bluelagoon.test') }),
      }),
    ).rejects.toMatchObject({ body: { code: 'PASSWORD_TOO_COMMON' } })
    // Signing in never checks the policy: the demo password, and one set before the policy, keep working.
    await expect(signInAs('tech2@bluelagoon.test', 'pooldemo123')).resolves.toContain('session_token')
    const context = await getAuth().$context
    await context.internalAdapter.updatePassword(userId, await context.password.hash('qwerty12'))
    await expect(signInAs('tech2@bluelagoon.test', 'qwerty12')).resolves.toContain('session_token')
  })
})

describe('change password at /api/auth/change-password', () => {
  it('refuses a short or common new password', async () => {
    const cookie = await signInAs('owner@sunsetpools.test')
    expect(
      await rawAuth('/change-password', { currentPassword: 'pooldemo123', newPassword: 'nine-char' }, cookie),
    ).toMatchObject({ status: 400, body: { code: 'PASSWORD_TOO_SHORT' } })
    expect(
      await rawAuth('/change-password', { currentPassword: 'pooldemo123', newPassword: '1234567890' }, cookie),
    ).toMatchObject({ status: 400, body: { code: 'PASSWORD_TOO_COMMON' } })
    await expect(signInAs('owner@sunsetpools.test', 'pooldemo123')).resolves.toContain('session_token')
  })
})
