// /app/schedule/:technicianId/:date ("Route", docs/product.md "Schedule"): one technician's stops on one day in route
// order, with the drive distance to each and the day's total, a schematic map, "Optimize route" (keeping appointments
// and windows) with its undo, each stop's ETA, and reordering by hand ("Move up" / "Move down", plain forms, so it
// works before JavaScript). `unassigned` is the day's visits that have no technician yet.
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import { notFound, refusalStatus, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import { firstError } from '~/features/forms/first-error'
import { RouteMap } from '~/features/schedule/route-map'
import {
  applyMove,
  formatFullDate,
  formatMiles,
  lateMessage,
  OptimizeRouteSchema,
  optimizedMessage,
  ReorderRouteSchema,
} from '~/features/schedule/route-order'
import { ActionMessage, MissingPoints, type RouteActionReply, StopsCard } from '~/features/schedule/route-stops'
import { getDayRoute, optimizeDayRoute, setRouteOrder } from '~/models/day-route.server'
import { listTechnicians, mondayOf } from '~/models/week-board.server'
import { addDays, parseAddressDate } from '~/schedule/local-date'
import { redirectWithFlash } from '~/utils/flash.server'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import { preparedLoader } from '~/utils/prepared-statements.server'
import type { Failure } from '~/utils/result'
import { useLiveUpdates } from '~/utils/use-live-updates'
import type { Route } from './+types/route-day'

const UNASSIGNED = 'unassigned'

/** The route the URL names, or a 404: a bad date, or anyone but one of the company's technicians (or `unassigned`). */
async function requireRoute(request: Request, params: { technicianId: string; date: string }) {
  const { companyId, timezone } = await requireCompanyCapability(request, 'visits:manage')
  const { date } = params
  if (!parseAddressDate(date)) notFound()
  const technicians = await listTechnicians(companyId)
  const found = technicians.find((candidate) => candidate.id === params.technicianId)
  const technician =
    params.technicianId === UNASSIGNED
      ? { id: null, slug: UNASSIGNED, name: 'Unassigned' }
      : found && { id: found.id, slug: found.id, name: found.name }
  if (!technician) notFound()
  return {
    scope: { companyId, timezone, technicianId: technician.id, date },
    technician,
    technicians: [
      ...technicians.map((candidate) => ({ slug: candidate.id, name: candidate.name })),
      { slug: UNASSIGNED, name: 'Unassigned' },
    ],
  }
}

export const loader = preparedLoader(async ({ request, params }: Route.LoaderArgs) => {
  const { scope, technician, technicians } = await requireRoute(request, params)
  const route = await getDayRoute(scope)
  const stops = route.stops.map((stop, index) => ({
    id: stop.id,
    number: index + 1,
    customerName: stop.customerName,
    address: stop.address,
    time: stop.time,
    eta: stop.eta,
    lateBy: stop.lateBy,
    windowLabel: stop.windowLabel,
    state: stop.state,
    skipReason: stop.skipReason,
    point: stop.point,
    fixPosition: stop.approximate ? `/app/customers/${stop.customerId}?edit=location:${stop.locationId}` : null,
    leg: stop.legMeters === null ? null : formatMiles(stop.legMeters),
  }))
  const open = stops.filter((stop) => stop.state === 'open')
  return {
    technician: { slug: technician.slug, name: technician.name },
    technicians,
    date: scope.date,
    fullDate: formatFullDate(scope.date),
    previousDay: addDays(scope.date, -1),
    nextDay: addDays(scope.date, 1),
    weekStart: mondayOf(scope.date),
    start: route.start,
    end: route.end && {
      address: route.end.address,
      point: route.end.point,
      leg: route.end.legMeters === null ? null : formatMiles(route.end.legMeters),
    },
    stops,
    openIds: open.map((stop) => stop.id),
    canOptimize: open.filter((stop) => stop.point).length >= 2,
    total: formatMiles(route.totalMeters),
    source: route.source,
    fallback: route.fallback,
  }
})

function reply(value: RouteActionReply, status = 200) {
  return data<RouteActionReply>(value, status)
}

export async function action({ request, params }: Route.ActionArgs) {
  const { scope } = await requireRoute(request, params)
  const formData = await readForm(request)
  const intent = formData.get('intent')
  const refused = (result: Failure) =>
    reply({ intent: String(intent), tone: 'error', message: result.message }, refusalStatus(result))
  switch (intent) {
    case 'optimize': {
      const submission = parseWithZod(formData, { schema: OptimizeRouteSchema })
      if (submission.status !== 'success') unknownIntent()
      const result = await optimizeDayRoute(scope)
      if (!result.ok) return refused(result)
      const late = lateMessage(result.late)
      const tone = late ? 'error' : 'success'
      const lessLate = result.lateAfter < result.lateBefore - 1e-6
      if (!lessLate && result.afterMeters >= result.beforeMeters) {
        return reply({
          intent,
          tone,
          message: `The route is already as short as it gets: ${formatMiles(result.beforeMeters)}.${late}`,
        })
      }
      return reply({
        intent,
        tone,
        message: `${optimizedMessage(result.beforeMeters, result.afterMeters)}${late}`,
        undo: result.previous,
      })
    }
    case 'reorder': {
      const submission = parseWithZod(formData, { schema: ReorderRouteSchema })
      if (submission.status !== 'success') {
        const message = firstError(submission.error, 'Check the order.')
        return reply({ intent, tone: 'error', message }, 400)
      }
      const { visitIds, move, undo } = submission.value
      const result = await setRouteOrder({ ...scope, visitIds: applyMove(visitIds, move) })
      if (!result.ok) return refused(result)
      return redirectWithFlash(new URL(request.url).pathname, undo ? 'Route order restored.' : 'Route order saved.')
    }
    default:
      unknownIntent()
  }
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Route · ${data.technician.name} · ${data.fullDate} · Pool Bud` : 'Route · Pool Bud' }]
}

// ---- The page ----

const linkClass = cn('text-sm font-medium text-brand-700 hover:underline', textLinkTarget)

export default function RouteDayPage({ loaderData, actionData }: Route.ComponentProps) {
  const { technician, date, stops } = loaderData
  const base = `/app/schedule/${technician.slug}`
  useLiveUpdates(true)
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link to={`/app/schedule?week=${loaderData.weekStart}`} className={linkClass}>
          ← Back to schedule
        </Link>
        <h1 className="text-2xl font-bold break-words">
          Route <span className="font-normal text-slate-600">· {technician.name}</span>
        </h1>
        <p className="text-slate-700">{loaderData.fullDate}</p>
        <nav aria-label="Days" className="flex flex-wrap gap-x-4">
          <Link to={`${base}/${loaderData.previousDay}`} className={linkClass}>
            ← Previous day
          </Link>
          <Link to={`${base}/${loaderData.nextDay}`} className={linkClass}>
            Next day →
          </Link>
          {technician.slug !== UNASSIGNED && loaderData.openIds.length > 0 ? (
            <Link to={`${base}/${date}/cover`} className={linkClass}>
              Cover this day
            </Link>
          ) : null}
        </nav>
        <nav aria-label="Other routes this day" className="flex flex-wrap items-center gap-x-3 text-sm">
          {loaderData.technicians.map((other) =>
            other.slug === technician.slug ? (
              <span key={other.slug} aria-current="page" className="font-semibold text-slate-900">
                {other.name}
              </span>
            ) : (
              <Link key={other.slug} to={`/app/schedule/${other.slug}/${date}`} className={linkClass}>
                {other.name}
              </Link>
            ),
          )}
        </nav>
      </div>
      {actionData ? <ActionMessage reply={actionData} /> : null}
      {stops.length === 0 ? (
        <Card>
          <p className="text-slate-700">No visits on this day.</p>
        </Card>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <StopsCard data={loaderData} />
          <Card className="space-y-3 self-start">
            <h2 className="text-lg font-semibold">Map</h2>
            <RouteMap
              start={loaderData.start}
              end={loaderData.end}
              stops={stops.map((stop) => ({
                number: stop.number,
                customerName: stop.customerName,
                point: stop.point,
                open: stop.state === 'open',
              }))}
            />
            <MissingPoints stops={stops} />
          </Card>
        </div>
      )}
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
