// The visit page, /app/jobs/:jobId (OPERATIONS §5): phone first, in visit order — the customer and the way in,
// "Checklist", "Chemical Test", chemicals added, "Photos", "Notes", "Mark Complete", "Skip visit" — and the office's
// own forms below, folded away. A finished visit is a read-only summary. The technician's changes go through the
// phone's queue (app/field/queue.ts) and show at once, sent or not; without JavaScript every section is a
// plain form posting an intent below.
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef } from 'react'
import { data, Form, redirect, useNavigation, useParams, useRevalidator } from 'react-router'
import { type CompanyMember, forbidden, requireViewableJob, requireWorkableJob } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { inputClass } from '~/components/ui/field'
import { ASSIGN_CONFLICT, expectedVersionOf } from '~/dashboards/dispatcher-dashboard.server'
import { moveVisitOnVisitPage } from '~/features/schedule/move-visit.server'
import { MoveVisitButton } from '~/features/schedule/move-visit-form'
import { CancelJobForm } from '~/features/visits/cancel-job-form'
import { CompletedBanner, MarkComplete, missingWork, UNDO_MS } from '~/features/visits/complete-visit'
import { describeChemicalFields } from '~/features/visits/describe-change'
import { SkipVisitForm } from '~/features/visits/skip-visit-form'
import { latestPending, tickedItems, useVisitChanges } from '~/features/visits/use-visit-changes'
import { cancelJobAction, skipVisitAction } from '~/features/visits/visit-actions.server'
import { VisitChecklist } from '~/features/visits/visit-checklist'
import { type ChemicalReply, VisitChemicals } from '~/features/visits/visit-chemicals'
import { VisitHeader } from '~/features/visits/visit-header'
import { type NoteAudience, VisitNotes } from '~/features/visits/visit-notes'
import {
  loadVisitPage,
  reopenVisitAction,
  saveChecklistAction,
  saveNotesAction,
} from '~/features/visits/visit-page.server'
import { VisitPhotos } from '~/features/visits/visit-photos'
import { ReadingFormSchema, type ReadingReply, VisitReading } from '~/features/visits/visit-reading'
import { RefusedOnThisPhone, VisitRefusals } from '~/features/visits/visit-refusals'
import { VisitSummary } from '~/features/visits/visit-summary'
import { startFieldQueue } from '~/field/queue'
import { addChemLog } from '~/models/chem-log.server'
import { addChemicalToJob } from '~/models/chemical-addition.server'
import { getCompanySummary } from '~/models/company.server'
import { oncePerKey, readIdempotencyKey } from '~/models/idempotency.server'
import { assignJob, completeJob } from '~/models/job.server'
import { SkipVisitSchema } from '~/models/service-plan-schemas'
import { CHEMICAL_MESSAGES, ChemicalAdditionSchema } from '~/utils/chemicals'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { fromZonedInputValue } from '~/utils/dates'
import { readForm } from '~/utils/forms'
import { can } from '~/utils/permissions'
import { failureStatus } from '~/utils/result'
import type { Route } from './+types/job'

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadVisitPage(await requireViewableJob(request, params.jobId))
}

async function saveAssignment(member: CompanyMember, jobId: string, formData: FormData) {
  if (!can(member.role, 'jobs:manage')) forbidden('no-access')
  const company = await getCompanySummary(member.companyId)
  const scheduledAt = fromZonedInputValue(String(formData.get('scheduledAt') ?? ''), company?.timezone ?? 'UTC')
  const technicianId = String(formData.get('technicianId') ?? '') || null
  if (!scheduledAt) return data({ intent: 'assign', error: 'Choose a date and time.', ok: null }, 400)
  const outcome = await assignJob({
    companyId: member.companyId,
    jobId,
    technicianId,
    scheduledAt,
    ...expectedVersionOf(formData),
  })
  if (outcome === 'conflict') return data({ intent: 'assign', error: ASSIGN_CONFLICT, ok: null }, 409)
  if (outcome === 'refused')
    return data({ intent: 'assign', error: 'Unable to save changes to this job.', ok: null }, 400)
  return { intent: 'assign', error: null, ok: 'Job updated.' }
}

