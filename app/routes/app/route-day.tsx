// /app/schedule/:technicianId/:date ("Route", OPERATIONS §4): one technician's stops on one day in route order, with
// the drive distance to each and the day's total, a schematic map, "Optimise route" with its undo, and reordering by
// hand ("Move up" / "Move down", plain forms, so it works before JavaScript). `unassigned` is the day's visits that
// have no technician yet.
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef } from 'react'
import { data, Form, Link, useNavigation } from 'react-router'
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { RouteMap } from '~/features/schedule/route-map'
import {
  applyMove,
  formatFullDate,
  formatMiles,
  OptimiseRouteSchema,
  optimisedMessage,
  ReorderRouteSchema,
} from '~/features/schedule/route-order'
import { getDayRoute, listTechnicians, mondayOf, optimiseDayRoute, setRouteOrder } from '~/models/visit.server'
import { addDays, isLocalDate } from '~/schedule/local-date'
import { redirectWithFlash } from '~/utils/flash.server'
import { readForm } from '~/utils/forms'
import { type Failure, failureStatus } from '~/utils/result'
import { useLiveUpdates } from '~/utils/use-live-updates'
import type { Route } from './+types/route-day'

const UNASSIGNED = 'unassigned'

/** The route the URL names, or a 404: a bad date, or anyone but one of the company's technicians (or `unassigned`). */
async function requireRoute(request: Request, params: { technicianId: string; date: string }) {
  const { companyId, timezone } = await requireCompanyCapability(request, 'jobs:manage')
  const { date } = params
  if (!isLocalDate(date)) notFound()
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

export async function loader({ request, params }: Route.LoaderArgs) {
  const { scope, technician, technicians } = await requireRoute(request, params)
  const route = await getDayRoute(scope)
  const stops = route.stops.map((stop, index) => ({
    id: stop.id,
    number: index + 1,
    customerName: stop.customerName,
    address: stop.address,
    time: stop.time,
    state: stop.state,
    skipReason: stop.skipReason,
    point: stop.point,
    leg: stop.legMetres === null ? null : formatMiles(stop.legMetres),
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
    stops,
    openIds: open.map((stop) => stop.id),
    canOptimise: open.filter((stop) => stop.point).length >= 2,
    total: formatMiles(route.totalMetres),
    source: route.source,
    fallback: route.fallback,
  }
}

type ActionReply = { intent: string | null; tone: 'success' | 'error'; message: string; undo?: string[] }

function reply(value: ActionReply, status = 200) {
  return data<ActionReply>(value, status)
}

export async function action({ request, params }: Route.ActionArgs) {
  const { scope } = await requireRoute(request, params)
  const formData = await readForm(request)
  const intent = formData.get('intent')
  const refused = (result: Failure) => {
    if (result.code === 'not-found') notFound()
    return reply({ intent: String(intent), tone: 'error', message: result.message }, failureStatus(result))
  }
  switch (intent) {
    case 'optimise': {
      const submission = parseWithZod(formData, { schema: OptimiseRouteSchema })
      if (submission.status !== 'success') return reply({ intent, tone: 'error', message: 'Unknown action.' }, 400)
      const result = await optimiseDayRoute(scope)
      if (!result.ok) return refused(result)
      if (result.afterMetres >= result.beforeMetres) {
        return reply({
          intent,
          tone: 'success',
          message: `The route is already as short as it gets: ${formatMiles(result.beforeMetres)}.`,
        })
      }
      return reply({
        intent,
        tone: 'success',
        message: optimisedMessage(result.beforeMetres, result.afterMetres),
        undo: result.previous,
      })
    }
    case 'reorder': {
      const submission = parseWithZod(formData, { schema: ReorderRouteSchema })
      if (submission.status !== 'success') {
        const message = Object.values(submission.error ?? {}).flat()[0] ?? 'Check the order.'
        return reply({ intent, tone: 'error', message }, 400)
      }
      const { jobIds, move, undo } = submission.value
      const result = await setRouteOrder({ ...scope, jobIds: applyMove(jobIds, move) })
      if (!result.ok) return refused(result)
      return redirectWithFlash(new URL(request.url).pathname, undo ? 'Route order restored.' : 'Route order saved.')
    }
    default:
      return reply({ intent: null, tone: 'error', message: 'Unknown action.' }, 400)
  }
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Route · ${data.technician.name} · ${data.fullDate} · Pool Bud` : 'Route · Pool Bud' }]
}

// ---- The page ----

type PageData = Route.ComponentProps['loaderData']
type Stop = PageData['stops'][number]

const linkClass = 'text-sm font-medium text-brand-700 hover:underline'

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
        <nav aria-label="Days" className="flex flex-wrap gap-x-4 gap-y-1">
          <Link to={`${base}/${loaderData.previousDay}`} className={linkClass}>
            ← Previous day
          </Link>
          <Link to={`${base}/${loaderData.nextDay}`} className={linkClass}>
            Next day →
          </Link>
        </nav>
        <nav aria-label="Other routes this day" className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
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

function ActionMessage({ reply }: { reply: ActionReply }) {
  const navigation = useNavigation()
  const undoing = navigation.state !== 'idle' && navigation.formData?.get('undo') === 'on'
  return (
    <Alert tone={reply.tone} className="flex flex-wrap items-center justify-between gap-2">
      <span>{reply.message}</span>
      {reply.undo ? (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="reorder" />
          <input type="hidden" name="undo" value="on" />
          {reply.undo.map((id) => (
            <input key={id} type="hidden" name="jobIds" value={id} />
          ))}
          <Button type="submit" variant="secondary" pending={undoing} pendingLabel="Undoing…">
            Undo
          </Button>
        </Form>
      ) : null}
    </Alert>
  )
}

function StopsCard({ data }: { data: PageData }) {
  const navigation = useNavigation()
  // Pending until the reloaded order shows (the form's data stays through the reload that follows the action).
  const submitting = navigation.state !== 'idle' ? navigation.formData : undefined
  const optimising = submitting?.get('intent') === 'optimise'
  const moving = submitting?.get('move')
  const list = useKeepMoveFocus(typeof moving === 'string' ? moving : undefined)
  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Stops</h2>
        {data.canOptimise ? (
          <Form method="post" preventScrollReset>
            <Button type="submit" name="intent" value="optimise" pending={optimising} pendingLabel="Optimising…">
              Optimise route
            </Button>
          </Form>
        ) : null}
      </div>
      {data.fallback ? <Alert tone="info">{data.fallback}</Alert> : null}
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="reorder" />
        {data.openIds.map((id) => (
          <input key={id} type="hidden" name="jobIds" value={id} />
        ))}
        <ol ref={list} className="divide-y divide-slate-200" aria-label="Stops in route order">
          {data.start ? (
            <li className="flex gap-3 py-3 text-sm">
              <span aria-hidden="true" className="mt-0.5 size-7 shrink-0 rounded-sm bg-slate-900" />
              <span className="min-w-0 break-words">
                <span className="font-semibold">Start:</span> {data.start.address}
              </span>
            </li>
          ) : null}
          {data.stops.map((stop) => (
            <StopRow
              key={stop.id}
              stop={stop}
              openIds={data.openIds}
              firstLegFromStart={Boolean(data.start)}
              busy={navigation.state !== 'idle'}
              moving={typeof moving === 'string' ? moving : undefined}
            />
          ))}
        </ol>
      </Form>
      <p className="flex flex-wrap justify-between gap-2 border-t border-slate-200 pt-3 font-semibold">
        <span>Total distance</span>
        <span>{data.total}</span>
      </p>
      <p className="text-xs text-slate-600">
        {data.source === 'road' ? 'Road distances.' : 'Estimated distances: straight line × 1.3.'}
      </p>
    </Card>
  )
}

/**
 * Moving a stop disables its button and reorders the list, which loses the keyboard's place: once the new order
 * shows, focus returns to the same button (or its other direction, at an end) so a stop can be moved again at once.
 */
function useKeepMoveFocus(moving: string | undefined) {
  const list = useRef<HTMLOListElement>(null)
  const lastMove = useRef<string | undefined>(undefined)
  useEffect(() => {
    if (moving) {
      lastMove.current = moving
      return
    }
    const move = lastMove.current
    lastMove.current = undefined
    if (!move) return
    const [jobId, direction] = move.split(':')
    const other = `${jobId}:${direction === 'up' ? 'down' : 'up'}`
    const button = [move, other]
      .map((value) => list.current?.querySelector<HTMLButtonElement>(`button[name="move"][value="${value}"]`))
      .find((candidate) => candidate && !candidate.disabled)
    button?.focus()
  }, [moving])
  return list
}

function stateLabel(stop: Stop) {
  if (stop.state === 'completed') return 'Completed'
  if (stop.state === 'skipped') return `Skipped: ${stop.skipReason}`
  if (stop.state === 'cancelled') return 'Cancelled'
  return null
}

function StopRow({
  stop,
  openIds,
  firstLegFromStart,
  busy,
  moving,
}: {
  stop: Stop
  openIds: string[]
  firstLegFromStart: boolean
  busy: boolean
  moving: string | undefined
}) {
  const position = openIds.indexOf(stop.id)
  const state = stateLabel(stop)
  const from = position === 0 && firstLegFromStart ? 'from start' : 'from previous stop'
  return (
    <li className={cn('flex gap-3 py-3', stop.state !== 'open' && 'text-slate-600')}>
      <span
        className={cn(
          'flex size-7 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-white',
          stop.state === 'open' ? 'bg-brand-700' : 'bg-slate-400',
        )}
      >
        {stop.number}
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <Link to={`/app/jobs/${stop.id}`} className="font-semibold break-words text-brand-700 hover:underline">
            {stop.customerName}
          </Link>
          <span className="text-sm">{stop.time}</span>
        </div>
        <p className="text-sm break-words">{stop.address}</p>
        <p className="flex flex-wrap gap-x-3 text-sm">
          {state ? <span className="font-medium">{state}</span> : null}
          {stop.leg ? (
            <span>
              {stop.leg} <span className="text-slate-600">{from}</span>
            </span>
          ) : null}
          {stop.state === 'open' && !stop.point ? <span>No location: not routed</span> : null}
        </p>
        {position !== -1 && openIds.length > 1 ? (
          <div className="flex flex-wrap gap-2 pt-1">
            {(['up', 'down'] as const).map((direction) => {
              const value = `${stop.id}:${direction}`
              const atEnd = direction === 'up' ? position === 0 : position === openIds.length - 1
              return (
                <Button
                  key={direction}
                  type="submit"
                  name="move"
                  value={value}
                  variant="secondary"
                  className="min-h-9 px-3 py-1"
                  disabled={atEnd || busy}
                  pending={moving === value}
                >
                  {/* One span: the button is a flex box, whose gap would split the visible words. */}
                  <span>
                    Move <span className="sr-only">{stop.customerName} </span>
                    {direction}
                  </span>
                </Button>
              )
            })}
          </div>
        ) : null}
      </div>
    </li>
  )
}

function MissingPoints({ stops }: { stops: Stop[] }) {
  const missing = stops.filter((stop) => !stop.point).length
  if (missing === 0) return null
  return (
    <p className="text-sm text-slate-600">
      {missing === 1
        ? '1 stop has no latitude and longitude and is not on the map.'
        : `${missing} stops have no latitude and longitude and are not on the map.`}
    </p>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
