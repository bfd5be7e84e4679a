import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { type MouseEvent, useState } from 'react'
import { data, useFetcher, useSearchParams } from 'react-router'
import { z } from 'zod'
import { callAuthEndpoint, cookieHeaders, EMAIL_CHANGED_PATH } from '~/auth/better-auth.server'
import { forbidden, requireCapability, type SessionUser } from '~/auth/guards.server'
import { NewPasswordFields, PasswordField } from '~/components/password-input'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Field, inputClass } from '~/components/ui/field'
import { calendarFeedUrl, hasCalendarFeed, resetCalendarFeed } from '~/models/calendar-feed.server'
import { EMAIL_TAKEN } from '~/models/invitation.server'
import { isEmailTaken, updateOwnProfile } from '~/models/profile.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import {
  EmailSchema,
  NewPasswordSchema,
  optionalText,
  PASSWORD_TOO_COMMON,
  PASSWORDS_MATCH,
  readForm,
} from '~/utils/forms'
import { logger } from '~/utils/logger.server'
import { failureStatus } from '~/utils/result'
import { SIGN_IN_LOCKED } from '~/utils/sign-in-limits.server'
import type { Route } from './+types/account'

const AccountSchema = z.object({
  fullName: optionalText(120),
  email: EmailSchema,
  phone: optionalText(40),
  addressLine1: optionalText(),
  addressLine2: optionalText(),
  city: optionalText(100),
  state: optionalText(100),
  postalCode: optionalText(20),
  country: optionalText(100),
})

const ChangePasswordSchema = z
  .object({
    intent: z.literal('change-password'),
    currentPassword: z
      .string({ error: 'Enter your current password.' })
      .min(1, 'Enter your current password.')
      .max(128, 'Use at most 128 characters.'),
    password: NewPasswordSchema,
    confirmPassword: z.string({ error: 'Passwords do not match.' }),
  })
  .refine(...PASSWORDS_MATCH)

const CalendarFeedSchema = z.object({ intent: z.enum(['create-feed', 'reset-feed']) })

const PASSWORD_CHANGED = 'Password changed. You were signed out on every other device.'
const WRONG_CURRENT_PASSWORD = 'That is not your current password.'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCapability(request, 'account:edit')
  const p = user.profile
  if (!p) return { profile: null, calendarFeed: null }
  return {
    // Only technicians have visits of their own to subscribe to.
    calendarFeed: p.role === 'tech' ? { active: await hasCalendarFeed(user.id) } : null,
    profile: {
      fullName: p.fullName ?? '',
      email: user.email,
      phone: p.phone ?? '',
      addressLine1: p.addressLine1 ?? '',
      addressLine2: p.addressLine2 ?? '',
      city: p.city ?? '',
      state: p.state ?? '',
      postalCode: p.postalCode ?? '',
      country: p.country ?? '',
    },
  }
}

const TOO_MANY = 'Too many attempts. Wait a minute, then try again.'

/** better-auth's error codes on that landing, in words (SPEC §8: clear, in the danger colour). */
function emailLinkError(code: string, currentEmail: string) {
  switch (code) {
    case 'TOKEN_EXPIRED':
      return `That email confirmation link has expired. You still log in with ${currentEmail}; save your new email again to get a new link.`
    case 'INVALID_TOKEN':
      return `That email confirmation link is not valid or has already been used. You log in with ${currentEmail}.`
    case 'EMAIL_TAKEN':
      return `Someone else has started using that address since you asked for it, so you still log in with ${currentEmail}.`
    case 'INVALID_USER':
      return 'That email confirmation link belongs to another account. Log out, then open it again.'
    default:
      return `We could not confirm that email change. You still log in with ${currentEmail}; save your new email again to get a new link.`
  }
}

/** What the action answers; `form` says which of the page's forms it belongs to (without JavaScript). */
type Reply = {
  form: 'profile' | 'password' | 'feed'
  result: SubmissionResult<string[]>
  notice: string | null
  pendingEmail: string | null
  /** The new calendar link: in this answer only, never stored or shown again. */
  feedUrl?: string
}

