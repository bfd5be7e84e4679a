import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, useNavigation } from 'react-router'
import { CLIENT_IP_HEADER } from '~/auth/better-auth.server'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { TextField } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import { BackToLoginLink } from '~/features/auth/password-reset-form'
import { ForgotPasswordSchema } from '~/features/auth/password-reset-schema'
import { requestPasswordReset } from '~/models/password-reset.server'
import { readForm } from '~/utils/forms'
import { failureStatus } from '~/utils/result'
import type { Route } from './+types/forgot-password'

export async function action({ request }: Route.ActionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: ForgotPasswordSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), submitted: false }, 400)
  // The same work and the same answer whether or not the account exists: the outbox worker looks it up later.
  const result = await requestPasswordReset({
    email: submission.value.email,
    // Set by our server from the socket (absent only under the Vite dev server, which then shares one bucket).
    clientIp: request.headers.get(CLIENT_IP_HEADER) ?? 'unknown',
  })
  if (!result.ok) {
    return data({ result: submission.reply({ formErrors: [result.message] }), submitted: false }, failureStatus(result))
  }
  return { result: submission.reply(), submitted: true }
}

export function meta() {
  return [
    { title: 'Reset your password · Pool Bud' },
    { name: 'description', content: 'Get a link to choose a new Pool Bud password.' },
  ]
}

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const [form, fields] = useZodForm(ForgotPasswordSchema, { id: 'forgot-password', lastResult: actionData?.result })
  if (actionData?.submitted) {
    return (
      <Card className="space-y-4">
        <h1 className="text-2xl font-bold">Check your email</h1>
        <p role="status" className="text-slate-700">
          If an account exists for that email, we sent it a link to reset your password. The link works once and expires
          in 1 hour.
        </p>
        <BackToLoginLink />
      </Card>
    )
  }
  return (
    <Card className="space-y-5">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Forgot your password?</h1>
        <p className="text-sm text-slate-600">Enter the email you log in with and we will send you a reset link.</p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" autoFocus />
        <FormErrors form={form} />
        <Button type="submit" className="w-full" pending={navigation.state !== 'idle'} pendingLabel="Sending…">
          Send reset link
        </Button>
      </Form>
      <BackToLoginLink />
    </Card>
  )
}
