import { AsyncLocalStorage } from 'node:async_hooks'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api'
import { magicLink } from 'better-auth/plugins/magic-link'
import { eq } from 'drizzle-orm'
import { account, profiles, rateLimit, session, user, verification } from '~/db/schema'
import { revokeCalendarFeed } from '~/models/calendar-feed.server'
import { passwordResetEmail } from '~/models/password-reset.server'
import { isDeactivated, isEmailTaken } from '~/models/profile.server'
import { INVITE_LINK_SECONDS, onLinkDeleted, onLinkIssued, onPasswordSet } from '~/models/sign-in-links.server'
import { sendEmail } from '~/outbox/email.server'
import { kickOutboxWorker, registerOutboxTask } from '~/outbox/worker.server'
import { db, pingDatabase } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { PASSWORD_MIN_LENGTH, PASSWORD_TOO_COMMON } from '~/utils/forms'
import { isCommonPassword, newPasswordOf } from '~/utils/password-policy.server'
import { SESSION_COOKIE, SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S } from '~/utils/session-read.server'
import {
  type PasswordAttempt,
  passwordCheckAllowed,
  recordRightPassword,
  recordWrongPassword,
  SIGN_IN_LOCKED,
} from '~/utils/sign-in-limits.server'

/** The header our server sets from the socket (or a trusted proxy); clients cannot forge it. */
export const CLIENT_IP_HEADER = 'x-pool-bud-client-ip'

export const AUTH_BASE_PATH = '/api/auth'

/** The error code (and message) of a sign-in by a deactivated member. */
export const ACCOUNT_DEACTIVATED = 'ACCOUNT_DEACTIVATED'
export const DEACTIVATED_MESSAGE = 'This account has been deactivated. Contact your company owner.'

/**
 * Where the link in the new inbox lands once the sign-in email has changed; better-auth
 * appends `&error=CODE` when the link is expired, used, or cannot apply.
 */
export const EMAIL_CHANGED_PATH = '/app/account?email=updated'

/** Where `createPasswordResetLink` receives the link better-auth made (it hands it to `sendResetPassword`). */
const resetLinkRequest = new AsyncLocalStorage<{ link?: { url: string; userId: string } }>()

/** Email confirmation links (sign-up, and a change of sign-in email) work for 24 hours. */
const VERIFY_LINK_HOURS = 24

/**
 * The addresses of an email-change verification token, or null for any other token.
 * better-auth signs it itself (JWT: `email` = current address, `updateTo` = the new one), and
 * hands it to `sendVerificationEmail` next to the link, so reading the payload needs no check.
 */
function emailChangeOf(token: string): { from: string; to: string } | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >
    if (
      payload.requestType === 'change-email-verification' &&
      typeof payload.email === 'string' &&
      typeof payload.updateTo === 'string'
    ) {
      return { from: payload.email, to: payload.updateTo }
    }
  } catch {
    // Not a JWT: a plain verification token.
  }
  return null
}

/** better-auth's codes for a wrong password: at sign-in, and as the current password of a change. */
const WRONG_PASSWORD_CODES = new Set(['INVALID_EMAIL_OR_PASSWORD', 'INVALID_PASSWORD'])

/** The account and client of a request that checks a password (sign-in, change of password), else null. */
async function passwordAttemptOf(ctx: {
  path?: string
  body?: unknown
  headers?: Headers
  request?: Request
}): Promise<PasswordAttempt | null> {
  const clientIp = (ctx.headers ?? ctx.request?.headers)?.get(CLIENT_IP_HEADER) ?? null
  if (ctx.path === '/sign-in/email') {
    const email = (ctx.body as { email?: unknown } | undefined)?.email
    return typeof email === 'string' ? { email, clientIp } : null
  }
  if (ctx.path === '/change-password') {
    const session = await getSessionFromCtx(ctx as Parameters<typeof getSessionFromCtx>[0])
    return session ? { email: session.user.email, clientIp } : null
  }
  return null
}

/**
 * Before any endpoint runs, for our forms and direct /api/auth calls alike: a new password must not be a common
 * one (better-auth checks the length), and a locked account or client gets no password check (F11, F13).
 */
