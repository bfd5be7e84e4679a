// The week board (OPERATIONS §4): technicians (plus "Unassigned") by days, Monday first. Wide screens get a grid
// whose open visits can be dragged to another cell; phones get the same week as a list by day, then technician
// (without JavaScript, a phone the server took for a wide screen gets the grid in its own scrolling frame).
// Every open visit also has "Move visit" (a dialog), for keyboard and touch. Live updates come from the app layout,
// which already listens for the company's changes on every office page.
import { type DragEvent, useRef, useState, useSyncExternalStore } from 'react'
import { Link, useFetcher } from 'react-router'
import { Pager } from '~/components/pager'
import { StatusPill } from '~/components/status-badge'
import { Alert } from '~/components/ui/alert'
import { cn } from '~/components/ui/cn'
import { cellKey, cellSummary, groupByCell, UNASSIGNED } from './board-cells'
import { type MovableVisit, MoveVisitDialog, type MoveVisitReply, type TechnicianOption } from './move-visit-form'

const SCHEDULE_PATH = '/app/schedule'

export type BoardVisitView = MovableVisit & {
  time: string
  minutes: number
  state: 'open' | 'completed' | 'skipped' | 'cancelled'
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
  visits: readonly BoardVisitView[]
  truncated: boolean
  /** The server's guess at the screen (a phone's browser says so): the layout it renders; the browser then checks. */
  layout: BoardLayout
}

export type BoardLayout = 'grid' | 'list'

/** Below Tailwind's `sm`: a phone. */
const NARROW = '(max-width: 639.98px)'

/**
 * One layout is rendered, not both with one hidden by CSS: a week of ten technicians is hundreds of visits, and
 * rendering each twice doubled the page (issue 22). The server renders its guess; once hydrated the page follows the
 * screen's real width (a wide window on a phone's user agent, a resized window) and keeps following it.
 */
function useBoardLayout(serverGuess: BoardLayout): BoardLayout {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(NARROW)
      query.addEventListener('change', onChange)
      return () => query.removeEventListener('change', onChange)
    },
    () => (window.matchMedia(NARROW).matches ? 'list' : 'grid'),
    () => serverGuess,
  )
}

type Row = { id: string | null; name: string }
type Day = WeekBoardData['days'][number]

const routePath = (row: Row, date: string) => `${SCHEDULE_PATH}/${row.id ?? UNASSIGNED}/${date}`