async function saveReading(member: CompanyMember, jobId: string, formData: FormData) {
  const intent = 'reading' as const
  const submission = parseWithZod(formData, { schema: ReadingFormSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply(), ok: null }, 400)
  const idempotency = readIdempotencyKey(formData)
  if (!idempotency.ok) {
    return data({ intent, result: submission.reply({ formErrors: [idempotency.message] }), ok: null }, 400)
  }
  try {
    // The same reading sent again (same key) is saved once.
    const saved = await oncePerKey(
      { companyId: member.companyId, key: idempotency.key, action: 'reading.create' },
      async (tx) => {
        const row = await addChemLog({ companyId: member.companyId, jobId, reading: submission.value }, tx)
        return { ok: true as const, readingId: row?.id }
      },
    )
    if (!saved.ok) {
      return data({ intent, result: submission.reply({ formErrors: [saved.message] }), ok: null }, failureStatus(saved))
    }
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    return data({ intent, result: submission.reply({ formErrors: ['Unable to save reading.'] }), ok: null }, 500)
  }
  return { intent, result: submission.reply({ resetForm: true }), ok: 'Readings saved.' }
}

async function saveChemical(member: CompanyMember, jobId: string, formData: FormData) {
  const intent = 'chemical' as const
  const submission = parseWithZod(formData, { schema: ChemicalAdditionSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply(), ok: null }, 400)
  const idempotency = readIdempotencyKey(formData)
  if (!idempotency.ok) {
    return data({ intent, result: submission.reply({ formErrors: [idempotency.message] }), ok: null }, 400)
  }
  try {
    // The same addition sent again (same key) is recorded, and taken off stock, once.
    const outcome = await oncePerKey(
      { companyId: member.companyId, key: idempotency.key, action: 'chemical.add' },
      (tx) => addChemicalToJob({ companyId: member.companyId, jobId, input: submission.value, userId: member.id }, tx),
    )
    if (!outcome.ok) {
      const errors =
        'field' in outcome ? { fieldErrors: { [outcome.field]: [outcome.message] } } : { formErrors: [outcome.message] }
      return data(
        { intent, result: submission.reply(errors), ok: null },
        'code' in outcome ? failureStatus(outcome) : 400,
      )
    }
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    return data({ intent, result: submission.reply({ formErrors: [CHEMICAL_MESSAGES.saveFailed] }), ok: null }, 500)
  }
  return { intent, result: submission.reply({ resetForm: true }), ok: CHEMICAL_MESSAGES.saved }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { member, job } = await requireWorkableJob(request, params.jobId)
  const formData = await readForm(request)
  const intent = formData.get('intent')

  // The plain form's Mark Complete (without JavaScript): at once, and back to the dashboard (ARCHITECTURE §4).
  if (intent === 'complete') {
    await completeJob({ companyId: member.companyId, jobId: job.id, completedBy: member.id })
    throw redirect('/app')
  }
  if (intent === 'checklist') return saveChecklistAction(member, job, formData)
  if (intent === 'notes') return saveNotesAction(member, job, formData)
  if (intent === 'reopen') return reopenVisitAction(member, job)
  if (intent === 'reading') return saveReading(member, job.id, formData)
  if (intent === 'chemical') return saveChemical(member, job.id, formData)
  if (intent === 'assign') return saveAssignment(member, job.id, formData)
  if (intent === 'move-visit') return moveVisitOnVisitPage(member, job.id, formData)
  if (intent === 'skip-visit') return skipVisitAction(member, job.id, formData)
  if (intent === 'cancel-job') return cancelJobAction(member, job.id)
  return data({ intent: 'unknown', error: 'Unknown action.', ok: null }, 400)
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.job.customerName} · Job · Pool Bud` : 'Job · Pool Bud' }]
}

type ActionData = Route.ComponentProps['actionData']

/** The plain-form error an intent answered, if it was that intent's. */
function errorOf(actionData: ActionData, intent: string) {
  return actionData?.intent === intent && 'error' in actionData && typeof actionData.error === 'string'
    ? actionData.error
    : null
}

/** "Skipped: Weather" for a skip's fields as typed. */
function skipReasonOf(fields: Record<string, string>) {
  const parsed = SkipVisitSchema.safeParse(fields)
  return parsed.success ? parsed.data.reason : (fields.reason ?? '')
}

export default function VisitPage({ loaderData, actionData }: Route.ComponentProps) {
  const { job, checklist, ticks, logs, chemicals, stock, canWork, canManage, formKeys } = loaderData
  const navigation = useNavigation()
  const busyIntent = navigation.state !== 'idle' ? navigation.formData?.get('intent') : null
  const changes = useVisitChanges(job.id, loaderData)
  const { pending } = changes

  // Read the page again whenever the queue has delivered something, so the server's copy replaces the phone's.
  const revalidator = useRevalidator()
  const revalidate = useRef(revalidator.revalidate)
  revalidate.current = revalidator.revalidate
  useEffect(() => startFieldQueue(() => void revalidate.current()), [])

  const pendingComplete = latestPending(pending, 'complete')
  const pendingSkip = latestPending(pending, 'skip')
  const state = job.state !== 'open' ? job.state : pendingComplete ? 'completed' : pendingSkip ? 'skipped' : 'open'
  const status = pendingComplete ? 'Completed' : pendingSkip ? 'Skipped' : job.status

  const ticked = tickedItems(
    ticks.map((tick) => tick.itemId),
    pending,
  )
  const pendingReadings = pending.flatMap((item) =>
    item.change.type === 'reading' ? [{ key: item.key, fields: item.change.fields, waiting: item.waiting }] : [],
  )
  const stockNames = new Map(stock.map((item) => [item.id, item.name]))
  const pendingChemicals = pending.flatMap((item) =>
    item.change.type === 'chemical'
      ? [{ key: item.key, text: describeChemicalFields(item.change.fields, stockNames), waiting: item.waiting }]
      : [],
  )
  const noteOf = (audience: NoteAudience) => latestPending(pending, 'note', (note) => note.audience === audience)
  const notes = {
    office: noteOf('office')?.change.text ?? job.officeNote,
    customer: noteOf('customer')?.change.text ?? job.customerNote,
  }
  const waitingNotes = new Set(
    (['office', 'customer'] as const).filter((audience) => noteOf(audience)?.waiting === true),
  )
  const hasPhoto = loaderData.photos.length > 0 || changes.queuedPhotos > 0
  const context = {
    items: new Map([
      ...ticks.map((tick) => [tick.itemId, tick.label] as const),
      ...checklist.map((i) => [i.id, i.label] as const),
    ]),
    stock: stockNames,
  }

  const photos = (
    <VisitPhotos key={job.id} visitId={job.id} photos={loaderData.photos} readOnly={!(canWork && state === 'open')} />
  )

  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <VisitHeader
        customerName={job.customerName}
        address={job.address}
        status={status}
        assigned={Boolean(job.technicianId)}
        companyName={loaderData.companyName}
        access={job.access}
        scheduled={job.scheduled}
        technicianName={job.technicianName}
        technicianPhone={job.technicianPhone}
        pool={job.pool}
      />
      <VisitRefusals refused={changes.refused} context={context} onDismiss={(key) => void changes.dismiss(key)} />

      {canWork && state === 'open' ? (
        <>
          <VisitChecklist
            items={checklist}
            ticked={ticked}
            formKey={formKeys.checklist}
            error={errorOf(actionData, 'checklist')}
            onToggle={(itemId, checked) => changes.queue({ type: 'check', itemId, checked })}
          />
          <VisitReading
            formKey={formKeys.reading}
            reply={actionData?.intent === 'reading' ? (actionData as ReadingReply) : undefined}
            busy={busyIntent === 'reading'}
            logs={logs}
            pending={pendingReadings}
            advice={loaderData.advice}
            onQueue={(fields) => changes.queue({ type: 'reading', fields })}
          />
          <VisitChemicals
            chemicals={chemicals}
            pending={pendingChemicals}
            stock={stock}
            formKey={formKeys.chemical}
            reply={actionData?.intent === 'chemical' ? (actionData as ChemicalReply) : undefined}
            busy={busyIntent === 'chemical'}
            onQueue={(fields) => changes.queue({ type: 'chemical', fields })}
          />
          {/* Photos: the one slot for the visit's photos component. */}
          {photos}
          <VisitNotes
            key={job.id}
            officeNote={notes.office}
            customerNote={notes.customer}
            waiting={waitingNotes}
            formKey={formKeys.notes}
            error={errorOf(actionData, 'notes')}
            onSave={(audience, text) => changes.queue({ type: 'note', audience, text })}
          />
          <MarkComplete
            missing={missingWork({
              items: checklist,
              ticked,
              hasPhoto,
              hasReading: logs.length > 0 || pendingReadings.length > 0,
            })}
            onComplete={() => changes.queue({ type: 'complete' }, { holdMs: UNDO_MS })}
          />
          {loaderData.canSkip ? (
            <Card className="space-y-3">
              <h2 className="text-lg font-semibold">Can't do this visit?</h2>
              <SkipVisitForm
                lastResult={
                  actionData?.intent === 'skip-visit' && 'result' in actionData
                    ? (actionData.result as Parameters<typeof SkipVisitForm>[0]['lastResult'])
                    : undefined
                }
                onQueue={(fields) => changes.queue({ type: 'skip', fields })}
              />
            </Card>
          ) : null}
          {canManage ? (
            <OfficeTools loaderData={loaderData} actionData={actionData} busy={busyIntent === 'assign'} />
          ) : null}
        </>
      ) : (
        <>
          {pendingComplete ? (
            <CompletedBanner
              heldUntil={pendingComplete.heldUntil}
              waiting={pendingComplete.waiting}
              onUndo={() => changes.cancel(pendingComplete.key)}
            />
          ) : null}
          <VisitSummary
            outcome={
              pendingComplete ? null : pendingSkip ? (
                <p className="text-amber-900">
                  Skipped: {skipReasonOf(pendingSkip.change.fields)}
                  {pendingSkip.waiting ? ' · Waiting to send' : ''}
                </p>
              ) : job.state === 'completed' ? (
                <p className="text-emerald-800">
                  Completed {job.completed}
                  {job.completedBy ? ` by ${job.completedBy}` : ''}
                </p>
              ) : job.state === 'skipped' ? (
                <p className="text-amber-900">Skipped: {job.skipReason}</p>
              ) : job.state === 'cancelled' ? (
                <p className="text-slate-700">Cancelled</p>
              ) : null
            }
            ticked={[
              ...checklist.filter((item) => ticked.has(item.id)).map((item) => item.label),
              // Items ticked on this visit and since removed from the company's list keep their label.
              ...ticks.filter((tick) => !checklist.some((item) => item.id === tick.itemId)).map((tick) => tick.label),
            ]}
            logs={logs}
            pendingReadings={pendingReadings}
            chemicals={chemicals}
            pendingChemicals={pendingChemicals}
            photos={photos}
            officeNote={notes.office}
            customerNote={notes.customer}
            reopen={loaderData.canReopen && !pendingComplete ? { error: errorOf(actionData, 'reopen') } : null}
          />
        </>
      )}
    </div>
  )
}

/** The office's forms for an open visit — assign and reschedule, "Move visit", "Cancel job" — folded away. */
function OfficeTools({
  loaderData,
  actionData,
  busy,
}: {
  loaderData: Route.ComponentProps['loaderData']
  actionData: ActionData
  busy: boolean
}) {
  const { job, technicians, move } = loaderData
  const answered = actionData?.intent === 'assign' || actionData?.intent === 'cancel-job'
  return (
    <details className="group rounded-xl border border-slate-200 bg-white shadow-sm" open={answered || undefined}>
      <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-2 px-5 py-3 font-semibold [&::-webkit-details-marker]:hidden">
        Office: assign, move or cancel
        <span aria-hidden="true" className="text-slate-500 transition-transform group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="space-y-5 border-t border-slate-100 px-5 py-4">
        <section className="space-y-3" aria-labelledby="assign-heading">
          <h2 id="assign-heading" className="font-semibold">
            Assign and reschedule
          </h2>
          <Form method="post" className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
            <input type="hidden" name="intent" value="assign" />
            <input type="hidden" name="version" value={job.version} />
            <label className="space-y-1 text-sm font-medium">
              <span>Technician</span>
              <select name="technicianId" defaultValue={job.technicianId ?? ''} className={inputClass}>
                <option value="">Unassigned</option>
                {technicians.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="space-y-1 text-sm font-medium">
              <span>Scheduled for</span>
              <input
                type="datetime-local"
                name="scheduledAt"
                defaultValue={job.scheduledInput}
                className={inputClass}
                required
              />
            </label>
            <Button type="submit" pending={busy} pendingLabel="Saving…">
              Save
            </Button>
          </Form>
          {errorOf(actionData, 'assign') ? <Alert tone="error">{errorOf(actionData, 'assign')}</Alert> : null}
          {actionData?.intent === 'assign' && actionData.ok ? <Alert tone="success">{actionData.ok}</Alert> : null}
        </section>
        {move ? (
          <MoveVisitButton
            action={`/app/jobs/${job.id}`}
            visit={move.visit}
            technicians={technicians}
            today={move.today}
          />
        ) : null}
        {loaderData.canCancel ? <CancelJobForm error={errorOf(actionData, 'cancel-job')} /> : null}
      </div>
    </details>
  )
}

export function ErrorBoundary() {
  // A visit that stopped being this technician's is a 404 for them; what the phone could not save on it still shows.
  const { jobId } = useParams()
  return (
    <div className="space-y-4">
      <RefusedOnThisPhone visitId={jobId ?? ''} />
      <RouteError />
    </div>
  )
}