function refuse(result: SubmissionResult<string[]>, status: number, form: Reply['form'] = 'profile') {
  return data<Reply>({ form, result, notice: null, pendingEmail: null }, status)
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

/**
 * Changes the password through better-auth's /change-password (current password required, the policy applied
 * by its hook), which ends every session of the user and opens a new one for this browser (F8).
 */
async function changePassword(request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema })
  const hidden = ['currentPassword', 'password', 'confirmPassword']
  if (submission.status !== 'success') return refuse(submission.reply({ hideFields: hidden }), 400, 'password')
  const change = await callAuthEndpoint(request, '/change-password', {
    currentPassword: submission.value.currentPassword,
    newPassword: submission.value.password,
    revokeOtherSessions: true,
  })
  if (!change?.ok) {
    if (change?.code === 'INVALID_PASSWORD') {
      return refuse(
        submission.reply({ fieldErrors: { currentPassword: [WRONG_CURRENT_PASSWORD] }, hideFields: hidden }),
        400,
        'password',
      )
    }
    if (change?.code === 'PASSWORD_TOO_COMMON') {
      return refuse(
        submission.reply({ fieldErrors: { password: [PASSWORD_TOO_COMMON] }, hideFields: hidden }),
        400,
        'password',
      )
    }
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
  return data<Reply>(
    { form: 'password', result: submission.reply({ resetForm: true }), notice: PASSWORD_CHANGED, pendingEmail: null },
    { headers: cookieHeaders(change.response) },
  )
}

/** "Create calendar link" and "Reset link": a new token, whose URL this answer carries once. */
async function renewCalendarFeed(user: SessionUser & { role: string }, formData: FormData) {
  if (user.role !== 'tech') forbidden('no-access')
  const submission = parseWithZod(formData, { schema: CalendarFeedSchema })
  if (submission.status !== 'success') return refuse(submission.reply(), 400, 'feed')
  const renewed = await resetCalendarFeed(user.id, { replace: submission.value.intent === 'reset-feed' })
  if (!renewed.ok) return refuse(submission.reply({ formErrors: [renewed.message] }), failureStatus(renewed), 'feed')
  return data<Reply>({
    form: 'feed',
    result: submission.reply({ resetForm: true }),
    notice: null,
    pendingEmail: null,
    feedUrl: calendarFeedUrl(renewed.token),
  })
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCapability(request, 'account:edit')
  const formData = await readForm(request)
  const intent = formData.get('intent')
  if (intent === 'change-password') return changePassword(request, user, formData)
  if (intent === 'create-feed' || intent === 'reset-feed') return renewCalendarFeed(user, formData)
  const submission = parseWithZod(formData, { schema: AccountSchema })
  if (submission.status !== 'success') return refuse(submission.reply(), 400)
  if (!user.profile) return refuse(submission.reply({ formErrors: ['Profile not loaded.'] }), 400)
  const { email, ...details } = submission.value

  // The sign-in email (and profiles.email) change only when the link sent to the new address
  // is followed; a refused address leaves the whole form unsaved.
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
  return data<Reply>({
    form: 'profile',
    result: submission.reply(),
    notice: 'Profile updated.',
    pendingEmail: changesEmail ? email : null,
  })
}

export function meta() {
  return [{ title: 'My Account · Pool Bud' }]
}

