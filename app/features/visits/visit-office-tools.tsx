// The office's forms for an open visit, below the visit's own work and folded away (docs/product.md "The visit"):
// "Assign and reschedule", "Move visit", "Cancel visit". The fold opens by itself on the answer to one of its posts.

import { type MovableVisit, MoveVisitButton, type TechnicianOption } from '~/features/schedule/move-visit-form'
import type { AssignVisitReply } from '~/features/visits/assign-visit.server'
import { type AssignableVisit, AssignVisitForm } from '~/features/visits/assign-visit-form'
import { CancelVisitForm } from './cancel-visit-form'

export function VisitOfficeTools({
  visit,
  technicians,
  move,
  canCancel,
  assignReply,
  cancelError,
}: {
  visit: AssignableVisit
  technicians: readonly TechnicianOption[]
  move: { visit: MovableVisit; today: string } | null
  canCancel: boolean
  assignReply: AssignVisitReply | undefined
  cancelError: string | null
}) {
  const answered = Boolean(assignReply) || Boolean(cancelError)
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
          <AssignVisitForm visit={visit} technicians={technicians} reply={assignReply} />
        </section>
        {move ? (
          <MoveVisitButton
            action={`/app/visits/${visit.id}`}
            visit={move.visit}
            technicians={technicians}
            today={move.today}
          />
        ) : null}
        {canCancel ? <CancelVisitForm error={cancelError} /> : null}
      </div>
    </details>
  )
}
