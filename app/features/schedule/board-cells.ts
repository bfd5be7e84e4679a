// The week board's arithmetic, kept pure so the board, its phone list and the tests agree: which cell a visit is
// in, how the visits travel by cell, what a cell sums to ("4 visits · 2 h 10 min"), how a day column is headed
// ("Mon, Nov 23, 2026") and a card's time ("9:30 AM").

/** The row of visits nobody is assigned to; also the route page's name for it. */
export const UNASSIGNED = 'unassigned'

export type CellVisit = {
  id: string
  date: string
  technicianId: string | null
  minutes: number
  state: 'open' | 'completed' | 'skipped' | 'canceled'
}

export function cellKey(technicianId: string | null, date: string) {
  return `${technicianId ?? UNASSIGNED}|${date}`
}

/** Visits by cell, each cell in the order given (the board's order: time, then route position). */
export function groupByCell<T extends CellVisit>(visits: readonly T[]): Map<string, T[]> {
  const cells = new Map<string, T[]>()
  for (const visit of visits) {
    const key = cellKey(visit.technicianId, visit.date)
    const cell = cells.get(key)
    if (cell) cell.push(visit)
    else cells.set(key, [visit])
  }
  return cells
}

/**
 * A visit as the board's data carries it (docs/performance.md "Week board"): its technician and day are said once for
 * its cell, and an open visit — most of them — has no state.
 */
export type PackedVisit<T extends CellVisit> = Omit<T, 'date' | 'technicianId' | 'state'> & {
  state?: Exclude<CellVisit['state'], 'open'>
}

export type BoardCell<T extends CellVisit> = { technicianId: string | null; date: string; visits: PackedVisit<T>[] }

/** The visits by cell as the loader sends them; `unpackCells` gives them back. */
export function packCells<T extends CellVisit>(visits: readonly T[]): BoardCell<T>[] {
  return [...groupByCell(visits).values()].map((group) => ({
    technicianId: group[0]?.technicianId ?? null,
    date: group[0]?.date ?? '',
    visits: group.map(({ date: _date, technicianId: _technicianId, state, ...visit }) =>
      state === 'open' ? visit : { ...visit, state },
    ),
  }))
}

/** Every visit of `cells` with its cell and state again, each cell's in its order. */
export function unpackCells<T extends CellVisit>(cells: readonly BoardCell<T>[]): T[] {
  return cells.flatMap((cell) =>
    cell.visits.map(
      (visit) => ({ ...visit, date: cell.date, technicianId: cell.technicianId, state: visit.state ?? 'open' }) as T,
    ),
  )
}

/** "45 min", "2 h", "2 h 10 min". */
export function formatMinutes(minutes: number) {
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  if (hours === 0) return `${rest} min`
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`
}

/**
 * A cell's count and planned time: every visit shown counts, but a skipped visit plans no time on site (nobody
 * will be there), so the minutes are the work still planned or done.
 */
export function cellSummary(visits: readonly CellVisit[]) {
  const minutes = visits.reduce((sum, visit) => sum + (visit.state === 'skipped' ? 0 : visit.minutes), 0)
  const count = `${visits.length} ${visits.length === 1 ? 'visit' : 'visits'}`
  return `${count} · ${formatMinutes(minutes)}`
}

/**
 * "09:30" (a visit's wall-clock time in the company's zone) as "9:30 AM": the card's time, worked out the same on the
 * server and in the browser from the one field "Move visit" needs anyway.
 */
export function clockLabel(clock: string) {
  const [hour = 0, minute = 0] = clock.split(':').map(Number)
  return `${hour % 12 || 12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`
}

const DAY_HEADER = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
})

/**
 * A local date as a column header, with its year: "Mon, Nov 23, 2026" (docs/product.md "Easy to get wrong": full
 * dates).
 */
export function dayHeader(date: string) {
  return DAY_HEADER.format(new Date(`${date}T12:00:00Z`))
}
