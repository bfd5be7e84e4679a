import { type FormMetadata, getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ReactNode, useEffect } from 'react'
import { data, Form, Link, redirect, useSearchParams } from 'react-router'
import { ACCOUNT_DEACTIVATED, callAuthEndpoint, cookieHeaders, DEACTIVATED_MESSAGE } from '~/auth/better-auth.server'
import { getSessionUser, homePathFor, safeRedirectPath } from '~/auth/guards.server'
import { hasOwnerCookie, ownerCookieDeletion } from '~/auth/offline-owner.server'
import { planNamed } from '~/components/marketing/nav-links'
import { NewPasswordFields, PasswordField } from '~/components/password-input'
import { Alert } from '~/components/ui/alert'
import { Button, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { type ConformField, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { verifyLinkLanding } from '~/features/auth/link-landing.server'
import { AuthSchema, LoginSchema, SignupSchema } from '~/features/auth/login-schema'
import { clearOfflineCopies } from '~/field/offline-app.client'
import { getProfile } from '~/models/profile.server'
import { redirectWithFlash } from '~/utils/flash.server'
import { readForm } from '~/utils/forms'
import { logger } from '~/utils/logger.server'
import { SIGN_IN_LOCKED } from '~/utils/sign-in-limits.server'
import { TRIAL_DAYS } from '~/utils/trial'
import type { Route } from './+types/login'

/** /login with the given parameters; a return path is kept only when it stays on this site. */
/** A link below the form: a full 44 px touch target, though it reads as a text link. */
const authLink = 'inline-flex min-h-11 items-center font-medium text-brand-700 underline-offset-2 hover:underline'

function loginPath(params: { mode?: string; verified?: string; redirectTo?: string | null }) {
  const search = new URLSearchParams()
  if (params.mode) search.set('mode', params.mode)
  if (params.verified) search.set('verified', params.verified)
  // The server re-checks the return path with safeRedirectPath before following it.
  const redirectTo = params.redirectTo ?? ''
  if (redirectTo.startsWith('/') && !redirectTo.startsWith('//')) search.set('redirectTo', redirectTo)
  const query = search.toString()
  return query ? `/login?${query}` : '/login'
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request)
  const url = new URL(request.url)
  // The sign-up confirmation link lands here (better-auth's callback): its outcome is said once.
  const landing = verifyLinkLanding(url)
  if (user) {
    const home = safeRedirectPath(url.searchParams.get('redirectTo'), await homePathFor(user))
    if (landing) return redirectWithFlash(home, landing.flash)
    throw redirect(home)
  }
  if (landing) return redirectWithFlash(landing.to, landing.flash)
  // Nobody is signed in: the phone's service worker must serve nobody's saved pages (decision 030).
  if (hasOwnerCookie(request)) return data(null, { headers: { 'Set-Cookie': ownerCookieDeletion() } })
  return null
}

function loginFailureMessage(result: { status: number; code?: string; message?: string }) {
  // Refused only after the password matched (auth.server.ts hook), so this tells a guesser nothing.
  if (result.code === ACCOUNT_DEACTIVATED) return DEACTIVATED_MESSAGE
  if (result.code === 'EMAIL_NOT_VERIFIED') {
    return 'Confirm your email address first: we have just sent you a new confirmation link.'
  }
  // Too many wrong passwords for this account or from this network: the message says which, and for how long.
  if (result.code === SIGN_IN_LOCKED && result.message) return result.message
  if (result.status === 429) return 'Too many attempts. Wait a minute, then try again.'
  return result.message ? `${result.message}.`.replace(/\.\.$/, '.') : 'Unable to log in. Try again.'
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: AuthSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), signedUp: false }, 400)
  }
  const value = submission.value

  if (value.intent === 'signup') {
    const result = await callAuthEndpoint(request, '/sign-up/email', {
      email: value.email,
      password: value.password,
      name: value.email.split('@')[0],
      // The confirmation link leads back to the login form, still heading where the visitor was going.
      callbackURL: loginPath({ verified: '1', redirectTo: safeRedirectPath(value.redirectTo, '') }),
    })
    if (!result?.ok) {
      const message = result?.status === 429 ? 'Too many attempts. Wait a minute, then try again.' : result?.message
      return data(
        {
          result: submission.reply({
            formErrors: [message ? `${message}.`.replace(/\.\.$/, '.') : 'Unable to create account. Try again.'],
            hideFields: ['password', 'confirmPassword'],
          }),
          signedUp: false,
        },
        result?.status === 429 ? 429 : 400,
      )
    }
    return { result: submission.reply({ resetForm: true }), signedUp: true }
  }

  const result = await callAuthEndpoint(request, '/sign-in/email', {
    email: value.email,
    password: value.password,
    rememberMe: true,
  })
  if (!result?.ok) {
    if (result?.code === 'EMAIL_NOT_VERIFIED') {
      // A fresh confirmation link is a courtesy: if it cannot be sent, the answer below still says what to do.
      await callAuthEndpoint(request, '/send-verification-email', {
        email: value.email,
        callbackURL: '/login?verified=1',
      }).catch((error: unknown) => logger.warn({ err: error }, 'could not resend the confirmation email'))
    }
    return data(
      {
        result: submission.reply({
          formErrors: [result ? loginFailureMessage(result) : 'Unable to log in. Try again.'],
          hideFields: ['password'],
        }),
        signedUp: false,
      },
      result?.status === 429 ? 429 : result?.code === ACCOUNT_DEACTIVATED ? 403 : 400,
    )
  }
  const body = (await result.response.json()) as { user: { id: string; email: string } }
  const profile = await getProfile(body.user.id)
  const home = await homePathFor({ id: body.user.id, email: body.user.email, profile })
  // A member who still has to finish setup goes there first, wherever they were heading.
  const target = home === '/welcome' ? home : safeRedirectPath(value.redirectTo, home)
  throw redirect(target, { headers: cookieHeaders(result.response) })
}

