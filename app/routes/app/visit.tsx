// The visit page, /app/visits/:visitId (docs/product.md "The visit"): phone first, in visit order — the customer and the
// way in, "Checklist", "Chemical Test", chemicals added, "Photos", "Notes", "Mark Complete", "Skip visit" — and the
// office's own forms below, folded away. A finished visit is a read-only summary. The technician's changes go through
// the phone's queue (app/field/queue.ts) and show at once, sent or not; without JavaScript every section is a
// plain form posting an intent below, applied by the same function as the queue's (applyFieldChange).
import type { SubmissionResult } from '@conform-to/react'
import { useEffect, useRef } from 'react'
import { useNavigation, useParams, useRevalidator, useSearchParams } from 'react-router'
import { notFound, requireCompanyCapability, requireViewableVisit, requireWorkableVisit } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Card } from '~/components/ui/card'
import { moveVisitOnVisitPage } from '~/features/schedule/move-visit.server'
import type { AssignVisitReply } from '~/features/visits/assign-visit.server'
import { backLinkFor, keepingFrom } from '~/features/visits/back-link'
import { CompletedBanner, MarkComplete, missingWork, UNDO_MS } from '~/features/visits/complete-visit'
import { SkipVisitForm } from '~/features/visits/skip-visit-form'
import { useVisitChanges } from '~/features/visits/use-visit-changes'
import { assignVisitAction, cancelVisitAction, reopenVisitAction } from '~/features/visits/visit-actions.server'
import { visitAsShown } from '~/features/visits/visit-as-shown'
import { VisitChecklist } from '~/features/visits/visit-checklist'
import { type ChemicalReply, VisitChemicals } from '~/features/visits/visit-chemicals'
import { VisitHeader } from '~/features/visits/visit-header'
import { VisitNotes } from '~/features/visits/visit-notes'
import { VisitOfficeTools } from '~/features/visits/visit-office-tools'
import { visitOutcome } from '~/features/visits/visit-outcome'
import { loadVisitPage } from '~/features/visits/visit-page.server'
import { VisitIntentSchema } from '~/features/visits/visit-page-schema'
import { VisitPhotos } from '~/features/visits/visit-photos'
import {
  completeVisitAction,
  saveChecklistAction,
  saveChemicalAction,
  saveNotesAction,
  saveReadingAction,
  skipVisitAction,
} from '~/features/visits/visit-plain-changes.server'
import { type ReadingReply, VisitReading } from '~/features/visits/visit-reading'
import { RefusedOnThisPhone, VisitRefusals } from '~/features/visits/visit-refusals'
import { VisitSummary } from '~/features/visits/visit-summary'
import { VisitWorkOrder } from '~/features/work-orders/visit-work-order'
import { loadVisitWorkOrder, recordPartUsedAction } from '~/features/work-orders/work-order-page.server'
import { startFieldQueue } from '~/field/queue'
import { isVisitOfCompany } from '~/models/photo.server'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import { preparedLoader } from '~/utils/prepared-statements.server'
import type { Route } from './+types/visit'

export const loader = preparedLoader(async ({ request, params }: Route.LoaderArgs) => {
  const viewable = await requireViewableVisit(request, params.visitId)
  const { visit, company, viewer } = viewable
  const [page, workOrder] = await Promise.all([
    loadVisitPage(viewable),
    loadVisitWorkOrder(visit.companyId, visit.id, company.timezone, viewer.readOnly),
  ])
  return { ...page, workOrder }
})

export async function action(args: Route.ActionArgs) {
  try {
    return await visitAction(args)
  } catch (thrown) {
    // The page again after one of its forms (redirectWithFlash): with the `from` it was opened with, so its back link
    // still leads where it led (app/features/visits/back-link.ts).
    const location = thrown instanceof Response ? thrown.headers.get('Location') : null
    if (location) (thrown as Response).headers.set('Location', keepingFrom(location, args.request.url))
    throw thrown
  }
}

