// The week board (docs/product.md "Schedule"): "Unassigned" and the technicians by days, Monday first, drawn once for
// every screen: one table that is a grid on a wide screen and, below Tailwind's `lg`, a card per row (technician) with
// its days underneath, one row at a time ("Next technician"). Open visits can be dragged to another cell — "Unassigned"
// is the first row, so it is always in reach — and every one also has "Move visit" (a dialog), for keyboard and
// touch. Live updates come from the app layout, which already listens for the company's changes on every office page.
import { type DragEvent, type ReactNode, useMemo, useRef, useState } from 'react'
import { Link, useFetcher, useSearchParams } from 'react-router'
import { Pager } from '~/components/pager'
import { StatusPill } from '~/components/status-badge'
import { Alert } from '~/components/ui/alert'
import { cn } from '~/components/ui/cn'
import { visitHrefsFrom } from '~/features/visits/back-link'
import { type BoardCell, cellKey, cellSummary, clockLabel, groupByCell, UNASSIGNED, unpackCells } from './board-cells'
import { type MovableVisit, MoveVisitDialog, type MoveVisitReply, type TechnicianOption } from './move-visit-form'

const SCHEDULE_PATH = '/app/schedule'

export type BoardVisitView = MovableVisit & {
  minutes: number
  state: 'open' | 'completed' | 'skipped' | 'canceled'
  /** The location, only for a customer with several. */
  place?: string
}

export type WeekBoardData = {
  weekStart: string
  thisWeek: string
  previousWeek: string
  nextWeek: string
  today: string
  days: ReadonlyArray<{ date: string; label: string }>
  technicians: readonly TechnicianOption[]
  /** Which technicians (by name, `from`–`to` of `total`, counted from 1) are this page's rows. */
  technicianPage: { page: number; pageCount: number; from: number; to: number; total: number }
  /** The week's visits by cell (`packCells`). */
  cells: readonly BoardCell<BoardVisitView>[]
  truncated: boolean
}

/** Below `lg` the board shows one row at a time; `?row=` (from 1) says which. */
const ROW_PARAM = 'row'

type Row = { id: string | null; name: string }
type Day = WeekBoardData['days'][number]

const routePath = (row: Row, date: string) => `${SCHEDULE_PATH}/${row.id ?? UNASSIGNED}/${date}`

/**
 * The board. `dayAction` puts one more thing (a link) in a day's header, after its date; the header leaves room for
 * one link of about 12 characters at 1280 px.
 */
export function WeekBoard({
  board,
  dayAction,
}: {
  board: WeekBoardData
  dayAction?: (day: WeekBoardData['days'][number]) => ReactNode
}) {
  const [search] = useSearchParams()
  const drop = useFetcher<MoveVisitReply>()
  const [moving, setMoving] = useState<MovableVisit | null>(null)
  const { from, to } = board.technicianPage
  const rows: Row[] = [{ id: null, name: 'Unassigned' }, ...board.technicians.slice(from - 1, to)]
  const shownRow = Math.min(Math.max(1, Math.floor(Number(search.get(ROW_PARAM))) || 1), rows.length) - 1
  const sent = useMemo(() => unpackCells(board.cells), [board.cells])
  const visits = withPendingDrop(sent, drop.formData)
  const cells = groupByCell(visits)
  const dropFailed = drop.state === 'idle' && drop.data && !drop.data.ok ? dropMessage(drop.data) : null

  function moveByDrop(visitId: string, row: Row, date: string) {
    const visit = sent.find((item) => item.id === visitId)
    if (!visit || (visit.date === date && visit.technicianId === row.id)) return
    drop.submit(
      { intent: 'move-visit', visitId, date, technicianId: row.id ?? '', scope: 'one' },
      { method: 'post', action: SCHEDULE_PATH },
    )
  }

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Schedule</h1>
          <p className="text-sm text-slate-600">
            Week of {board.days[0]?.label}
            {board.weekStart === board.thisWeek ? ' (this week)' : ''}
          </p>
        </div>
        <WeekNav board={board} />
      </div>
      {board.truncated ? (
        <Alert tone="info">Too many visits to show; open a technician’s “Route” for each day’s full list.</Alert>
      ) : null}
      {dropFailed ? <Alert tone="error">{dropFailed}</Alert> : null}
      {drop.state === 'idle' && drop.data?.ok ? <Alert tone="success">{drop.data.ok}</Alert> : null}
      <MoveVisitDialog
        action={SCHEDULE_PATH}
        visit={moving}
        technicians={board.technicians}
        today={board.today}
        onClose={() => setMoving(null)}
      />
      {board.technicianPage.pageCount > 1 ? (
        <div className="space-y-2">
          <p className="text-sm text-slate-600">
            {`Technicians ${board.technicianPage.from}–${board.technicianPage.to} of ${board.technicianPage.total}, and the unassigned visits.`}
          </p>
          <Pager
            page={board.technicianPage.page}
            pageCount={board.technicianPage.pageCount}
            label="Technician pages"
            previousLabel="← Previous technicians"
            nextLabel="Next technicians →"
          />
        </div>
      ) : null}
      {visits.length === 0 ? <p className="text-sm text-slate-600">No visits this week.</p> : null}
      <div className="lg:hidden">
        <Pager
          page={shownRow + 1}
          pageCount={rows.length}
          param={ROW_PARAM}
          label="Technicians"
          previousLabel="← Previous"
          nextLabel="Next →"
          summary={`${rows[shownRow]?.name ?? ''} (${shownRow + 1} of ${rows.length})`}
        />
      </div>
      <BoardGrid
        board={board}
        rows={rows}
        shownRow={shownRow}
        cells={cells}
        onMove={setMoving}
        onDrop={moveByDrop}
        dayAction={dayAction}
      />
    </div>
  )
}