export function meta({ location }: Route.MetaArgs) {
  const signup = new URLSearchParams(location.search).get('mode') === 'signup'
  return [
    { title: signup ? 'Create your account · Pool Bud' : 'Log in · Pool Bud' },
    { name: 'description', content: 'Log in to Pool Bud, or create an account.' },
  ]
}

export default function LoginPage({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams()
  // Whoever used this phone before is signed out (their session expired, was revoked or its cookie cleared, without
  // "Log out"): their saved pages, data and photos go before anyone signs in (decision 030). Their changes waiting
  // to be sent stay, for them alone (app/field/queue.ts).
  useEffect(() => {
    void clearOfflineCopies()
  }, [])
  if (actionData?.signedUp) return <SignupSuccess redirectTo={searchParams.get('redirectTo')} />
  return searchParams.get('mode') === 'signup' ? (
    <SignupForm key="signup" lastResult={actionData?.result} />
  ) : (
    <LoginForm key="login" lastResult={actionData?.result} />
  )
}

type LastResult = SubmissionResult<string[]> | null | undefined

function LoginForm({ lastResult }: { lastResult: LastResult }) {
  const [searchParams] = useSearchParams()
  const [form, fields] = useZodForm(LoginSchema, { id: 'login', lastResult })
  return (
    <Card className="space-y-5">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Log in</h1>
        <p className="text-sm text-slate-600">Welcome back. Log in to see today’s pools.</p>
      </div>
      {searchParams.get('invite') === 'invalid' ? (
        <Alert tone="error">
          That invitation link has expired or was already used, or a newer invitation replaced it. Log in if you have
          set up your account, or use the newest invitation email.
        </Alert>
      ) : null}
      <AuthForm
        form={form}
        intent="login"
        redirectTo={searchParams.get('redirectTo')}
        email={fields.email}
        submit="Log in"
        pendingLabel="Logging in…"
      >
        <PasswordField field={fields.password} label="Password" autoComplete="current-password" />
      </AuthForm>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <Link to="/forgot-password" className={authLink}>
          Forgot password?
        </Link>
        <Link to={loginPath({ mode: 'signup', redirectTo: searchParams.get('redirectTo') })} className={authLink}>
          Create an account
        </Link>
      </div>
    </Card>
  )
}

function SignupForm({ lastResult }: { lastResult: LastResult }) {
  const [searchParams] = useSearchParams()
  const redirectTo = searchParams.get('redirectTo')
  const [form, fields] = useZodForm(SignupSchema, { id: 'signup', lastResult })
  // Heading for /start: an owner starting a company (from the marketing pages), with the plan they chose.
  const startingCompany = redirectTo?.startsWith('/start') ?? false
  const plan = startingCompany ? planNamed(new URL(redirectTo as string, 'http://x').searchParams.get('plan')) : null
  return (
    <Card className="space-y-5">
      {startingCompany ? (
        <div className="space-y-1">
          <h1 className="text-2xl font-bold">Start your pool company on Pool Bud</h1>
          <p className="text-sm text-slate-600">
            {plan ? `You chose the ${plan} plan. ` : ''}Create your owner account, confirm your email, then name your
            company: your {TRIAL_DAYS}-day free trial starts there, no card needed.
          </p>
        </div>
      ) : (
        <div className="space-y-1">
          <h1 className="text-2xl font-bold">Create your account</h1>
          <p className="text-sm text-slate-600">
            We will email you a link to confirm your address. Your company’s owner or admin then adds you to their team.
          </p>
        </div>
      )}
      <AuthForm
        form={form}
        intent="signup"
        action={loginPath({ mode: 'signup', redirectTo })}
        redirectTo={redirectTo}
        email={fields.email}
        submit="Create account"
        pendingLabel="Creating account…"
      >
        <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
      </AuthForm>
      <p className="text-sm text-slate-600">
        Already have an account?{' '}
        <Link to={loginPath({ redirectTo })} className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Log in
        </Link>
      </p>
    </Card>
  )
}

/** What logging in and signing up share: the intent, where to go next, the email, the form's refusal and its button. */
function AuthForm<Schema extends Record<string, unknown>>({
  form,
  intent,
  action,
  redirectTo,
  email,
  submit,
  pendingLabel,
  children,
}: {
  form: FormMetadata<Schema, string[]>
  intent: 'login' | 'signup'
  action?: string
  redirectTo: string | null
  email: ConformField
  submit: string
  pendingLabel: string
  /** The password field(s). */
  children: ReactNode
}) {
  const pending = usePosting(intent, { untilReloaded: true })
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="redirectTo" value={redirectTo ?? ''} />
      <TextField field={email} label="Email" type="email" autoComplete="email" autoFocus />
      {children}
      <FormErrors form={form} />
      <Button type="submit" className="w-full" pending={pending} pendingLabel={pendingLabel}>
        {submit}
      </Button>
    </Form>
  )
}

function SignupSuccess({ redirectTo }: { redirectTo: string | null }) {
  return (
    <Card className="space-y-4">
      <h1 className="text-2xl font-bold">Check your inbox</h1>
      <p role="status" className="text-slate-700">
        We sent you a confirmation email. Open the link in it to confirm your address, then log in.
      </p>
      <ButtonLink to={loginPath({ redirectTo })} className="w-full">
        Go to login
      </ButtonLink>
    </Card>
  )
}