export function WeekBoard({ board }: { board: WeekBoardData }) {
  const layout = useBoardLayout(board.layout)
  const drop = useFetcher<MoveVisitReply>()
  const [moving, setMoving] = useState<MovableVisit | null>(null)
  const { from, to } = board.technicianPage
  const rows: Row[] = [...board.technicians.slice(from - 1, to), { id: null, name: 'Unassigned' }]
  const visits = withPendingDrop(board.visits, drop.formData)
  const cells = groupByCell(visits)
  const dropFailed = drop.state === 'idle' && drop.data && !drop.data.ok ? dropMessage(drop.data) : null

  function moveByDrop(jobId: string, row: Row, date: string) {
    const visit = board.visits.find((item) => item.id === jobId)
    if (!visit || (visit.date === date && visit.technicianId === row.id)) return
    drop.submit(
      { intent: 'move-visit', jobId, date, technicianId: row.id ?? '', scope: 'one' },
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
      {layout === 'grid' ? (
        <BoardGrid board={board} rows={rows} cells={cells} onMove={setMoving} onDrop={moveByDrop} />
      ) : (
        <BoardList board={board} rows={rows} cells={cells} onMove={setMoving} />
      )}
    </div>
  )
}

/** The visits as they will be once the drop being saved lands, so a dragged visit stays where it was put. */
function withPendingDrop(visits: readonly BoardVisitView[], formData: FormData | undefined) {
  const jobId = formData?.get('jobId')
  const date = formData?.get('date')
  if (typeof jobId !== 'string' || typeof date !== 'string') return visits
  const technicianId = String(formData?.get('technicianId') ?? '') || null
  return visits.map((visit) => (visit.id === jobId ? { ...visit, date, technicianId } : visit))
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
  cells,
  onMove,
  onDrop,
}: {
  board: WeekBoardData
  rows: Row[]
  cells: Cells
  onMove: (visit: MovableVisit) => void
  onDrop: (jobId: string, row: Row, date: string) => void
}) {
  const dragged = useRef<string | null>(null)
  const [target, setTarget] = useState<string | null>(null)
  const canDropOn = (date: string) => dragged.current !== null && date >= board.today

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
        const jobId = event.dataTransfer.getData('text/plain') || dragged.current
        dragged.current = null
        setTarget(null)
        if (jobId) onDrop(jobId, row, day.date)
      },
    }
  }

  return (
    // The grid scrolls inside its own frame on narrower screens; the page itself never scrolls sideways.
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full min-w-[64rem] table-fixed border-collapse text-sm">
        <caption className="sr-only">Visits by technician and day</caption>
        <thead>
          <tr className="border-b border-slate-200 bg-slate-50 text-left">
            <th scope="col" className="w-36 p-2 font-semibold">
              Technician
            </th>
            {board.days.map((day) => (
              <th
                key={day.date}
                scope="col"
                className={cn('p-2 font-semibold', day.date === board.today && 'bg-brand-50 text-brand-900')}
              >
                {day.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id ?? UNASSIGNED} className="border-b border-slate-100 align-top last:border-b-0">
              <th scope="row" className="p-2 text-left font-semibold break-words">
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
                      'border-l border-slate-100 p-1.5',
                      day.date < board.today && 'bg-slate-50/60',
                      target === key && 'bg-brand-50 outline-2 outline-brand-600 -outline-offset-2',
                    )}
                  >
                    <CellHeader row={row} day={day} visits={visits} />
                    <ul className="space-y-1.5">
                      {visits.map((visit) => (
                        <VisitItem
                          key={visit.id}
                          visit={visit}
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
    <div className="mb-1.5 flex flex-wrap items-baseline justify-between gap-x-2 text-xs text-slate-600">
      <span>{cellSummary(visits)}</span>
      <Link
        to={routePath(row, day.date)}
        aria-label={`Route: ${row.name}, ${day.label}`}
        className="inline-flex min-h-11 min-w-11 items-center justify-center font-medium text-brand-700 hover:underline sm:min-h-6 sm:min-w-0"
      >
        Route
      </Link>
    </div>
  )
}

function VisitItem({
  visit,
  onMove,
  onDragStart,
  onDragEnd,
}: {
  visit: BoardVisitView
  onMove: (visit: MovableVisit) => void
  onDragStart?: (event: DragEvent) => void
  onDragEnd?: () => void
}) {
  const open = visit.state === 'open'
  return (
    <li
      draggable={open && Boolean(onDragStart)}
      onDragStart={open ? onDragStart : undefined}
      onDragEnd={onDragEnd}
      // Phones: one row, the button beside the name; the grid's narrow cells stack it underneath (app.css).
      className={cn(
        'board-visit',
        open ? 'board-visit-open' : 'board-visit-done',
        open && onDragStart && 'cursor-grab',
      )}
    >
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="text-xs font-medium text-slate-600">{visit.time}</span>
          {visit.state === 'completed' ? <StatusPill tone="green">Completed</StatusPill> : null}
          {visit.state === 'skipped' ? <StatusPill tone="amber">Skipped</StatusPill> : null}
        </div>
        <Link to={`/app/jobs/${visit.id}`} className={cn('board-name', visit.state === 'skipped' && 'line-through')}>
          {visit.customerName}
        </Link>
      </div>
      {open ? (
        <button type="button" data-move-visit={visit.id} onClick={() => onMove(visit)} className="board-move">
          Move visit
        </button>
      ) : null}
    </li>
  )
}

/** Phones: the week as a list by day, then technician (no grid wider than the screen). */
function BoardList({
  board,
  rows,
  cells,
  onMove,
}: {
  board: WeekBoardData
  rows: Row[]
  cells: Cells
  onMove: (visit: MovableVisit) => void
}) {
  return (
    <div className="space-y-4">
      {board.days.map((day) => {
        const busy = rows.filter((row) => cells.has(cellKey(row.id, day.date)))
        return (
          <section key={day.date} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <h2 className={cn('text-base font-semibold', day.date === board.today && 'text-brand-800')}>
              {day.label}
              {day.date === board.today ? ' · Today' : ''}
            </h2>
            {busy.length === 0 ? <p className="mt-1 text-sm text-slate-600">No visits.</p> : null}
            {busy.map((row) => {
              const visits = cells.get(cellKey(row.id, day.date)) ?? []
              return (
                <div key={row.id ?? UNASSIGNED} className="mt-3 space-y-2">
                  <h3 className="text-sm font-semibold">{row.name}</h3>
                  <CellHeader row={row} day={day} visits={visits} />
                  <ul className="space-y-2">
                    {visits.map((visit) => (
                      <VisitItem key={visit.id} visit={visit} onMove={onMove} />
                    ))}
                  </ul>
                </div>
              )
            })}
          </section>
        )
      })}
    </div>
  )
}
