import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { requireUnfinishedStaff } from '~/auth/guards.server'
import { setUserPassword } from '~/auth/passwords.server'
import { LogoutButton } from '~/components/logout-button'
import { NewPasswordFields } from '~/components/password-input'
import { Alert } from '~/components/ui/alert'
import { Card } from '~/components/ui/card'
import { Field, TextField } from '~/components/ui/field'
import { useZodForm } from '~/components/ui/form'
import { contactValues, WelcomeSchema } from '~/features/account/account-schema'
import { AddressFields } from '~/features/account/profile-fields'
import { SetupDone, SetupSubmit, stayOnSetupDone } from '~/features/auth/setup-page'
import { updateOwnProfile } from '~/models/profile.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { readForm } from '~/utils/forms'
import { logger } from '~/utils/logger.server'
import { ROLE_LABELS } from '~/utils/permissions'
import type { Route } from './+types/welcome'

export async function loader({ request }: Route.LoaderArgs) {
  const { user, profile } = await requireUnfinishedStaff(request)
  if (!profile) return { profile: null, roleLabel: null, email: user.email }
  return {
    email: user.email,
    roleLabel: profile.role ? ROLE_LABELS[profile.role] : null,
    profile: { fullName: profile.fullName ?? '', ...contactValues(profile) },
  }
}

export async function action({ request }: Route.ActionArgs) {
  const { user, profile } = await requireUnfinishedStaff(request)
  const submission = parseWithZod(await readForm(request), { schema: WelcomeSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), done: false }, 400)
  }
  if (!profile) {
    return data(
      {
        result: submission.reply({
          formErrors: ["We couldn't find your profile details. Try signing out and opening the invite link again."],
        }),
        done: false,
      },
      400,
    )
  }
  const { password, confirmPassword: _confirm, ...details } = submission.value
  try {
    await setUserPassword(user.id, password)
    await updateOwnProfile(user.id, { ...details, hasCompletedSetup: true })
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, userId: user.id }, 'staff setup failed')
    return data({ result: submission.reply({ formErrors: ['Unable to complete setup.'] }), done: false }, 500)
  }
  return { result: submission.reply(), done: true }
}

export const shouldRevalidate = stayOnSetupDone

export function meta() {
  return [{ title: 'Welcome · Pool Bud' }]
}

export default function WelcomePage({ loaderData, actionData }: Route.ComponentProps) {
  const profile = loaderData.profile
  const [form, fields] = useZodForm(WelcomeSchema, {
    id: 'welcome',
    lastResult: actionData?.result,
    defaultValue: profile ?? undefined,
  })

  if (actionData?.done) return <SetupDone to="/app" label="Go to your dashboard" />
  if (!profile) {
    return (
      <Card className="space-y-3">
        <h1 className="text-2xl font-bold">Welcome to Pool Bud</h1>
        <Alert tone="error">
          We couldn't find your profile details. Try signing out and opening the invite link again.
        </Alert>
        <LogoutButton variant="secondary" />
      </Card>
    )
  }

  return (
    <Card className="space-y-5">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Welcome to Pool Bud</h1>
        <p className="text-sm text-slate-600">
          {loaderData.roleLabel ? `You have been added as ${loaderData.roleLabel}. ` : ''}Check your details and set a
          password to finish setting up your account.
        </p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <TextField field={fields.fullName} label="Full name" autoComplete="name" />
        <Field
          label="Email"
          hint="This is the email you log in with. You can change it later from My Account."
          inputProps={{
            name: 'email',
            type: 'email',
            value: loaderData.email,
            readOnly: true,
            className: 'bg-slate-100',
          }}
        />
        <TextField field={fields.phone} label="Phone" autoComplete="tel" type="tel" />
        {/* The password is what setup needs; the address is optional and comes after it (issue 16 item 9). */}
        <NewPasswordFields
          password={fields.password}
          confirmPassword={fields.confirmPassword}
          passwordLabel="Create password"
        />
        <fieldset className="space-y-4">
          <legend className="mb-2 text-sm font-semibold text-slate-800">Address (optional)</legend>
          <AddressFields fields={fields} />
        </fieldset>
        <SetupSubmit form={form}>Complete setup</SetupSubmit>
      </Form>
    </Card>
  )
}