export default function AccountPage({ loaderData, actionData }: Route.ComponentProps) {
  // A fetcher keeps its reply when live updates reload the page (actionData would be cleared);
  // without JavaScript the form posts normally and the reply arrives as actionData.
  const fetcher = useFetcher<typeof action>({ key: 'account' })
  const reply = fetcher.data ?? (actionData?.form === 'profile' ? actionData : undefined)
  const saving = fetcher.state !== 'idle'
  const [searchParams] = useSearchParams()
  const profile = loaderData.profile
  const [form, fields] = useForm<z.infer<typeof AccountSchema>>({
    id: 'account',
    lastResult: saving ? undefined : reply?.result,
    defaultValue: profile ?? undefined,
    constraint: getZodConstraint(AccountSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AccountSchema }),
  })
  if (!profile) {
    return <Alert tone="error">We couldn't load your profile. Please try signing out and back in.</Alert>
  }
  // The landing of the link in the new inbox; a save on this page replaces its message.
  const linkError = reply ? null : searchParams.get('error')
  const emailUpdated = !reply && !linkError && searchParams.get('email') === 'updated'
  const text = (
    name: keyof typeof fields,
    label: string,
    autoComplete: string,
    type: 'text' | 'tel' | 'email' = 'text',
    hint?: string,
  ) => (
    <Field
      label={label}
      errors={fields[name].errors}
      hint={hint}
      inputProps={{ ...getInputProps(fields[name], { type }), autoComplete }}
    />
  )
  return (
    <Card className="mx-auto max-w-2xl space-y-5">
      <h1 className="text-2xl font-bold">My Account</h1>
      {emailUpdated ? (
        <Alert tone="success" className="wrap-anywhere">
          Email updated. You now log in with {profile.email}.
        </Alert>
      ) : null}
      {linkError ? (
        <Alert tone="error" className="wrap-anywhere">
          {emailLinkError(linkError, profile.email)}
        </Alert>
      ) : null}
      <fetcher.Form method="post" {...getFormProps(form)} className="space-y-4">
        {text('fullName', 'Full name', 'name')}
        {text(
          'email',
          'Email',
          'email',
          'email',
          'You log in with this address. A new one applies once you follow the link we email to it.',
        )}
        {text('phone', 'Phone', 'tel', 'tel')}
        {text('addressLine1', 'Address line 1', 'address-line1')}
        {text('addressLine2', 'Address line 2', 'address-line2')}
        <div className="grid gap-4 sm:grid-cols-2">
          {text('city', 'City', 'address-level2')}
          {text('state', 'State / Province', 'address-level1')}
          {text('postalCode', 'Postal code', 'postal-code')}
          {text('country', 'Country', 'country-name')}
        </div>
        {form.errors ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
        {reply?.notice && !saving ? (
          <Alert tone="success" className="wrap-anywhere">
            <p>{reply.notice}</p>
            {reply.pendingEmail ? (
              <p>We sent a confirmation link to {reply.pendingEmail}. Your sign-in email changes once you follow it.</p>
            ) : null}
          </Alert>
        ) : null}
        <Button type="submit" pending={saving} pendingLabel="Saving…">
          Save changes
        </Button>
      </fetcher.Form>
      {loaderData.calendarFeed ? (
        <CalendarFeedSection
          active={loaderData.calendarFeed.active}
          pageReply={actionData?.form === 'feed' ? actionData : undefined}
        />
      ) : null}
      <ChangePasswordForm pageReply={actionData?.form === 'password' ? actionData : undefined} />
    </Card>
  )
}

