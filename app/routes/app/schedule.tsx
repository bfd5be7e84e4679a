// /app/schedule: the office's week board (docs/product.md "Schedule") — "Unassigned" plus one row per technician, one
// column per day from Monday; visits move by drag and drop or by "Move visit".
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { BalanceDayLink } from '~/features/schedule/balance-link'
import { dayHeader, packCells } from '~/features/schedule/board-cells'
import { moveVisitIntent } from '~/features/schedule/move-visit.server'
import { ScheduleIntentSchema } from '~/features/schedule/schedule-intent-schema'
import { WeekBoard } from '~/features/schedule/week-board'
import { getWeekBoard, mondayOf } from '~/models/week-board.server'
import { addDays, localDateAt, parseAddressDate } from '~/schedule/local-date'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import { preparedLoader } from '~/utils/prepared-statements.server'
import type { Route } from './+types/schedule'

export const loader = preparedLoader(async ({ request }: Route.LoaderArgs) => {
  const member = await requireCompanyCapability(request, 'visits:manage')
  // The company's today from the timezone the guard already read: no query of its own.
  const today = localDateAt(new Date(), member.timezone)
  const thisWeek = mondayOf(today)
  // A date that cannot be (2026-02-30, 9999-12-31) is not found; only a Monday names a week, and another real day (an
  // old or edited link) shows this week.
  const asked = new URL(request.url).searchParams.get('week') || null
  const week = asked === null ? null : parseAddressDate(asked)
  if (asked !== null && week === null) notFound()
  const weekStart = week !== null && mondayOf(week) === week ? week : thisWeek
  const technicianPage = Number(new URL(request.url).searchParams.get('page') ?? 1)
  const board = await getWeekBoard({
    companyId: member.companyId,
    timezone: member.timezone,
    weekStart,
    technicianPage,
  })
  return {
    weekStart,
    thisWeek,
    previousWeek: addDays(weekStart, -7),
    nextWeek: addDays(weekStart, 7),
    today,
    days: board.days.map((date) => ({ date, label: dayHeader(date) })),
    // Every technician ("Move visit" offers them all); the rows are this page's slice of them (technicianPage).
    technicians: board.technicians.map((tech) => ({ id: tech.id, name: tech.name ?? tech.email })),
    technicianPage: board.technicianPage,
    // What a card shows and a move needs, by cell; the address is on the visit's page.
    cells: packCells(board.visits),
    truncated: board.truncated,
  }
})

export async function action({ request }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'visits:manage')
  const formData = await readForm(request)
  const parsed = ScheduleIntentSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) unknownIntent()
  const { intent, visitId } = parsed.data
  switch (intent) {
    case 'move-visit':
      return moveVisitIntent(member.companyId, visitId, formData)
  }
}

export function meta() {
  return [{ title: 'Schedule · Pool Bud' }]
}

export default function SchedulePage({ loaderData }: Route.ComponentProps) {
  return <WeekBoard board={loaderData} dayAction={(day) => <BalanceDayLink date={day.date} label={day.label} />} />
}

export function ErrorBoundary() {
  return <RouteError />
}
