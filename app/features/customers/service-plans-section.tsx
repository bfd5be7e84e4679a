// A service location's plans on the customer record: each in one line, "Add service plan", and "End plan" on each
// current one. Forms open in place by a link (`?add=plan:…`, `?edit=end-plan:…`), as the record's other forms do.
import { Link } from 'react-router'
import { TextField } from '~/components/ui/field'
import { EndPlanSchema } from '~/models/service-plan-schemas'
import type { RecordActionData } from './customer-record-schema'
import { ListHeading, RecordFormFrame, recordLinkClass, useRecordForm } from './record-form'
import { ServicePlanForm, type TechnicianOption } from './service-plan-form'

export type PlanItem = { id: string; summary: string; current: boolean }

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
      <ListHeading
        add={
          location.archived || adding
            ? null
            : { to: `?add=plan:${location.id}`, label: 'Add service plan', context: `at ${location.address}` }
        }
      >
        <h4 className="font-semibold">Service plans</h4>
      </ListHeading>
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
                  <Link to={`?edit=end-plan:${plan.id}`} className={recordLinkClass} preventScrollReset>
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
  const { fields, frame } = useRecordForm({
    intent: 'end-plan',
    targetId: planId,
    schema: EndPlanSchema,
    defaultValue: { endsOn: today },
    actionData,
  })
  return (
    <RecordFormFrame
      {...frame}
      submit="End plan"
      pendingLabel="Ending…"
      variant="danger"
      cancel="Keep plan"
      className="space-y-3 rounded-lg border border-slate-200 p-4"
    >
      <TextField field={fields.endsOn} label="Ends on" type="date" autoComplete="off" />
      <p className="text-slate-700">
        Untouched visits after this date are removed. Visits that were moved, skipped or completed stay.
      </p>
    </RecordFormFrame>
  )
}
