import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, useNavigation, useSearchParams } from 'react-router'
import { z } from 'zod'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Field } from '~/components/ui/field'
import { updateOwnProfile } from '~/models/profile.server'
import { callAuthEndpoint } from '~/utils/auth.server'
import { EmailSchema, optionalText } from '~/utils/forms'
import { requireCapability } from '~/utils/permissions.server'
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

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCapability(request, 'account:edit')
  const p = user.profile
  if (!p) return { profile: null }
  return {
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

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCapability(request, 'account:edit')
  const submission = parseWithZod(await request.formData(), { schema: AccountSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), notice: null }, 400)
  if (!user.profile)
    return data({ result: submission.reply({ formErrors: ['Profile not loaded.'] }), notice: null }, 400)
  const { email, ...details } = submission.value
  try {
    await updateOwnProfile(user.id, details)
  } catch {
    return data({ result: submission.reply({ formErrors: ['Unable to save your profile.'] }), notice: null }, 500)
  }
  if (email === user.email.toLowerCase()) return { result: submission.reply(), notice: 'Profile updated.' }

  // The sign-in email changes only after the current address confirms and the new one is verified.
  const change = await callAuthEndpoint(request, '/change-email', {
    newEmail: email,
    callbackURL: '/app/account?emailChanged=1',
  }).catch(() => null)
  if (!change?.ok) {
    const reason = change?.message ? ` ${change.message}.`.replace(/\.\.$/, '.') : ''
    return data(
      {
        result: submission.reply({ formErrors: [`Profile updated, but your email was not changed.${reason}`] }),
        notice: null,
      },
      400,
    )
  }
  return {
    result: submission.reply(),
    notice: `Profile updated. We sent a confirmation link to ${user.email}; your sign-in email changes to ${email} once you confirm it.`,
  }
}

export function meta() {
  return [{ title: 'My Account · Pool Bud' }]
}

export default function AccountPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const [searchParams] = useSearchParams()
  const profile = loaderData.profile
  const [form, fields] = useForm<z.infer<typeof AccountSchema>>({
    id: 'account',
    lastResult: actionData?.result,
    defaultValue: profile ?? undefined,
    constraint: getZodConstraint(AccountSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AccountSchema }),
  })
  if (!profile) {
    return <Alert tone="error">We couldn't load your profile. Please try signing out and back in.</Alert>
  }
  const text = (
    name: keyof typeof fields,
    label: string,
    autoComplete: string,
    type: 'text' | 'tel' | 'email' = 'text',
  ) => (
    <Field
      label={label}
      errors={fields[name].errors}
      inputProps={{ ...getInputProps(fields[name], { type }), autoComplete }}
    />
  )
  return (
    <Card className="mx-auto max-w-2xl space-y-5">
      <h1 className="text-2xl font-bold">My Account</h1>
      {searchParams.get('emailChanged') === '1' ? (
        <Alert tone="success">Email change confirmed. Check your new inbox for the last verification link.</Alert>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {text('fullName', 'Full name', 'name')}
        {text('email', 'Email', 'email', 'email')}
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
        {actionData?.notice && navigation.state === 'idle' ? <Alert tone="success">{actionData.notice}</Alert> : null}
        <Button type="submit" pending={navigation.state !== 'idle'} pendingLabel="Saving…">
          Save changes
        </Button>
      </Form>
    </Card>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
