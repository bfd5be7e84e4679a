// "My account"'s saves (/app/account): the profile (with the email change's confirmation link), the password and
// the technician's calendar feed. Each answers with the reply of the form it belongs to.
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { callAuthEndpoint, cookieHeaders, EMAIL_CHANGED_PATH } from '~/auth/better-auth.server'
import { requireMemberCapability, type SessionUser } from '~/auth/guards.server'
import { calendarFeedUrl, resetCalendarFeed } from '~/models/calendar-feed.server'
import { EMAIL_TAKEN } from '~/models/invitation.server'
import { isEmailTaken, updateOwnProfile } from '~/models/profile.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { PASSWORD_TOO_COMMON } from '~/utils/forms'
import { logger } from '~/utils/logger.server'
import type { Role } from '~/utils/permissions'
import { failureStatus } from '~/utils/result'
import { SIGN_IN_LOCKED } from '~/utils/sign-in-limits.server'
import { AccountSchema, CalendarFeedSchema, ChangePasswordSchema } from './account-schema'

const PASSWORD_CHANGED = 'Password changed. You were signed out on every other device.'
const WRONG_CURRENT_PASSWORD = 'That is not your current password.'
const TOO_MANY = 'Too many attempts. Wait a minute, then try again.'

/** What the action answers; `form` says which of the page's forms it belongs to (without JavaScript). */
export type AccountReply = {
  form: 'profile' | 'password' | 'feed'
  result: SubmissionResult<string[]>
  notice: string | null
  pendingEmail: string | null
  /** The new calendar link: in this answer only, never stored or shown again. */
  feedUrl?: string
}

function refuse(result: SubmissionResult<string[]>, status: number, form: AccountReply['form'] = 'profile') {
  return data<AccountReply>({ form, result, notice: null, pendingEmail: null }, status)
}

/**
 * Asks better-auth to email a confirmation link to `email` (through its handler, so the
 * /change-email rate limit applies). Returns the refusal to show, or null once the link is on its way.
 */
async function requestEmailChange(request: Request, userId: string, email: string) {
  const change = await callAuthEndpoint(request, '/change-email', {
    newEmail: email,
    callbackURL: EMAIL_CHANGED_PATH,
  })
  if (change?.status === 429) return { message: TOO_MANY, status: 429 }
  if (!change?.ok) {
    logger.warn({ status: change?.status, code: change?.code, userId }, 'change-email request failed')
    return { message: 'Unable to save your profile.', status: 500 }
  }
  // better-auth answers an address that is taken exactly like a free one (and sends nothing);
  // the signed-in user is told plainly, after the rate limit has counted the attempt.
  if (await isEmailTaken(email, userId)) return { message: EMAIL_TAKEN, status: 400 }
  return null
}

/** Saves the profile form; a new email waits for its confirmation link (a refused address leaves all unsaved). */
export async function saveProfile(request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: AccountSchema })
  if (submission.status !== 'success') return refuse(submission.reply(), 400)
  if (!user.profile) return refuse(submission.reply({ formErrors: ['Profile not loaded.'] }), 400)
  const { email, ...details } = submission.value

  // The sign-in email (and profiles.email) change only when the link sent to the new address is followed.
  const changesEmail = email !== user.email.toLowerCase()
  if (changesEmail) {
    const refusal = await requestEmailChange(request, user.id, email)
    if (refusal) {
      const reply =
        refusal.status === 400
          ? submission.reply({ fieldErrors: { email: [refusal.message] } })
          : submission.reply({ formErrors: [refusal.message] })
      return refuse(reply, refusal.status)
    }
  }
  try {
    await updateOwnProfile(user.id, details)
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, userId: user.id }, 'profile update failed')
    return refuse(submission.reply({ formErrors: ['Unable to save your profile.'] }), 500)
  }
  return data<AccountReply>({
    form: 'profile',
    result: submission.reply(),
    notice: 'Profile updated.',
    pendingEmail: changesEmail ? email : null,
  })
}

/**
 * Changes the password through better-auth's /change-password (current password required, the policy applied
 * by its hook), which ends every session of the user and opens a new one for this browser (F8).
 */
export async function changePassword(request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema })
  const hidden = ['currentPassword', 'password', 'confirmPassword']
  if (submission.status !== 'success') return refuse(submission.reply({ hideFields: hidden }), 400, 'password')
  const change = await callAuthEndpoint(request, '/change-password', {
    currentPassword: submission.value.currentPassword,
    newPassword: submission.value.password,
    revokeOtherSessions: true,
  })
  if (!change?.ok) {
    const fieldError = (field: string, message: string) =>
      refuse(submission.reply({ fieldErrors: { [field]: [message] }, hideFields: hidden }), 400, 'password')
    if (change?.code === 'INVALID_PASSWORD') return fieldError('currentPassword', WRONG_CURRENT_PASSWORD)
    if (change?.code === 'PASSWORD_TOO_COMMON') return fieldError('password', PASSWORD_TOO_COMMON)
    const locked = change?.code === SIGN_IN_LOCKED && change.message
    if (!locked && change?.status !== 429) {
      logger.warn({ status: change?.status, code: change?.code, userId: user.id }, 'change-password failed')
    }
    const message = locked || (change?.status === 429 ? TOO_MANY : 'Unable to change your password. Try again.')
    return refuse(
      submission.reply({ formErrors: [message], hideFields: hidden }),
      change?.status === 429 ? 429 : 500,
      'password',
    )
  }
  // The old session went with the others; the new one's cookie keeps this browser signed in.
  return data<AccountReply>(
    { form: 'password', result: submission.reply({ resetForm: true }), notice: PASSWORD_CHANGED, pendingEmail: null },
    { headers: cookieHeaders(change.response) },
  )
}

/** "Create calendar link" and "Reset link": a new token, whose URL this answer carries once. */
export async function renewCalendarFeed(user: SessionUser & { role: Role }, formData: FormData) {
  requireMemberCapability(user, 'calendar:feed')
  const submission = parseWithZod(formData, { schema: CalendarFeedSchema })
  if (submission.status !== 'success') return refuse(submission.reply(), 400, 'feed')
  const renewed = await resetCalendarFeed(user.id, { replace: submission.value.intent === 'reset-feed' })
  if (!renewed.ok) return refuse(submission.reply({ formErrors: [renewed.message] }), failureStatus(renewed), 'feed')
  return data<AccountReply>({
    form: 'feed',
    result: submission.reply({ resetForm: true }),
    notice: null,
    pendingEmail: null,
    feedUrl: calendarFeedUrl(renewed.token),
  })
}