async function visitAction({ request, params }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'visits:work')
  // Another company's visit does not exist for this member. Whether the visit is still theirs to change is asked by
  // the change itself, as for the phone's queue: a technician on a visit given to someone else is told so (409).
  if (!(await isVisitOfCompany({ companyId: member.companyId, visitId: params.visitId }))) notFound()
  const formData = await readForm(request)
  const parsed = VisitIntentSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) unknownIntent()
  const { intent } = parsed.data
  const visitId = params.visitId
  // The visit's own work: the phone's changes, posted by a plain form (visit-plain-changes.server.ts).
  switch (intent) {
    case 'complete':
      return completeVisitAction(member, visitId, formData)
    case 'checklist':
      return saveChecklistAction(member, visitId, formData)
    case 'notes':
      return saveNotesAction(member, visitId, formData)
    case 'reading':
      return saveReadingAction(member, visitId, formData)
    case 'chemical':
      return saveChemicalAction(member, visitId, formData)
    case 'skip-visit':
      return skipVisitAction(member, visitId, formData)
  }
  // The office's forms and a work order's part: on a visit the member may open (a technician, only their own).
  const { visit } = await requireWorkableVisit(request, visitId)
  switch (intent) {
    case 'reopen':
      return reopenVisitAction(member, visit.id)
    case 'assign':
      return assignVisitAction(member, visit.id, formData)
    case 'move-visit':
      return moveVisitOnVisitPage(member, visit.id, formData)
    case 'cancel-visit':
      return cancelVisitAction(member, visit.id)
    // A work order's visit (docs/work-orders.md): the part fitted, taken off stock.
    case 'part-used':
      return recordPartUsedAction(member, visit.id, formData)
  }
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.visit.customerName} · Visit · Pool Bud` : 'Visit · Pool Bud' }]
}

type ActionData = Route.ComponentProps['actionData']

/** The plain-form error an intent answered, if it was that intent's. */
function errorOf(actionData: ActionData, intent: string) {
  return actionData?.intent === intent && 'error' in actionData && typeof actionData.error === 'string'
    ? actionData.error
    : null
}

/** The Conform reply of a form posting `intent`, if the action answered that intent. */
function resultOf(actionData: ActionData, intent: string) {
  return actionData?.intent === intent && 'result' in actionData
    ? (actionData.result as SubmissionResult<string[]>)
    : undefined
}

export default function VisitPage({ loaderData, actionData }: Route.ComponentProps) {
  const { visit, checklist, ticks, logs, chemicals, stock, canWork, canManage, formKeys } = loaderData
  const navigation = useNavigation()
  const busyIntent = navigation.state !== 'idle' ? navigation.formData?.get('intent') : null
  const changes = useVisitChanges(visit.id, loaderData)
  // Read in the browser as on the server, so the copy saved for offline use names the link the same way.
  const [searchParams] = useSearchParams()
  const back = backLinkFor(searchParams.get('from'), loaderData.home)
  const { pending } = changes

  // Read the page again whenever the queue has delivered something, so the server's copy replaces the phone's.
  const revalidator = useRevalidator()
  const revalidate = useRef(revalidator.revalidate)
  revalidate.current = revalidator.revalidate
  useEffect(() => startFieldQueue(() => void revalidate.current()), [])

  // The server's copy with the phone's pending changes laid over it.
  const shown = visitAsShown(loaderData, pending)
  const { pendingComplete, pendingSkip, state, ticked, pendingReadings, pendingChemicals, notes } = shown
  const hasPhoto = loaderData.photos.length > 0 || changes.queuedPhotos > 0

  const photos = (
    <VisitPhotos
      key={visit.id}
      visitId={visit.id}
      photos={loaderData.photos}
      readOnly={!(canWork && state === 'open')}
    />
  )

  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <VisitHeader
        customerName={visit.customerName}
        address={visit.address}
        status={shown.status}
        assigned={Boolean(visit.technicianId)}
        companyName={loaderData.companyName}
        access={visit.access}
        scheduled={visit.scheduled}
        technicianName={visit.technicianName}
        technicianPhone={visit.technicianPhone}
        pool={visit.pool}
        customerPhone={visit.customerPhone}
        back={back}
      />
      <VisitRefusals refused={changes.refused} context={shown.context} onDismiss={(key) => void changes.dismiss(key)} />
      {/* The plain form's Mark Complete refused: the visit was completed, skipped or canceled meanwhile. */}
      {errorOf(actionData, 'complete') ? <Alert tone="error">{errorOf(actionData, 'complete')}</Alert> : null}

      {canWork && state === 'open' ? (
        <>
          <VisitChecklist
            items={checklist}
            ticked={ticked}
            formKey={formKeys.checklist}
            lastResult={resultOf(actionData, 'checklist')}
            onToggle={(itemId, checked) => changes.queue({ type: 'check', itemId, checked })}
          />
          <VisitReading
            formKey={formKeys.reading}
            reply={actionData?.intent === 'reading' ? (actionData as ReadingReply) : undefined}
            busy={busyIntent === 'reading'}
            logs={logs}
            pending={pendingReadings}
            advice={loaderData.advice}
            pool={loaderData.poolProfile}
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
          {/* After the photos, not before: a slot that is sometimes empty just before the keyed photos element made
              React add another Photos card on each render after hydration (caught by visit-page.spec.ts). */}
          {loaderData.workOrder ? (
            <VisitWorkOrder
              workOrder={loaderData.workOrder}
              canRecord={canWork}
              lastResult={resultOf(actionData, 'part-used')}
              ok={actionData?.intent === 'part-used' && 'ok' in actionData ? (actionData.ok ?? undefined) : undefined}
            />
          ) : null}
          <VisitNotes
            key={visit.id}
            officeNote={notes.office}
            customerNote={notes.customer}
            waiting={shown.waitingNotes}
            formKey={formKeys.notes}
            lastResult={resultOf(actionData, 'notes')}
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
                lastResult={resultOf(actionData, 'skip-visit')}
                onQueue={(fields) => changes.queue({ type: 'skip', fields })}
              />
            </Card>
          ) : null}
          {canManage ? (
            <VisitOfficeTools
              visit={visit}
              technicians={loaderData.technicians}
              move={loaderData.move}
              canCancel={loaderData.canCancel}
              assignReply={actionData?.intent === 'assign' ? (actionData as AssignVisitReply) : undefined}
              cancelError={errorOf(actionData, 'cancel-visit')}
            />
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
          {loaderData.workOrder ? <VisitWorkOrder workOrder={loaderData.workOrder} canRecord={false} /> : null}
          <VisitSummary
            outcome={pendingComplete ? null : visitOutcome(visit, pendingSkip)}
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

export function ErrorBoundary() {
  // A visit that stopped being this technician's is a 404 for them; what the phone could not save on it still shows.
  const { visitId } = useParams()
  return (
    <div className="space-y-4">
      <RefusedOnThisPhone visitId={visitId ?? ''} />
      <RouteError />
    </div>
  )
}
