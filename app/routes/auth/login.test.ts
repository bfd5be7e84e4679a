import { beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER, getAuth } from '~/auth/better-auth.server'
import { AuthSchema, SignupSchema } from '~/features/auth/login-schema'
import { takeFlash } from '~/utils/flash.server'
import { SIGN_IN_LOCKED } from '~/utils/sign-in-limits.server'
import { pageRequest, routeArgs, settle, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './login'

function loginRequest(fields: Record<string, string>, ip: string) {
  return new Request(`${TEST_ORIGIN}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', [CLIENT_IP_HEADER]: ip, origin: TEST_ORIGIN },
    body: new URLSearchParams(fields),
  })
}

async function attempt(fields: Record<string, string>, ip: string) {
  try {
    const result = (await action(routeArgs(loginRequest(fields, ip)))) as {
      data: { result: { error?: Record<string, string[]> } }
      init: { status: number }
    }
    return { status: result.init.status, errors: result.data.result.error?.[''] ?? [], location: null }
  } catch (thrown) {
    const response = thrown as Response
    return { status: response.status, errors: [], location: response.headers.get('location') }
  }
}

beforeAll(async () => {
  await useDemoData()
})

describe('login action', () => {
  it('signs in and goes to the page asked for, but never off-site', async () => {
    const ok = await attempt(
      { intent: 'login', email: ' Dispatch@BlueLagoon.test ', password: 'pooldemo123', redirectTo: '/app/account' },
      '10.1.0.1',
    )
    expect(ok).toMatchObject({ status: 302, location: '/app/account' })
    const offSite = await attempt(
      { intent: 'login', email: 'dispatch@bluelagoon.test', password: 'pooldemo123', redirectTo: '//evil.example' },
      '10.1.0.2',
    )
    expect(offSite.location).toBe('/app')
  })

  it('answers a wrong password with the server message', async () => {
    const wrong = await attempt(
      { intent: 'login', email: 'dispatch@bluelagoon.test', password: 'nope-nope' },
      '10.1.0.3',
    )
    expect(wrong.status).toBe(400)
    expect(wrong.errors).toEqual(['Invalid email or password.'])
  })
})

const CREW_PASSWORD = 'crew-password-2026'
const ACCOUNT_LOCKED_MESSAGE =
  /^Too many failed sign-ins for this account\. Wait 1[45] minutes or reset your password\.$/
const CLIENT_LOCKED_MESSAGE = /^Too many failed sign-ins from your network\. Wait 1[45] minutes, then try again\.$/

/** Verified accounts `prefix-0@example.test` … with CREW_PASSWORD and no company yet (they land on /app). */
async function createAccounts(prefix: string, count: number) {
  const context = await getAuth().$context
  const hash = await context.password.hash(CREW_PASSWORD)
  const emails: string[] = []
  for (let i = 0; i < count; i++) {
    const email = `${prefix}-${i}@example.test`
    const created = await context.internalAdapter.createUser(
      { email, name: email, emailVerified: true },
      { method: 'email-password' },
    )
    await context.internalAdapter.linkAccount({
      userId: created.id,
      providerId: 'credential',
      accountId: created.id,
      password: hash,
    })
    emails.push(email)
  }
  return emails
}

const login = (email: string, password: string, ip: string) => attempt({ intent: 'login', email, password }, ip)

describe('sign-in limits count failed passwords, never successful sign-ins', () => {
  it('lets 30 people sign in from one address within a minute (a crew behind one shop router)', async () => {
    const crew = await createAccounts('crew', 30)
    const answers = []
    for (const email of crew) answers.push(await login(email, CREW_PASSWORD, '10.2.0.1'))
    expect(answers.map((answer) => answer.status)).toEqual(crew.map(() => 302))
  })

  it('refuses the 6th attempt on an account after 5 wrong passwords, even the right one, and only that account', async () => {
    const [victim, ...others] = await createAccounts('locked', 4)
    const wrong = []
    for (let i = 0; i < 5; i++) wrong.push(await login(victim as string, `guess-number-${i}`, '10.2.0.2'))
    expect(wrong.map((answer) => [answer.status, answer.errors])).toEqual(
      wrong.map(() => [400, ['Invalid email or password.']]),
    )

    const sixth = await login(victim as string, 'guess-number-5', '10.2.0.2')
    expect(sixth.status).toBe(429)
    expect(sixth.errors).toEqual([expect.stringMatching(ACCOUNT_LOCKED_MESSAGE)])
    // The right password does not open (or unlock) it early, from this address or any other.
    for (const ip of ['10.2.0.2', '10.2.0.3']) {
      const right = await login(victim as string, CREW_PASSWORD, ip)
      expect(right.status).toBe(429)
      expect(right.errors).toEqual([expect.stringMatching(ACCOUNT_LOCKED_MESSAGE)])
    }
    // Everyone else still signs in from the same address.
    for (const email of others) expect((await login(email, CREW_PASSWORD, '10.2.0.2')).status).toBe(302)
  })

  it('forgets a typo once the right password is given before the lock', async () => {
    const [tech] = await createAccounts('typo', 1)
    const statuses = []
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) statuses.push((await login(tech as string, `typo-${round}-${i}`, '10.2.0.4')).status)
      statuses.push((await login(tech as string, CREW_PASSWORD, '10.2.0.4')).status)
    }
    expect(statuses).toEqual([400, 400, 400, 400, 302, 400, 400, 400, 400, 302, 400, 400, 400, 400, 302])
  })

  it('refuses a client address after 50 wrong passwords across accounts, and no other address', async () => {
    const [bystander] = await createAccounts('bystander', 1)
    const statuses = []
    for (let i = 0; i < 50; i++) {
      statuses.push((await login(`stuffed-${i}@example.test`, 'leaked-password-1', '10.2.0.5')).status)
    }
    expect(statuses).toEqual(statuses.map(() => 400))
    const refused = await login('stuffed-50@example.test', 'leaked-password-1', '10.2.0.5')
    expect(refused.status).toBe(429)
    expect(refused.errors).toEqual([expect.stringMatching(CLIENT_LOCKED_MESSAGE)])
    expect((await login(bystander as string, CREW_PASSWORD, '10.2.0.5')).status).toBe(429)
    expect((await login(bystander as string, CREW_PASSWORD, '10.2.0.6')).status).toBe(302)
  })

  it("cannot be bypassed through better-auth's own endpoint, over HTTP or from server code", async () => {
    const [target] = await createAccounts('raw-api', 1)
    const raw = (password: string, ip: string) =>
      getAuth().handler(
        new Request(`${TEST_ORIGIN}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, [CLIENT_IP_HEADER]: ip },
          body: JSON.stringify({ email: target, password }),
        }),
      )
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await raw(`raw-guess-${i}`, `10.2.1.${i}`)).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401])

    const locked = await raw(CREW_PASSWORD, '10.2.1.9')
    expect(locked.status).toBe(429)
    expect(await locked.json()).toMatchObject({
      code: SIGN_IN_LOCKED,
      message: expect.stringMatching(ACCOUNT_LOCKED_MESSAGE),
    })
    await expect(
      getAuth().api.signInEmail({ body: { email: target as string, password: CREW_PASSWORD }, headers: new Headers() }),
    ).rejects.toMatchObject({ statusCode: 429, body: { code: SIGN_IN_LOCKED } })
    // The login form shares the same count.
    expect((await login(target as string, CREW_PASSWORD, '10.2.1.10')).status).toBe(429)

    // Wrong passwords sent straight to the endpoint count against the client address too.
    for (let i = 0; i < 50; i++) {
      const wrong = await getAuth().handler(
        new Request(`${TEST_ORIGIN}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, [CLIENT_IP_HEADER]: '10.2.1.50' },
          body: JSON.stringify({ email: `raw-stuffed-${i}@example.test`, password: 'leaked-password-1' }),
        }),
      )
      expect(wrong.status).toBe(401)
    }
    const [other] = await createAccounts('raw-other', 1)
    expect((await login(other as string, CREW_PASSWORD, '10.2.1.50')).status).toBe(429)
  })
})

/** Where a redirect sends the browser, resolved against this site. */
function resolvedLocation(location: string | null) {
  return new URL(location ?? '', TEST_ORIGIN)
}

const HOSTILE_RETURN_PATHS = [
  '/..//evil.example/x',
  '//evil.example/x',
  '/\\evil.example/x',
  '/%2F%2Fevil.example/x',
  '/%5Cevil.example/x',
  '/%2e%2e//evil.example/x',
  '/\t/evil.example/x',
  '///evil.example/x',
  'https://evil.example/x',
  'javascript:alert(1)',
]

describe('the return path after login (F2)', () => {
  it('never leaves the site when a signed-in visitor opens /login?redirectTo=…', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    for (const redirectTo of HOSTILE_RETURN_PATHS) {
      const { thrown } = await settle(
        loader({
          request: pageRequest(`/login?redirectTo=${encodeURIComponent(redirectTo)}`, cookie),
          params: {},
          context: {},
        } as never),
      )
      const location = (thrown as Response).headers.get('location')
      expect({ redirectTo, location }).toEqual({ redirectTo, location: '/app' })
      expect(resolvedLocation(location).origin).toBe(TEST_ORIGIN)
    }
    // A path of this site, with its query, is still followed.
    const { thrown } = await settle(
      loader({
        request: pageRequest(`/login?redirectTo=${encodeURIComponent('/app/customers?q=pool&page=2')}`, cookie),
        params: {},
        context: {},
      } as never),
    )
    expect((thrown as Response).headers.get('location')).toBe('/app/customers?q=pool&page=2')
  })

  it('never leaves the site after the login form is posted', async () => {
    for (const [index, redirectTo] of HOSTILE_RETURN_PATHS.entries()) {
      const answer = await attempt(
        { intent: 'login', email: 'dispatch@bluelagoon.test', password: 'pooldemo123', redirectTo },
        `10.3.0.${index + 1}`,
      )
      expect({ redirectTo, status: answer.status, location: answer.location }).toEqual({
        redirectTo,
        status: 302,
        location: '/app',
      })
    }
  })
})

describe("the sign-up confirmation link's landing", () => {
  async function landing(path: string, cookie?: string) {
    const { thrown } = await settle(loader(routeArgs(pageRequest(path, cookie))))
    const response = thrown as Response
    const flashCookie = response.headers.getSetCookie().map((c) => c.split(';')[0])
    const { flash } = await takeFlash(pageRequest('/login', flashCookie.join('; ')))
    return { location: response.headers.get('location'), flash: flash && { tone: flash.tone, text: flash.text } }
  }

  it('says the outcome once, on /login without the link parameters, keeping the return path', async () => {
    expect(await landing(`/login?verified=1&redirectTo=${encodeURIComponent('/start?plan=team')}`)).toEqual({
      location: `/login?redirectTo=${encodeURIComponent('/start?plan=team')}`,
      flash: { tone: 'success', text: 'Email confirmed. You can log in now.' },
    })
    expect(await landing('/login?verified=1&error=TOKEN_EXPIRED')).toEqual({
      location: '/login',
      flash: { tone: 'error', text: 'That confirmation link has expired. Log in to get a new one.' },
    })
    expect(await landing('/login?verified=1&error=INVALID_TOKEN')).toMatchObject({
      flash: { tone: 'error', text: 'That confirmation link is not valid. Use the newest link we emailed you.' },
    })
    // The plain page (and an error code it does not know) is just the page.
    for (const path of ['/login', '/login?mode=signup', '/login?error=SOMETHING_ELSE']) {
      expect(await loader(routeArgs(pageRequest(path))), path).toBeNull()
    }
  })

  it('deletes the phone’s owner cookie when nobody is signed in (its saved pages are shown to nobody, decision 030)', async () => {
    const answer = (await loader({
      request: pageRequest('/login', 'pool-bud-user=someone; pool-bud.session_token=expired'),
      params: {},
      context: {},
    } as never)) as { init?: { headers?: HeadersInit } } | null
    expect(new Headers(answer?.init?.headers).get('Set-Cookie')).toMatch(/^pool-bud-user=; Path=\/; Max-Age=0/)
  })

  it('says it to someone already signed in on the way to their page', async () => {
    expect(await landing('/login?verified=1', await signInAs('dispatch@bluelagoon.test'))).toEqual({
      location: '/app',
      flash: { tone: 'success', text: 'Email confirmed. You can log in now.' },
    })
  })
})

describe("the login page's schemas", () => {
  it('tells the two forms apart by intent, and checks that a new password was typed twice alike', () => {
    const login = AuthSchema.safeParse({ intent: 'login', email: ' A@Example.com ', password: 'x' })
    expect(login).toMatchObject({ success: true, data: { intent: 'login', email: 'a@example.com' } })
    expect(AuthSchema.safeParse({ intent: 'reset', email: 'a@example.com', password: 'x' }).success).toBe(false)
    const mismatch = SignupSchema.safeParse({
      intent: 'signup',
      email: 'a@example.com',
      password: 'long-enough-pass-1',
      confirmPassword: 'long-enough-pass-2',
    })
    expect(mismatch.error?.issues.map((issue) => issue.message)).toContain('Passwords do not match.')
  })
})
