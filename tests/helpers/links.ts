// Emailed one-time links, used the way a browser uses them: through better-auth's real handler.
import { randomBytes } from 'node:crypto'
import { and, desc, eq, like } from 'drizzle-orm'
import { CLIENT_IP_HEADER, callAuthEndpoint, createPasswordResetLink, getAuth } from '~/auth/better-auth.server'
import { emailOutbox, user, verification } from '~/db/schema'
import { db } from '~/utils/db.server'
import { TEST_ORIGIN } from './requests'

/** A client address per call keeps better-auth's per-IP limits out of the way. */
export function clientIp() {
  return `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`
}

/** The emails queued to `to`, newest first. */
export async function emailsTo(to: string) {
  return db().select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(desc(emailOutbox.createdAt))
}

/** The one-time invitation link of the newest email to `to`. */
export async function latestInviteLink(to: string) {
  for (const mail of await emailsTo(to)) {
    const link = mail.text.match(/https?:\/\/\S+magic-link\/verify\S+/)?.[0]
    if (link) return link.replace(/[)\]]+$/, '')
  }
  throw new Error(`no invitation link for ${to}`)
}

/** Opens an emailed link the way a browser would. */
export function follow(link: string) {
  return getAuth().handler(new Request(link, { headers: { origin: TEST_ORIGIN, [CLIENT_IP_HEADER]: clientIp() } }))
}

/** The session cookie a response sets, as a Cookie header ('' when none). */
export function sessionCookie(response: Response) {
  return response.headers
    .getSetCookie()
    .filter((cookie) => cookie.includes('session_token=') && !cookie.includes('session_token=;'))
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

/** Whether following `link` signed someone in (and where it went). */
export async function signsIn(link: string) {
  const response = await follow(link)
  return { signedIn: sessionCookie(response) !== '', location: response.headers.get('location') ?? '', response }
}

/** Has better-auth make a password-reset link for `email`, as the outbox worker does, and returns its token (read where better-auth keeps it). */
export async function requestResetToken(email: string) {
  await createPasswordResetLink(email)
  const [account] = await db().select({ id: user.id }).from(user).where(eq(user.email, email))
  const [row] = await db()
    .select({ identifier: verification.identifier })
    .from(verification)
    .where(and(like(verification.identifier, 'reset-password:%'), eq(verification.value, account?.id ?? '')))
    .orderBy(desc(verification.createdAt))
    .limit(1)
  if (!row) throw new Error(`no reset link for ${email}`)
  return row.identifier.slice('reset-password:'.length)
}

/** Resets a password with a reset token through the real handler; answers its status. */
export async function resetWith(token: string, newPassword: string) {
  const request = new Request(`${TEST_ORIGIN}/reset-password`, { headers: { [CLIENT_IP_HEADER]: clientIp() } })
  return (await callAuthEndpoint(request, '/reset-password', { token, newPassword })).status
}
