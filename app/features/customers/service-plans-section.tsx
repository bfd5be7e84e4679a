// A service location's plans on the customer record: each in one line, "Add service plan", and "Edit plan", "Pause
// plan" (or "Resume now") and "End plan" on each current one. Forms open in place by a link (`?add=plan:…`,
// `?edit=edit-plan:…`), as the record's other forms do. A change that removes visits says how many and asks first
// (docs/decisions/048-…).
import { Form, Link, useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/field'
import { EditPlanSchema, EndPlanSchema, PausePlanSchema } from '~/models/service-plan-schemas'
import type { RecordActionData, RecordIntent } from './customer-record-schema'
import type { PlanDraft } from './plan-suggest-links'
import { ListHeading, RecordFormFrame, RecordTarget, recordLinkClass, useRecordForm } from './record-form'
import { PlanFields, ServicePlanForm, type TechnicianOption } from './service-plan-form'

export type PlanItem = {
  id: string
  summary: string
  current: boolean
  /** "Paused until May 1, 2027", or null. */
  paused: string | null
  /** The plan's next visit date: where "Edit plan" and "Pause plan" start. */
  nextVisit: string
  form: Record<string, string>
}

const PLAN_ACTIONS: { intent: RecordIntent; label: string }[] = [
  { intent: 'edit-plan', label: 'Edit plan' },
  { intent: 'pause-plan', label: 'Pause plan' },
  { intent: 'end-plan', label: 'End plan' },
]

export function ServicePlansSection({
  location,
  open,
  technicians,
  today,
  planDraft,
  actionData,
}: {
  location: { id: string; address: string; archived: boolean; plans: readonly PlanItem[] }
  open: { add: string; edit: string }
  technicians: readonly TechnicianOption[]
  today: string
  /** "Add service plan" as typed, back from the suggestion page. */
  planDraft: PlanDraft
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
            key={JSON.stringify(planDraft)}
            draft={planDraft}
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
                  {plan.paused ? <span className="ml-2 font-medium text-amber-800">{plan.paused}</span> : null}
                </p>
                {plan.current && !location.archived ? (
                  <div className="flex flex-wrap gap-1">
                    {plan.paused ? (
                      <ResumeButton planId={plan.id} summary={plan.summary} actionData={actionData} />
                    ) : null}
                    {PLAN_ACTIONS.filter(
                      (action) =>
                        open.edit !== `${action.intent}:${plan.id}` && !(plan.paused && action.intent === 'pause-plan'),
                    ).map((action) => (
                      <Link
                        key={action.intent}
                        to={`?edit=${action.intent}:${plan.id}`}
                        className={recordLinkClass}
                        preventScrollReset
                      >
                        {action.label}
                        <span className="sr-only">: {plan.summary}</span>
                      </Link>
                    ))}
                  </div>
                ) : null}
              </div>
              {open.edit === `end-plan:${plan.id}` ? (
                <EndPlanForm planId={plan.id} today={today} actionData={actionData} />
              ) : null}
              {open.edit === `edit-plan:${plan.id}` ? (
                <EditPlanForm plan={plan} technicians={technicians} today={today} actionData={actionData} />
              ) : null}
              {open.edit === `pause-plan:${plan.id}` ? (
                <PausePlanForm plan={plan} today={today} actionData={actionData} />
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

/** The question a change that removes visits asked (`confirm`), for the form that posted it. */
function askedToConfirm(actionData: RecordActionData, intent: RecordIntent, planId: string) {
  return actionData?.intent === intent && actionData.target === planId ? (actionData.confirm ?? null) : null
}

/** "Edit plan": the schedule, technician, window and rate, from a date on (the next visit unless changed). */
function EditPlanForm({
  plan,
  technicians,
  today,
  actionData,
}: {
  plan: PlanItem
  technicians: readonly TechnicianOption[]
  today: string
  actionData: RecordActionData
}) {
  const { fields, frame } = useRecordForm({
    intent: 'edit-plan',
    targetId: plan.id,
    schema: EditPlanSchema,
    defaultValue: plan.form,
    actionData,
  })
  const question = askedToConfirm(actionData, 'edit-plan', plan.id)
  return (
    <RecordFormFrame
      {...frame}
      submit={question ? 'Yes, change the plan' : 'Save plan'}
      variant={question ? 'danger' : undefined}
      cancel="Keep plan as it is"
      className="space-y-4 rounded-lg border border-slate-200 p-4"
    >
      <h5 className="font-semibold">Edit plan</h5>
      <div className="grid gap-4 sm:grid-cols-2">
        <PlanFields fields={fields} technicians={technicians} />
        <TextField
          field={fields.from}
          label="From"
          type="date"
          min={today}
          hint="Visits on and after this date follow; moved, skipped and completed ones stay."
          autoComplete="off"
        />
      </div>
      <p className="text-slate-700">A new rate is billed from the first month that starts on or after this date.</p>
      {question ? <ConfirmQuestion question={question} /> : null}
    </RecordFormFrame>
  )
}

/** "Pause plan": from a date (the next visit) until "Resume on"; the visits in between are removed after asking. */
function PausePlanForm({ plan, today, actionData }: { plan: PlanItem; today: string; actionData: RecordActionData }) {
  const { fields, frame } = useRecordForm({
    intent: 'pause-plan',
    targetId: plan.id,
    schema: PausePlanSchema,
    defaultValue: { from: plan.nextVisit, resumeOn: '' },
    actionData,
  })
  const question = askedToConfirm(actionData, 'pause-plan', plan.id)
  return (
    <RecordFormFrame
      {...frame}
      submit={question ? 'Yes, pause the plan' : 'Pause plan'}
      pendingLabel="Pausing…"
      variant={question ? 'danger' : undefined}
      cancel="Keep plan"
      className="space-y-4 rounded-lg border border-slate-200 p-4"
    >
      <h5 className="font-semibold">Pause plan</h5>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.from} label="Pause from" type="date" min={today} autoComplete="off" />
        <TextField
          field={fields.resumeOn}
          label="Resume on"
          type="date"
          min={today}
          hint="Visits start again on the plan's day from this date."
          autoComplete="off"
        />
      </div>
      {question ? <ConfirmQuestion question={question} /> : null}
    </RecordFormFrame>
  )
}

/** What the change removes, and the field that makes the next post the confirmed one. */
function ConfirmQuestion({ question }: { question: string }) {
  return (
    <>
      <Alert tone="info">{question} Moved, skipped and completed visits stay.</Alert>
      <input type="hidden" name="confirmed" value="yes" />
    </>
  )
}

/** "Resume now": a paused plan's visits start again from today. */
function ResumeButton({
  planId,
  summary,
  actionData,
}: {
  planId: string
  summary: string
  actionData: RecordActionData
}) {
  const navigation = useNavigation()
  const pending =
    navigation.state === 'submitting' &&
    navigation.formData?.get('intent') === 'resume-plan' &&
    navigation.formData?.get('targetId') === planId
  const error = actionData?.intent === 'resume-plan' && actionData.target === planId ? actionData.message : null
  return (
    <Form method="post" preventScrollReset className="inline">
      <RecordTarget intent="resume-plan" targetId={planId} />
      <Button type="submit" variant="secondary" pending={pending} pendingLabel="Resuming…">
        Resume now<span className="sr-only">: {summary}</span>
      </Button>
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
    </Form>
  )
}
