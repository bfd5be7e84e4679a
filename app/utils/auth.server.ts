import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { magicLink } from 'better-auth/plugins/magic-link'
import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { account, profiles, rateLimit, session, user, verification } from '~/db/schema'
import { ActionLinkEmail } from '~/emails/action-link-email'
import { inviteEmail } from '~/emails/invite-email'
import { db } from './db.server'
import { sendEmail } from './email.server'
import { env } from './env.server'

/** The header our server sets from the socket (or a trusted proxy); clients cannot forge it. */
export const CLIENT_IP_HEADER = 'x-pool-bud-client-ip'

export const AUTH_BASE_PATH = '/api/auth'

/** Invitation links work for 7 days (ARCHITECTURE §4), and once. */
export const INVITE_LINK_SECONDS = 7 * 24 * 60 * 60

function createAuth() {
  const { APP_URL, AUTH_SECRET } = env()
  return betterAuth({
    appName: 'Pool Bud',
    baseURL: APP_URL,
    basePath: AUTH_BASE_PATH,
    secret: AUTH_SECRET,
    trustedOrigins: [APP_URL],
    database: drizzleAdapter(db(), {
      provider: 'pg',
      schema: { user, session, account, verification, rateLimit },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, url }) {
        await sendEmail({
          to: user.email,
          subject: 'Reset your Pool Bud password',
          react: createElement(ActionLinkEmail, {
            heading: 'Reset your password',
            intro: 'Someone (hopefully you) asked to reset the password of your Pool Bud account.',
            actionLabel: 'Choose a new password',
            url,
            expiry: 'This link works once and expires in 1 hour.',
          }),
        })
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: 24 * 60 * 60,
      async sendVerificationEmail({ user, url }) {
        await sendEmail({
          to: user.email,
          subject: 'Confirm your email for Pool Bud',
          react: createElement(ActionLinkEmail, {
            heading: 'Confirm your email',
            intro: 'Thanks for signing up for Pool Bud. Confirm your email address, then log in.',
            actionLabel: 'Confirm my email',
            url,
            expiry: 'This link expires in 24 hours.',
          }),
        })
      },
    },
    user: {
      changeEmail: {
        enabled: true,
        // The current address confirms first; then the new address is verified (SPEC §5 Account).
        async sendChangeEmailConfirmation({ user, newEmail, url }) {
          await sendEmail({
            to: user.email,
            subject: 'Confirm your new Pool Bud email address',
            react: createElement(ActionLinkEmail, {
              heading: 'Confirm your email change',
              intro: `You asked to change the email you log in to Pool Bud with to ${newEmail}. Confirm it here; we will then send a link to the new address.`,
              actionLabel: 'Confirm the change',
              url,
              expiry:
                'This link expires in 24 hours. If you did not ask for this, ignore this email and nothing changes.',
            }),
          })
        },
      },
    },
    databaseHooks: {
      user: {
        update: {
          // Keep the profile's copy of the sign-in email in step once a change is confirmed.
          async after(updated) {
            await db().update(profiles).set({ email: updated.email }).where(eq(profiles.id, updated.id))
          },
        },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-up/email': { window: 60, max: 5 },
        '/request-password-reset': { window: 60, max: 5 },
        '/reset-password': { window: 60, max: 10 },
        '/send-verification-email': { window: 60, max: 5 },
      },
    },
    advanced: {
      cookiePrefix: 'pool-bud',
      useSecureCookies: APP_URL.startsWith('https://'),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    // Invitations: a one-time link that signs the invitee in (7 days). Only our server asks for
    // one (the public endpoint is disabled), so nobody can mail themselves a sign-in link.
    disabledPaths: ['/sign-in/magic-link'],
    plugins: [
      magicLink({
        expiresIn: INVITE_LINK_SECONDS,
        disableSignUp: true,
        storeToken: 'hashed',
        async sendMagicLink({ email, url, metadata }) {
          await sendEmail({ to: email, ...inviteEmail(url, metadata) })
        },
      }),
    ],
    telemetry: { enabled: false },
  })
}

export type Auth = ReturnType<typeof createAuth>

declare global {
  var __poolBudAuth: { auth: Auth; db: unknown } | undefined
}

/** The better-auth instance for the current database (rebuilt if a test swaps the database). */
export function getAuth(): Auth {
  const current = db()
  if (globalThis.__poolBudAuth?.db !== current) {
    globalThis.__poolBudAuth = { auth: createAuth(), db: current }
  }
  return globalThis.__poolBudAuth.auth
}

/**
 * Calls one of better-auth's endpoints as the visitor of `request`, through its handler,
 * so rate limits, hooks and cookie handling apply exactly as for a browser request.
 */
export async function callAuthEndpoint(request: Request, endpoint: string, body: unknown) {
  const headers = new Headers({ 'content-type': 'application/json', origin: env().APP_URL })
  for (const name of ['cookie', 'user-agent', CLIENT_IP_HEADER]) {
    const value = request.headers.get(name)
    if (value) headers.set(name, value)
  }
  const response = await getAuth().handler(
    new Request(`${env().APP_URL}${AUTH_BASE_PATH}${endpoint}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    }),
  )
  const payload = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: string; message?: string } | null
  return { response, ok: response.ok, status: response.status, code: payload?.code, message: payload?.message }
}

/** Set-Cookie headers of an auth response, to pass on with a redirect. */
export function cookieHeaders(response: Response) {
  const headers = new Headers()
  for (const cookie of response.headers.getSetCookie()) headers.append('set-cookie', cookie)
  return headers
}