/** The visits as they will be once the drop being saved lands, so a dragged visit stays where it was put. */
function withPendingDrop(visits: readonly BoardVisitView[], formData: FormData | undefined) {
  const visitId = formData?.get('visitId')
  const date = formData?.get('date')
  if (typeof visitId !== 'string' || typeof date !== 'string') return visits
  const technicianId = String(formData?.get('technicianId') ?? '') || null
  return visits.map((visit) => (visit.id === visitId ? { ...visit, date, technicianId } : visit))
}

function dropMessage(reply: MoveVisitReply) {
  const errors = reply.result?.error ? Object.values(reply.result.error).flat() : []
  return errors.filter(Boolean).join(' ') || reply.error || 'Unable to move the visit.'
}

function WeekNav({ board }: { board: WeekBoardData }) {
  const links = [
    { label: 'Previous week', week: board.previousWeek },
    { label: 'This week', week: board.thisWeek },
    { label: 'Next week', week: board.nextWeek },
  ]
  return (
    <nav aria-label="Week" className="flex flex-wrap gap-1">
      {links.map((link) => {
        const current = link.label === 'This week' && board.weekStart === board.thisWeek
        return (
          <Link
            key={link.label}
            to={`${SCHEDULE_PATH}?week=${link.week}${board.technicianPage.page > 1 ? `&page=${board.technicianPage.page}` : ''}`}
            aria-current={current ? 'page' : undefined}
            className={cn(
              'inline-flex min-h-11 items-center rounded-lg border px-3 text-sm font-medium',
              current
                ? 'border-brand-700 bg-brand-700 text-white'
                : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
            )}
          >
            {link.label}
          </Link>
        )
      })}
    </nav>
  )
}

type Cells = Map<string, BoardVisitView[]>