const beforeEndpoint = createAuthMiddleware(async (ctx) => {
  const newPassword = newPasswordOf(ctx.path, ctx.body)
  if (newPassword !== null && isCommonPassword(newPassword)) {
    throw new APIError('BAD_REQUEST', { code: 'PASSWORD_TOO_COMMON', message: PASSWORD_TOO_COMMON })
  }
  const attempt = await passwordAttemptOf(ctx)
  if (!attempt) return
  const allowed = await passwordCheckAllowed(attempt)
  if (!allowed.ok) throw new APIError('TOO_MANY_REQUESTS', { code: SIGN_IN_LOCKED, message: allowed.message })
})

/** After a password check: a wrong password counts against the account and client, a right one clears the account. */
const afterEndpoint = createAuthMiddleware(async (ctx) => {
  const attempt = await passwordAttemptOf(ctx)
  if (!attempt) return
  const returned = ctx.context.returned
  if (!isAPIError(returned)) await recordRightPassword(attempt)
  else if (WRONG_PASSWORD_CODES.has(String(returned.body?.code))) await recordWrongPassword(attempt)
})

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
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      // A reset ends the calendar link too (N5): the URL may be with whoever had the account.
      async onPasswordReset({ user }) {
        await revokeCalendarFeed(user.id)
      },
      // Reset links are asked for only by the outbox worker (createPasswordResetLink), which mails them itself.
      async sendResetPassword({ user, url }) {
        const request = resetLinkRequest.getStore()
        if (!request) throw new Error('Password reset links are created only by the outbox worker.')
        request.link = { url, userId: user.id }
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: VERIFY_LINK_HOURS * 60 * 60,
      async sendVerificationEmail({ user, url, token }) {
        const change = emailChangeOf(token)
        if (change) {
          // A change of sign-in email: the link goes to the new address only, and the current
          // address (which keeps working until the link is followed) is told, without a link.
          await db().transaction(async (tx) => {
            await sendEmail(
              {
                to: change.to,
                template: 'email-change-verification',
                props: { currentEmail: change.from, url, hours: VERIFY_LINK_HOURS },
              },
              tx,
            )
            await sendEmail({ to: change.from, template: 'email-change-notice', props: { newEmail: change.to } }, tx)
          })
          // Both are committed now: deliver them without waiting for the worker's next tick.
          kickOutboxWorker()
          return
        }
        await sendEmail({
          to: user.email,
          template: 'action-link',
          props: {
            subject: 'Confirm your email for Pool Bud',
            heading: 'Confirm your email',
            intro: 'Thanks for signing up for Pool Bud. Confirm your email address, then log in.',
            actionLabel: 'Confirm my email',
            url,
            expiry: `This link expires in ${VERIFY_LINK_HOURS} hours.`,
          },
        })
      },
    },
    user: {
      // No `sendChangeEmailConfirmation`: better-auth then sends its verification link straight to
      // the new address (docs/product.md "Forms" Account, issue #5); the email changes when that link is followed.
      changeEmail: { enabled: true },
    },
    databaseHooks: {
      // A deactivated member gets no session, however they sign in (password or invite link).
      session: {
        create: {
          async before(newSession) {
            if (await isDeactivated(newSession.userId)) {
              throw new APIError('FORBIDDEN', { code: ACCOUNT_DEACTIVATED, message: DEACTIVATED_MESSAGE })
            }
          },
        },
      },
      // One-time links (F6, sign-in-links.server.ts): a new reset link voids the older ones; using a link voids
      // the person's other links; setting a password (first one, change, reset) voids them all.
      verification: {
        create: {
          async after(row) {
            await onLinkIssued(row)
          },
        },
        delete: {
          async after(row) {
            await onLinkDeleted(row)
          },
        },
      },
      account: {
        create: {
          async after(row) {
            if (row.password) await onPasswordSet(row.userId)
          },
        },
        update: {
          // Only single-account updates carry the row; every password write here is one (passwords.server.ts).
          async after(row) {
            if (row?.password) await onPasswordSet(row.userId)
          },
        },
      },
      user: {
        update: {
          // better-auth checks the new address when the change is asked for; if someone signed up
          // with it before the link was followed, say so on the landing page (not a unique-index 500).
          async before(data, ctx) {
            if (typeof data.email !== 'string' || !(await isEmailTaken(data.email))) return
            if (ctx) throw ctx.redirect(`${EMAIL_CHANGED_PATH}&error=EMAIL_TAKEN`)
            return false
          },
          // Keep the profile's copy of the sign-in email in step once a change is confirmed.
          async after(updated) {
            await db().update(profiles).set({ email: updated.email }).where(eq(profiles.id, updated.id))
          },
        },
      },
    },
    // session-read.server.ts reads sessions itself and must agree with these (and with the cookie's name).
    session: {
      expiresIn: SESSION_EXPIRES_IN_S,
      updateAge: SESSION_UPDATE_AGE_S,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        // Sign-in is limited by failed passwords per account and per client instead (sign-in-limits.server.ts):
        // a per-client count of every attempt locked out whole crews signing in behind one router.
        '/sign-in/email': false,
        '/sign-up/email': { window: 60, max: 5 },
        '/request-password-reset': { window: 60, max: 5 },
        '/reset-password': { window: 60, max: 10 },
        '/send-verification-email': { window: 60, max: 5 },
        '/change-email': { window: 60, max: 5 },
      },
    },
    advanced: {
      cookiePrefix: SESSION_COOKIE.split('.')[0],
      useSecureCookies: APP_URL.startsWith('https://'),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    // Invitations: a one-time link that signs the invitee in (7 days). Our server writes it in the
    // transaction that creates the invitee (sign-in-links.server.ts); the public endpoint that would
    // mail a link to any address is disabled, so the plugin only verifies links.
    // Reset links likewise: "Forgot password" queues a task and the outbox worker asks for the link
    // (models/password-reset.server.ts), so the request takes the same time for every address.
    disabledPaths: ['/sign-in/magic-link', '/request-password-reset'],
    plugins: [
      magicLink({
        expiresIn: INVITE_LINK_SECONDS,
        disableSignUp: true,
        storeToken: 'hashed',
        async sendMagicLink() {
          throw new Error('Invitation links are created with their invitee (createInviteLink), never requested.')
        },
      }),
    ],
    hooks: { before: beforeEndpoint, after: afterEndpoint },
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
 * better-auth's reset link for `email` (a one-time token that expires in an hour), or
 * null when no user has that address. Called by the outbox worker only.
 */
export async function createPasswordResetLink(email: string) {
  const request: { link?: { url: string; userId: string } } = {}
  await resetLinkRequest.run(request, () =>
    getAuth().api.requestPasswordReset({ body: { email, redirectTo: '/reset-password' }, headers: new Headers() }),
  )
  return request.link ?? null
}

// The outbox worker turns a queued reset task (models/password-reset.server.ts) into the email with this link.
registerOutboxTask('password-reset', (email) => passwordResetEmail(email, createPasswordResetLink))

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
  if (response.status >= 500) {
    // better-auth answers its own failures (a database outage among them) with a bare 500 and keeps the error. Ask
    // the database ourselves: when it is down, that throws the error the outage page answers with a 503; else this
    // is a bug of ours, thrown to the error page and the log, never shown as "wrong password".
    await pingDatabase()
    throw new Error(`better-auth ${endpoint} answered ${response.status}`)
  }
  // Its refusals carry a JSON body with a code and a message; a refusal without one is just its status.
  const text = await response.clone().text()
  const payload = text.startsWith('{') ? (JSON.parse(text) as { code?: string; message?: string }) : null
  return { response, ok: response.ok, status: response.status, code: payload?.code, message: payload?.message }
}

/** Set-Cookie headers of an auth response, to pass on with a redirect. */
export function cookieHeaders(response: Response) {
  const headers = new Headers()
  for (const cookie of response.headers.getSetCookie()) headers.append('set-cookie', cookie)
  return headers
}
