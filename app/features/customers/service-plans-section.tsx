// A service location's plans on the customer record: each in one line, "Add service plan", and "End plan" on each
// current one. Forms open in place by a link (`?add=plan:…`, `?edit=end-plan:…`), as the record's other forms do.
import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { parseCustomerForm, TextInput } from '~/features/customers/form-fields'
import { EndPlanSchema } from '~/models/service-plan-schemas'
import { type RecordActionData, ServicePlanForm, type TechnicianOption } from './service-plan-form'

export type PlanItem = { id: string; summary: string; current: boolean }

const linkClass = 'inline-flex min-h-11 items-center rounded-lg px-2 text-sm font-medium text-brand-700 hover:underline'

export function ServicePlansSection({
  location,
  open,
  technicians,
  today,
  actionData,
}: {
  location: { id: string; address: string; archived: boolean; plans: readonly PlanItem[] }
  open: { add: string; edit: string }
  technicians: readonly TechnicianOption[]
  today: string
  actionData: RecordActionData
}) {
  const adding = open.add === `plan:${location.id}`
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="font-semibold">Service plans</h4>
        {!location.archived && !adding ? (
          <Link to={`?add=plan:${location.id}`} className={linkClass} preventScrollReset>
            Add service plan<span className="sr-only"> at {location.address}</span>
          </Link>
        ) : null}
      </div>
      {adding ? (
        <div className="rounded-lg border border-slate-200 p-4">
          <ServicePlanForm
            locationId={location.id}
            address={location.address}
            technicians={technicians}
            today={today}
            actionData={actionData}
          />
        </div>
      ) : null}
      {location.plans.length === 0 ? (
        <p className="text-sm text-slate-600">No service plan</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm text-slate-700">
          {location.plans.map((plan) => (
            <li key={plan.id} className="space-y-2 py-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="min-w-0 break-words">
                  {plan.summary}
                  {plan.current ? null : <span className="ml-2 text-slate-500">(ended)</span>}
                </p>
                {plan.current && !location.archived && open.edit !== `end-plan:${plan.id}` ? (
                  <Link to={`?edit=end-plan:${plan.id}`} className={linkClass} preventScrollReset>
                    End plan<span className="sr-only">: {plan.summary}</span>
                  </Link>
                ) : null}
              </div>
              {open.edit === `end-plan:${plan.id}` ? (
                <EndPlanForm planId={plan.id} today={today} actionData={actionData} />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** "End plan": its last day (today unless changed), and what happens to the visits after it, before it is done. */
function EndPlanForm({ planId, today, actionData }: { planId: string; today: string; actionData: RecordActionData }) {
  const navigation = useNavigation()
  const ending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'end-plan'
  const mine = actionData?.intent === 'end-plan' && actionData.target === planId
  const [form, fields] = useForm({
    id: `end-plan-${planId}`,
    lastResult: mine ? actionData.result : undefined,
    defaultValue: { endsOn: today },
    constraint: getZodConstraint(EndPlanSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseCustomerForm(formData, EndPlanSchema),
  })
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="space-y-3 rounded-lg border border-slate-200 p-4"
      preventScrollReset
    >
      <input type="hidden" name="intent" value="end-plan" />
      <input type="hidden" name="targetId" value={planId} />
      <TextInput field={fields.endsOn} label="Ends on" type="date" />
      <p className="text-slate-700">
        Untouched visits after this date are removed. Visits that were moved, skipped or completed stay.
      </p>
      {form.errors ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" pending={ending} pendingLabel="Ending…">
          End plan
        </Button>
        <Link to="." className={buttonClass('secondary')} preventScrollReset>
          Keep plan
        </Link>
      </div>
    </Form>
  )
}
