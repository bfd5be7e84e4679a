import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { eq } from 'drizzle-orm'
import { data, Form } from 'react-router'
import { requireCustomerInSetup } from '~/auth/guards.server'
import { setUserPassword } from '~/auth/passwords.server'
import { NewPasswordFields } from '~/components/password-input'
import { Alert } from '~/components/ui/alert'
import { Card } from '~/components/ui/card'
import { TextField } from '~/components/ui/field'
import { useZodForm } from '~/components/ui/form'
import { profiles } from '~/db/schema'
import { CustomerSetupSchema } from '~/features/auth/customer-setup-schema'
import { SetupDone, SetupSubmit, stayOnSetupDone } from '~/features/auth/setup-page'
import { getOwnCustomerForSetup, saveCustomerSetup } from '~/models/customer.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { db } from '~/utils/db.server'
import { readForm } from '~/utils/forms'
import { logger } from '~/utils/logger.server'
import { formatPhone } from '~/utils/phone'
import type { Route } from './+types/customer-setup'

const NOT_FOUND = 'We could not find your customer record. Contact your service provider for help.'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCustomerInSetup(request)
  const customerId = new URL(request.url).searchParams.get('customerId')
  if (!customerId) return { state: 'missing-id' as const }
  const customer = await getOwnCustomerForSetup(user.id, customerId)
  if (!customer) return { state: 'not-found' as const }
  return {
    state: 'form' as const,
    customerId: customer.id,
    defaults: {
      fullName: user.profile?.fullName ?? customer.name,
      phone: customer.phone ? formatPhone(customer.phone) : '',
      address: customer.address,
    },
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCustomerInSetup(request)
  const customerId = new URL(request.url).searchParams.get('customerId')
  const submission = parseWithZod(await readForm(request), { schema: CustomerSetupSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), done: null }, 400)
  }
  const customer = await getOwnCustomerForSetup(user.id, customerId)
  if (!customer) return data({ result: submission.reply({ formErrors: [NOT_FOUND] }), done: null }, 404)
  const { fullName, phone, address, password } = submission.value
  try {
    await setUserPassword(user.id, password)
    await db().transaction(async (tx) => {
      await saveCustomerSetup(tx, { companyId: customer.companyId, customerId: customer.id, phone, address })
      await tx.update(profiles).set({ fullName, phone, hasCompletedSetup: true }).where(eq(profiles.id, user.id))
    })
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, customerId: customer.id }, 'customer setup failed')
    return data({ result: submission.reply({ formErrors: ['Unable to finish setup.'] }), done: null }, 500)
  }
  return { result: submission.reply(), done: `/customer/${customer.id}` }
}

/** After a successful setup, stay to show 'Setup complete! Redirecting…' (the loader would redirect at once). */
export const shouldRevalidate = stayOnSetupDone

export function meta() {
  return [{ title: 'Customer setup · Pool Bud' }]
}

export default function CustomerSetupPage({ loaderData, actionData }: Route.ComponentProps) {
  const defaults = loaderData.state === 'form' ? loaderData.defaults : undefined
  const [form, fields] = useZodForm(CustomerSetupSchema, {
    id: 'customer-setup',
    lastResult: actionData?.result,
    defaultValue: defaults,
  })

  if (actionData?.done) return <SetupDone to={actionData.done} label="Go to your portal" />
  if (loaderData.state === 'missing-id') {
    return (
      <Card className="space-y-3">
        <h1 className="text-2xl font-bold">Customer setup</h1>
        <Alert tone="error">Missing customer ID in link.</Alert>
        <p className="text-slate-700">Missing customer ID. Please use the link in your email invite.</p>
      </Card>
    )
  }
  if (loaderData.state === 'not-found') {
    return (
      <Card className="space-y-3">
        <h1 className="text-2xl font-bold">Customer setup</h1>
        <Alert tone="error">{NOT_FOUND}</Alert>
      </Card>
    )
  }
  return (
    <Card className="space-y-5">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Set up your pool portal</h1>
        <p className="text-sm text-slate-600">
          Check your details and choose a password. Next time, log in with your email and this password.
        </p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <TextField field={fields.fullName} label="Full name" autoComplete="name" />
        <TextField field={fields.phone} label="Phone" type="tel" autoComplete="tel" />
        <TextField field={fields.address} label="Service address" autoComplete="street-address" />
        <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
        <SetupSubmit form={form}>Finish setup</SetupSubmit>
      </Form>
    </Card>
  )
}
