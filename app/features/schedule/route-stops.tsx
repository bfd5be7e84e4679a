// The route page's list (docs/product.md "Schedule"): the start, each stop with its distance from the one before,
// "Move up" / "Move down" as plain form buttons (so they work before JavaScript), "Optimize route", each stop's ETA,
// the total, and the answer to an action with its "Undo".
import { useEffect, useRef } from 'react'
import { Form, Link, useLocation, useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import { visitHref } from '~/features/visits/back-link'
import type { VisitState } from '~/models/visit-state'
import type { LatLng } from '~/routing/distance'

export type RouteStopView = {
  id: string
  number: number
  customerName: string
  address: string
  time: string
  /** Estimated arrival ("10:40 AM", docs/routing.md); null for finished stops and stops without a place. */
  eta: string | null
  /** Minutes past its appointment or window on this order; null when on time. */
  lateBy: number | null
  /** "Appointment 8:00 AM" or "Arrive 9:00 AM–11:00 AM". */
  windowLabel: string | null
  state: VisitState
  skipReason: string | null
  point: LatLng | null
  /** Where to fix a ZIP-center position (the location's form, "Adjust position"); null when the point is exact. */
  fixPosition: string | null
  /** The drive from the stop before (or the start), "3.2 mi"; none for finished stops and stops without a place. */
  leg: string | null
}

export type RouteStopsData = {
  start: { address: string; point: LatLng } | null
  /** Where the day ends (the company's address unless the technician has their own) and the drive there. */
  end: { address: string; point: LatLng; leg: string | null } | null
  stops: RouteStopView[]
  /** The open stops in route order: what a reorder posts. */
  openIds: string[]
  canOptimize: boolean
  total: string
  source: 'road' | 'straight-line'
  fallback: string | null
}

export type RouteActionReply = {
  intent: string | null
  tone: 'success' | 'error'
  message: string
  /** The order before "Optimize route", for "Undo". */
  undo?: string[]
}

export function ActionMessage({ reply }: { reply: RouteActionReply }) {
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
            <input key={id} type="hidden" name="visitIds" value={id} />
          ))}
          <Button type="submit" variant="secondary" pending={undoing} pendingLabel="Undoing…">
            Undo
          </Button>
        </Form>
      ) : null}
    </Alert>
  )
}

export function StopsCard({ data }: { data: RouteStopsData }) {
  const navigation = useNavigation()
  // Pending until the reloaded order shows (the form's data stays through the reload that follows the action).
  const submitting = navigation.state !== 'idle' ? navigation.formData : undefined
  const optimizing = submitting?.get('intent') === 'optimize'
  const moving = submitting?.get('move')
  const list = useKeepMoveFocus(typeof moving === 'string' ? moving : undefined)
  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Stops</h2>
        {data.canOptimize ? (
          <Form method="post" preventScrollReset>
            <Button type="submit" name="intent" value="optimize" pending={optimizing} pendingLabel="Optimizing…">
              Optimize route
            </Button>
          </Form>
        ) : null}
      </div>
      {data.fallback ? <Alert tone="info">{data.fallback}</Alert> : null}
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="reorder" />
        {data.openIds.map((id) => (
          <input key={id} type="hidden" name="visitIds" value={id} />
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
          {data.end ? (
            <li className="flex gap-3 py-3 text-sm">
              <span aria-hidden="true" className="mt-0.5 size-7 shrink-0 rounded-sm bg-slate-900" />
              <span className="min-w-0 break-words">
                <span className="font-semibold">End:</span> {data.end.address}
                {data.end.leg ? (
                  <span className="block text-slate-700">
                    {data.end.leg} <span className="text-slate-600">from the last stop</span>
                  </span>
                ) : null}
              </span>
            </li>
          ) : null}
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
    const [visitId, direction] = move.split(':')
    const other = `${visitId}:${direction === 'up' ? 'down' : 'up'}`
    const button = [move, other]
      .map((value) => list.current?.querySelector<HTMLButtonElement>(`button[name="move"][value="${value}"]`))
      .find((candidate) => candidate && !candidate.disabled)
    button?.focus()
  }, [moving])
  return list
}

function stateLabel(stop: RouteStopView) {
  if (stop.state === 'completed') return 'Completed'
  if (stop.state === 'skipped') return `Skipped: ${stop.skipReason}`
  if (stop.state === 'canceled') return 'Canceled'
  return null
}

function StopRow({
  stop,
  openIds,
  firstLegFromStart,
  busy,
  moving,
}: {
  stop: RouteStopView
  openIds: string[]
  firstLegFromStart: boolean
  busy: boolean
  moving: string | undefined
}) {
  const position = openIds.indexOf(stop.id)
  const state = stateLabel(stop)
  // The visit page's back link returns here ("Back to route").
  const { pathname } = useLocation()
  const from = position === 0 && firstLegFromStart ? 'from start' : 'from previous stop'
  return (
    <li className={cn('flex gap-3 py-3', stop.state !== 'open' && 'text-slate-600')}>
      <span
        className={cn(
          'flex size-7 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-white',
          // White on slate-600 keeps AA contrast for a finished stop's number.
          stop.state === 'open' ? 'bg-brand-700' : 'bg-slate-600',
        )}
      >
        {stop.number}
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <Link
            to={visitHref(stop.id, pathname)}
            className={cn('font-semibold break-words text-brand-700 hover:underline', textLinkTarget)}
          >
            {stop.customerName}
          </Link>
          <span className="text-sm">{stop.eta ? `ETA ${stop.eta}` : stop.time}</span>
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
          {stop.point && stop.fixPosition ? (
            <span>
              Approximate: ZIP center{' '}
              <Link to={stop.fixPosition} className={cn('font-medium text-brand-700 underline', textLinkTarget)}>
                Fix position<span className="sr-only"> of {stop.customerName}</span>
              </Link>
            </span>
          ) : null}
          {stop.windowLabel ? <span>{stop.windowLabel}</span> : null}
          {stop.lateBy ? <span className="font-medium text-danger">{stop.lateBy} min late</span> : null}
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
                  className="px-3 py-1"
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

export function MissingPoints({ stops }: { stops: RouteStopView[] }) {
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
