// /app/customers/new: "Add customer" — the account holder, their first service location and its first body of water
// in one form (docs/product.md "Customers": the form has its own page, not above the list). Saving opens the new
// record; an email given here sends the portal invitation (docs/product.md "Forms"), whose outcome is said with
// "Customer saved.".
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { data, Form, Link, useNavigation } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { RouteError } from '~/components/route-error'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { FormErrors, useZodForm } from '~/components/ui/form'
import { textLinkTarget } from '~/components/ui/touch'
import { BodyOfWaterFields, ContactFields, LocationFields, parseCustomerForm } from '~/features/customers/form-fields'
import { sendPortalInvite } from '~/features/customers/portal-invite.server'
import { saveOnce } from '~/features/forms/save-once.server'
import { createCustomerWithLocation } from '~/models/customer-changes.server'
import { AddCustomerSchema } from '~/models/customer-schemas'
import { redirectWithFlash } from '~/utils/flash.server'
import { readForm } from '~/utils/forms'
import type { Route } from './+types/customer-new'

export async function loader({ request }: Route.LoaderArgs) {
  await requireCompanyCapability(request, 'customers:manage')
  // The idempotency key of this form: a new one for every page load.
  return { formKey: crypto.randomUUID() }
}

export async function action({ request }: Route.ActionArgs) {
  const { companyId, id: userId } = await requireCompanyCapability(request, 'customers:manage')
  const formData = await readForm(request)
  const submission = parseCustomerForm(formData, AddCustomerSchema)
  if (submission.status !== 'success') return data({ result: submission.reply() }, 400)

  // The same form sent again (same key) creates the customer once, and invites once.
  const created = await saveOnce(
    {
      formData,
      submission,
      companyId,
      userId,
      target: companyId,
      action: 'customer.create',
      failedMessage: 'Unable to save customer.',
    },
    async (tx) => {
      const result = await createCustomerWithLocation(companyId, submission.value, tx)
      return result.ok ? { ok: true as const, customerId: result.customerId } : result
    },
  )
  if (!created.ok) return data({ result: created.result }, created.status)

  const to = `/app/customers/${created.customerId}`
  if ('replayed' in created || !submission.value.email) return redirectWithFlash(to, 'Customer saved.')
  const invite = await sendPortalInvite(companyId, created.customerId)
  // The customer is saved either way; the invitation's outcome is said with it.
  return redirectWithFlash(
    to,
    invite.ok
      ? `Customer saved. ${invite.message}`
      : { tone: 'error', text: `Customer saved. Portal invite not sent: ${invite.message}` },
  )
}

export function meta() {
  return [{ title: 'Add customer · Pool Bud' }]
}

export default function AddCustomerPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <Link to="/app/customers" className={cn('text-sm font-medium text-brand-700 hover:underline', textLinkTarget)}>
        ← Customers
      </Link>
      <h1 className="text-2xl font-bold">Add customer</h1>
      <AddCustomerForm formKey={loaderData.formKey} lastResult={actionData?.result} />
    </div>
  )
}

function AddCustomerForm({
  formKey,
  lastResult,
}: {
  formKey: string
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formAction === '/app/customers/new'
  const idempotencyKey = useIdempotencyKey(formKey, null)
  const [form, fields] = useZodForm(AddCustomerSchema, {
    id: 'add-customer',
    lastResult,
    defaultValue: { location: { minutesOnSite: '30' }, bodyOfWater: { name: 'Pool' } },
    shouldValidate: 'onBlur',
    parse: (formData) => parseCustomerForm(formData, AddCustomerSchema),
  })
  const location = fields.location.getFieldset()
  const body = fields.bodyOfWater.getFieldset()
  return (
    <Form method="post" action="/app/customers/new" {...getFormProps(form)} className="space-y-4">
      <IdempotencyKeyInput value={idempotencyKey} />
      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">Contact</h2>
        <p className="text-sm text-slate-600">We email a portal invitation to new customers who have an email.</p>
        <ContactFields fields={fields} />
      </Card>
      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">Service location</h2>
        <LocationFields fields={location} />
      </Card>
      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">Body of water</h2>
        <BodyOfWaterFields fields={body} />
      </Card>
      <FormErrors form={form} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={saving} pendingLabel="Saving…">
          Add customer
        </Button>
        <Link to="/app/customers" className={buttonClass('secondary')}>
          Cancel
        </Link>
      </div>
    </Form>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