function BoardGrid({
  board,
  rows,
  shownRow,
  cells,
  onMove,
  onDrop,
  dayAction,
}: {
  board: WeekBoardData
  rows: Row[]
  /** The row a narrow screen shows (index into `rows`). */
  shownRow: number
  cells: Cells
  onMove: (visit: MovableVisit) => void
  onDrop: (visitId: string, row: Row, date: string) => void
  dayAction?: (day: Day) => ReactNode
}) {
  const dragged = useRef<string | null>(null)
  const [target, setTarget] = useState<string | null>(null)
  const canDropOn = (date: string) => dragged.current !== null && date >= board.today
  // A visit's page leads back to this board as it is now: its week, technician page and (on a phone) shown row.
  const { page } = board.technicianPage
  const pageParam = page > 1 ? `&page=${page}` : ''
  const rowParam = shownRow > 0 ? `&row=${shownRow + 1}` : ''
  const here = `${SCHEDULE_PATH}?week=${board.weekStart}${pageParam}${rowParam}`
  const visitTo = useMemo(() => visitHrefsFrom(here), [here])

  function dropProps(row: Row, day: Day) {
    const key = cellKey(row.id, day.date)
    return {
      onDragOver: (event: DragEvent) => {
        if (!canDropOn(day.date)) return
        event.preventDefault()
        event.dataTransfer.dropEffect = 'move'
        if (target !== key) setTarget(key)
      },
      onDragLeave: () => setTarget((current) => (current === key ? null : current)),
      onDrop: (event: DragEvent) => {
        event.preventDefault()
        const visitId = event.dataTransfer.getData('text/plain') || dragged.current
        dragged.current = null
        setTarget(null)
        if (visitId) onDrop(visitId, row, day.date)
      },
    }
  }

  return (
    // Wide screens: a grid, its cells at least a card tall so an empty one (an empty "Unassigned" day) takes a drop.
    // Narrow ones: the same table as blocks — the days as a wrapped header, then the shown row's days one under
    // another.
    <div className="lg:rounded-xl lg:border lg:border-slate-200 lg:bg-white lg:shadow-sm">
      <table className="block w-full border-collapse text-sm lg:table lg:table-fixed">
        <caption className="sr-only">Visits by technician and day</caption>
        <thead className="block lg:table-header-group">
          <tr className="flex flex-wrap gap-1 text-left lg:table-row lg:border-b lg:border-slate-200 lg:bg-slate-50">
            <th scope="col" className="hidden w-36 p-2 font-semibold lg:table-cell">
              Technician
            </th>
            {board.days.map((day) => (
              <th
                key={day.date}
                scope="col"
                // The column's name is its date alone: a day's link (dayAction) is not read out with every cell.
                aria-label={day.label}
                className={cn(
                  'rounded-md border border-slate-200 px-2 py-1 text-xs font-semibold lg:rounded-none lg:border-0 lg:p-2 lg:text-sm',
                  day.date === board.today && 'bg-brand-50 text-brand-900',
                )}
              >
                <span className="block">{day.label}</span>
                {dayAction ? <span className="block font-normal">{dayAction(day)}</span> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="mt-3 block lg:table-row-group">
          {rows.map((row, index) => (
            <tr key={row.id ?? UNASSIGNED} className={cn('board-row', index !== shownRow && 'max-lg:hidden')}>
              <th scope="row" className="board-row-name">
                {row.name}
              </th>
              {board.days.map((day) => {
                const key = cellKey(row.id, day.date)
                const visits = cells.get(key) ?? []
                return (
                  <td
                    key={day.date}
                    {...dropProps(row, day)}
                    className={cn(
                      'board-cell',
                      day.date < board.today && 'board-cell-past',
                      target === key && 'board-cell-target',
                    )}
                  >
                    <p className={cn('board-day', day.date === board.today && 'text-brand-800')}>
                      {day.label}
                      {day.date === board.today ? ' · Today' : ''}
                      {visits.length === 0 ? <span className="font-normal text-slate-600"> · No visits</span> : null}
                    </p>
                    <CellHeader row={row} day={day} visits={visits} />
                    <ul className="space-y-1.5">
                      {visits.map((visit) => (
                        <VisitItem
                          key={visit.id}
                          visit={visit}
                          to={visitTo(visit.id)}
                          onMove={onMove}
                          onDragStart={(event) => {
                            dragged.current = visit.id
                            event.dataTransfer.setData('text/plain', visit.id)
                            event.dataTransfer.effectAllowed = 'move'
                          }}
                          onDragEnd={() => {
                            dragged.current = null
                            setTarget(null)
                          }}
                        />
                      ))}
                    </ul>
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** A cell's count, planned minutes and its link to that technician's route for the day. */
function CellHeader({ row, day, visits }: { row: Row; day: Day; visits: readonly BoardVisitView[] }) {
  if (visits.length === 0) return null
  return (
    <div className="board-cell-head">
      <span>{cellSummary(visits)}</span>
      <Link
        to={routePath(row, day.date)}
        discover="none"
        aria-label={`Route: ${row.name}, ${day.label}`}
        className="board-route"
      >
        Route
      </Link>
    </div>
  )
}

function VisitItem({
  visit,
  to,
  onMove,
  onDragStart,
  onDragEnd,
}: {
  visit: BoardVisitView
  /** Its page's address (`visitHrefsFrom`). */
  to: string
  onMove: (visit: MovableVisit) => void
  onDragStart: (event: DragEvent) => void
  onDragEnd: () => void
}) {
  const open = visit.state === 'open'
  return (
    // Drawn once per visit, hundreds of times a page: its classes are named in app.css, its elements are siblings (the
    // phone's grid puts the button beside them), and its link is not announced to route discovery (every route is
    // known from the start).
    <li
      draggable={open}
      onDragStart={open ? onDragStart : undefined}
      onDragEnd={onDragEnd}
      className={open ? 'board-visit' : 'board-visit board-visit-done'}
    >
      <span className="board-time">
        {clockLabel(visit.clock)}
        {visit.state === 'completed' ? <StatusPill tone="green">Completed</StatusPill> : null}
        {visit.state === 'skipped' ? <StatusPill tone="amber">Skipped</StatusPill> : null}
      </span>
      <Link to={to} discover="none" className={visit.state === 'skipped' ? 'board-name line-through' : 'board-name'}>
        {visit.customerName}
      </Link>
      {visit.place ? <span className="board-place">{visit.place}</span> : null}
      {open ? (
        <button type="button" data-move-visit={visit.id} onClick={() => onMove(visit)} className="board-move">
          Move visit
        </button>
      ) : null}
    </li>
  )
}