function ChangePasswordForm({ pageReply }: { pageReply: Reply | undefined }) {
  const fetcher = useFetcher<typeof action>({ key: 'change-password' })
  const reply = fetcher.data ?? pageReply
  const saving = fetcher.state !== 'idle'
  const [form, fields] = useForm<z.infer<typeof ChangePasswordSchema>>({
    id: 'change-password',
    lastResult: saving ? undefined : reply?.result,
    constraint: getZodConstraint(ChangePasswordSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
  })
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="space-y-4 border-t border-slate-200 pt-5">
      <h2 className="text-lg font-semibold">Change password</h2>
      <input type="hidden" name="intent" value="change-password" />
      <PasswordField
        label="Current password"
        errors={fields.currentPassword.errors}
        inputProps={{
          ...getInputProps(fields.currentPassword, { type: 'password' }),
          autoComplete: 'current-password',
        }}
      />
      <NewPasswordFields
        password={fields.password}
        confirmPassword={fields.confirmPassword}
        passwordLabel="New password"
        confirmLabel="Confirm new password"
      />
      {form.errors ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
      {reply?.notice && !saving ? <Alert tone="success">{reply.notice}</Alert> : null}
      <Button type="submit" pending={saving} pendingLabel="Changing password…">
        Change password
      </Button>
    </fetcher.Form>
  )
}

/**
 * "Calendar feed" (OPERATIONS §4): the technician's secret `.ics` link. Only its hash is stored, so the full URL is
 * shown once, right after it is made; afterwards the page can only say that a link is active and offer a new one.
 */
function CalendarFeedSection({ active, pageReply }: { active: boolean; pageReply: Reply | undefined }) {
  const fetcher = useFetcher<typeof action>({ key: 'calendar-feed' })
  const reply = fetcher.data ?? pageReply
  const busy = fetcher.state !== 'idle'
  const pendingIntent = busy ? fetcher.formData?.get('intent') : null
  const [confirming, setConfirming] = useState(false)
  const [form] = useForm<z.infer<typeof CalendarFeedSchema>>({
    id: 'calendar-feed',
    lastResult: busy ? undefined : reply?.result,
  })
  const feedUrl = busy ? null : (reply?.feedUrl ?? null)
  return (
    <section aria-labelledby="calendar-feed-title" className="space-y-4 border-t border-slate-200 pt-5">
      <h2 id="calendar-feed-title" className="text-lg font-semibold">
        Calendar feed
      </h2>
      {feedUrl ? (
        <FeedLink url={feedUrl} />
      ) : active ? (
        <p className="text-sm text-slate-700">Your calendar link is active.</p>
      ) : (
        <p className="text-sm text-slate-700">
          See your visits in your phone's calendar: create a private link and subscribe to it there.
        </p>
      )}
      {form.errors ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
      {!active && !feedUrl ? (
        <fetcher.Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="create-feed" />
          <Button type="submit" pending={pendingIntent === 'create-feed'} pendingLabel="Creating link…">
            Create calendar link
          </Button>
        </fetcher.Form>
      ) : confirming ? (
        <fetcher.Form method="post" {...getFormProps(form)} className="space-y-2" onSubmit={() => setConfirming(false)}>
          <input type="hidden" name="intent" value="reset-feed" />
          <p className="text-sm text-slate-700">
            Reset your calendar link? The old link stops working: calendars subscribed to it stop updating until you add
            the new one.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger">
              Yes, reset link
            </Button>
            <Button type="button" variant="ghost" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        </fetcher.Form>
      ) : (
        <Button
          type="button"
          variant="secondary"
          pending={pendingIntent === 'reset-feed'}
          pendingLabel="Resetting link…"
          onClick={() => setConfirming(true)}
        >
          Reset link
        </Button>
      )}
    </section>
  )
}

/** The new link, read-only, with "Copy"; where the clipboard is not allowed the text is selected to copy by hand. */
function FeedLink({ url }: { url: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null)
  const select = (input: HTMLInputElement | null) => input?.select()
  const copy = async (event: MouseEvent<HTMLButtonElement>) => {
    const input = event.currentTarget.form?.elements.namedItem('calendar-feed-url') as HTMLInputElement | null
    try {
      await navigator.clipboard.writeText(url)
      setCopied('yes')
    } catch {
      select(input)
      setCopied('no')
    }
  }
  return (
    <form className="space-y-2" onSubmit={(event) => event.preventDefault()}>
      <label htmlFor="calendar-feed-url" className="block text-sm font-medium text-slate-800">
        Your calendar link
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id="calendar-feed-url"
          name="calendar-feed-url"
          type="text"
          readOnly
          value={url}
          onFocus={(event) => select(event.currentTarget)}
          aria-describedby="calendar-feed-url-hint"
          className={`${inputClass} min-w-0 flex-1 font-mono text-xs`}
        />
        <Button type="button" variant="secondary" onClick={copy}>
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p id="calendar-feed-url-hint" className="text-sm text-slate-700">
        Add this link to your phone's calendar as a subscription. It is shown only now; if you lose it, reset it.
      </p>
      <p aria-live="polite" className="text-sm text-slate-700">
        {copied === 'no' ? 'Copying is not allowed here: the link is selected, copy it by hand.' : null}
      </p>
    </form>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
