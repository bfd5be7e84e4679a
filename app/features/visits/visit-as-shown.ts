// The visit as the technician left it: the server's copy with the phone's pending changes laid over it
// (docs/product.md "The visit"), so a completion, a skip, a tick, a reading, a chemical or a note shows from the moment
// of the tap, sent or not.
import type { VisitStatusLabel } from '~/components/status-badge'
import { describeChemicalFields } from './describe-change'
import { latestPending, type PendingChange, tickedItems } from './use-visit-changes'
import type { NoteAudience } from './visit-notes'

type ServerVisit = {
  visit: { state: string; status: VisitStatusLabel; officeNote: string; customerNote: string }
  checklist: ReadonlyArray<{ id: string; label: string }>
  ticks: ReadonlyArray<{ itemId: string; label: string }>
  stock: ReadonlyArray<{ id: string; name: string }>
}

export function visitAsShown({ visit, checklist, ticks, stock }: ServerVisit, pending: readonly PendingChange[]) {
  const pendingComplete = latestPending(pending, 'complete')
  const pendingSkip = latestPending(pending, 'skip')
  const stockNames = new Map(stock.map((item) => [item.id, item.name]))
  const noteOf = (audience: NoteAudience) => latestPending(pending, 'note', (note) => note.audience === audience)
  return {
    pendingComplete,
    pendingSkip,
    state: visit.state !== 'open' ? visit.state : pendingComplete ? 'completed' : pendingSkip ? 'skipped' : 'open',
    status: pendingComplete ? 'Completed' : pendingSkip ? 'Skipped' : visit.status,
    ticked: tickedItems(
      ticks.map((tick) => tick.itemId),
      pending,
    ),
    pendingReadings: pending.flatMap((item) =>
      item.change.type === 'reading' ? [{ key: item.key, fields: item.change.fields, waiting: item.waiting }] : [],
    ),
    pendingChemicals: pending.flatMap((item) =>
      item.change.type === 'chemical'
        ? [{ key: item.key, text: describeChemicalFields(item.change.fields, stockNames), waiting: item.waiting }]
        : [],
    ),
    notes: {
      office: noteOf('office')?.change.text ?? visit.officeNote,
      customer: noteOf('customer')?.change.text ?? visit.customerNote,
    },
    waitingNotes: new Set((['office', 'customer'] as const).filter((audience) => noteOf(audience)?.waiting === true)),
    /** The names a refused change is described with. */
    context: {
      items: new Map([
        ...ticks.map((tick) => [tick.itemId, tick.label] as const),
        ...checklist.map((i) => [i.id, i.label] as const),
      ]),
      stock: stockNames,
    },
  }
}
