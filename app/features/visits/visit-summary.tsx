// A finished visit (completed, skipped, canceled — or any visit the viewer may only look at) as a read-only summary
// (docs/product.md "The visit"): what was ticked, read, added, photographed and noted, and when and by whom it was
// completed. No empty entry forms. The office gets "Reopen visit" for a completed or skipped one.
import type { ReactNode } from 'react'
import { ConfirmForm } from '~/components/confirm-buttons'
import { Card } from '~/components/ui/card'
import { ChemicalList, type ChemicalRow, type PendingChemical } from './visit-chemicals'
import { type PendingReading, ReadingList, type ReadingLog } from './visit-reading'

export function VisitSummary({
  outcome,
  ticked,
  logs,
  pendingReadings,
  chemicals,
  pendingChemicals,
  photos,
  officeNote,
  customerNote,
  reopen,
}: {
  /** "Completed 10:42 AM by Tyler Brooks", "Skipped: Weather"…; null for an open visit looked at read-only. */
  outcome: ReactNode
  /** Labels of the ticked checklist items. */
  ticked: readonly string[]
  logs: readonly ReadingLog[]
  pendingReadings: readonly PendingReading[]
  chemicals: readonly ChemicalRow[]
  pendingChemicals: readonly PendingChemical[]
  photos: ReactNode
  officeNote: string
  customerNote: string
  reopen: { error: string | null } | null
}) {
  return (
    <div className="space-y-5">
      <Card className="space-y-4" aria-labelledby="summary-heading">
        <h2 id="summary-heading" className="text-lg font-semibold">
          Visit summary
        </h2>
        {outcome ? <div className="font-medium">{outcome}</div> : null}
        <section aria-labelledby="summary-checklist" className="space-y-1">
          <h3 id="summary-checklist" className="font-semibold">
            Checklist
          </h3>
          {ticked.length === 0 ? (
            <p className="text-sm text-slate-600">No checklist items were ticked.</p>
          ) : (
            <ul className="space-y-1" aria-label="Ticked items">
              {ticked.map((label) => (
                <li key={label}>✓ {label}</li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="summary-chemistry" className="space-y-1">
          <h3 id="summary-chemistry" className="font-semibold">
            Chemical Test
          </h3>
          <ReadingList logs={logs} pending={pendingReadings} heading={false} />
        </section>
        <section aria-labelledby="summary-chemicals" className="space-y-1">
          <h3 id="summary-chemicals" className="font-semibold">
            Chemicals added
          </h3>
          <ChemicalList chemicals={chemicals} pending={pendingChemicals} />
        </section>
        <section aria-labelledby="summary-notes" className="space-y-2">
          <h3 id="summary-notes" className="font-semibold">
            Notes
          </h3>
          {officeNote || customerNote ? (
            <dl className="space-y-2 text-sm">
              {officeNote ? (
                <div>
                  <dt className="font-medium text-slate-600">Note for office</dt>
                  <dd className="whitespace-pre-line break-words">{officeNote}</dd>
                </div>
              ) : null}
              {customerNote ? (
                <div>
                  <dt className="font-medium text-slate-600">Note for customer</dt>
                  <dd className="whitespace-pre-line break-words">{customerNote}</dd>
                </div>
              ) : null}
            </dl>
          ) : (
            <p className="text-sm text-slate-600">No notes.</p>
          )}
        </section>
      </Card>
      {photos}
      {reopen ? <ReopenVisit error={reopen.error} /> : null}
    </div>
  )
}

/** "Reopen visit" for the office, asked once more before it is done. */
function ReopenVisit({ error }: { error: string | null }) {
  return (
    <section aria-label="Reopen visit" className="space-y-2">
      <ConfirmForm
        fields={{ intent: 'reopen' }}
        label="Reopen visit"
        buttonClassName="w-full sm:w-auto"
        pendingLabel="Reopening…"
        title="Reopen this visit?"
        question={
          <p className="text-sm text-slate-800">
            It becomes open work again for its technician. Its ticks, readings, photos and notes stay.
          </p>
        }
        confirm="Reopen visit"
        cancel="Keep it closed"
        error={error}
      />
    </section>
  )
}
