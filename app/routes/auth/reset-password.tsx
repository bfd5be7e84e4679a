import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, useNavigation } from 'react-router'
import { callAuthEndpoint, cookieHeaders } from '~/auth/better-auth.server'
import { PasswordField } from '~/components/password-input'
import { RedirectAfter } from '~/components/redirect-after'
import { Alert } from '~/components/ui/alert'
import { Button, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { FormErrors, useZodForm } from '~/components/ui/form'
import { BackToLoginLink } from '~/features/auth/password-reset-form'
import { ResetPasswordSchema } from '~/features/auth/password-reset-schema'
import { readForm } from '~/utils/forms'
import type { Route } from './+types/reset-password'

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url)
  // better-auth's link lands here with ?token=… (or ?error=INVALID_TOKEN when it is used or expired).
  return { token: url.searchParams.get('token'), invalid: url.searchParams.has('error') }
}

export async function action({ request }: Route.ActionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: ResetPasswordSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), done: false }, 400)
  }
  const result = await callAuthEndpoint(request, '/reset-password', {
    newPassword: submission.value.password,
    token: submission.value.token,
  })
  if (!result?.ok) {
    const message =
      result?.code === 'INVALID_TOKEN'
        ? 'This reset link is invalid or has already been used. Ask for a new one.'
        : result?.status === 429
          ? 'Too many attempts. Wait a minute, then try again.'
          : 'Unable to update password. Try again.'
    return data(
      { result: submission.reply({ formErrors: [message], hideFields: ['password', 'confirmPassword'] }), done: false },
      400,
    )
  }
  // Every session of that account was revoked with the reset; this browser is signed out too.
  const signOut = await callAuthEndpoint(request, '/sign-out', {})
  return data(
    { result: submission.reply({ resetForm: true }), done: true },
    { headers: signOut ? cookieHeaders(signOut.response) : undefined },
  )
}

export function meta() {
  return [{ title: 'Choose a new password · Pool Bud' }]
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const [form, fields] = useZodForm(ResetPasswordSchema, { id: 'reset-password', lastResult: actionData?.result })
  if (actionData?.done) {
    return (
      <Card className="space-y-4">
        <h1 className="text-2xl font-bold">Password updated</h1>
        <Alert tone="success">Password updated. You can now log in with your new credentials.</Alert>
        <RedirectAfter to="/login" ms={4000} label="Go to login now" />
      </Card>
    )
  }

  if (!loaderData.token || loaderData.invalid) {
    return (
      <Card className="space-y-4">
        <h1 className="text-2xl font-bold">Reset link needed</h1>
        <p className="text-slate-700">
          {loaderData.invalid
            ? 'This reset link is invalid, has expired or has already been used.'
            : 'This page only works from the link in a password reset email.'}{' '}
          Ask for a new link and open it from your inbox.
        </p>
        <ButtonLink to="/forgot-password" className="w-full">
          Send me a reset link
        </ButtonLink>
        <BackToLoginLink />
      </Card>
    )
  }

  return (
    <Card className="space-y-5">
      <h1 className="text-2xl font-bold">Choose a new password</h1>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="token" value={loaderData.token} />
        <PasswordField field={fields.password} label="New password" autoComplete="new-password" autoFocus />
        <PasswordField field={fields.confirmPassword} label="Confirm new password" autoComplete="new-password" />
        <FormErrors form={form} />
        <Button type="submit" className="w-full" pending={navigation.state !== 'idle'} pendingLabel="Updating…">
          Update password
        </Button>
      </Form>
      {/* A way back for someone who remembered their password after all (issue 16). */}
      <p className="text-center">
        <BackToLoginLink />
      </p>
    </Card>
  )
}
