// The technician's clock on Today (docs/time.md): "Start day", then "Break" / "Back", and "End day" (asked first).
// Each tap goes through the phone's queue with the phone's time, like every change to a visit: with no signal it is
// kept on the phone and sent when the signal returns, once. What the buttons show is the server's day with the taps
// still waiting on the phone played over it, so the clock answers at once, online or not.
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { Dialog } from '~/components/ui/dialog'
import type { ClockKind } from '~/field/changes'
import { CLOCK_QUEUE_ID } from '~/field/changes'
import { dismissRefused, queueClock, useFieldQueue, useKeptUntilReload } from '~/field/queue'

export type ClockState = 'not-started' | 'working' | 'on-break' | 'ended'

export type DayClockData = {
  state: ClockState
  startAt: string | null
  breakSince: string | null
  endAt: string | null
  timezone: string
}

const NEXT: Record<ClockKind, ClockState> = {
  start: 'working',
  'break-start': 'on-break',
  'break-end': 'working',
  end: 'ended',
}

/** The day as the phone knows it: the server's, then each tap still waiting, in order. */
export function clockAsShown(
  server: Omit<DayClockData, 'timezone'>,
  waiting: ReadonlyArray<{ clock: ClockKind; madeAt: string }>,
) {
  let shown = { ...server }
  for (const tap of waiting) {
    shown = {
      ...shown,
      state: NEXT[tap.clock],
      startAt: tap.clock === 'start' ? tap.madeAt : shown.startAt,
      breakSince: tap.clock === 'break-start' ? tap.madeAt : tap.clock === 'break-end' ? null : shown.breakSince,
      endAt: tap.clock === 'end' ? tap.madeAt : shown.endAt,
    }
  }
  return shown
}

function timeText(iso: string | null, timeZone: string) {
  if (!iso) return ''
  return new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' }).format(new Date(iso))
}

type Tap = { key: string; clock: ClockKind; madeAt: string }

export function DayClock({ clock }: { clock: DayClockData }) {
  const queue = useFieldQueue(CLOCK_QUEUE_ID)
  // This page's own taps. A tap leaves the queue when the server has it, a moment before the page's data is loaded
  // again with it: until then the server's day here is the one before the tap, and the clock would jump back to it
  // (a finger on its way to "End day" then lands on "Back", which takes its place). So a tap the queue has finished
  // with is still played over the server's day until new data arrives, as the visit page does (use-visit-changes).
  const inQueue = new Set(queue.items.map((item) => item.key))
  const { kept: taps, keep } = useKeptUntilReload<Tap>(inQueue, clock)
  const refused = queue.items.flatMap((item) =>
    item.kind === 'clock' && item.state === 'refused' ? [{ key: item.key, reason: item.refusal ?? '' }] : [],
  )
  const queued = queue.items.flatMap((item): Tap[] =>
    item.kind === 'clock' && item.state === 'waiting'
      ? [{ key: item.key, clock: item.clock, madeAt: item.madeAt }]
      : [],
  )
  // Refused taps stay in the queue until dismissed, so these are the ones the server took.
  const sent = taps.filter((tap) => !inQueue.has(tap.key))
  const shown = clockAsShown(
    clock,
    [...sent, ...queued].sort((a, b) => a.madeAt.localeCompare(b.madeAt)),
  )
  const [pending, setPending] = useState<ClockKind | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [asking, setAsking] = useState(false)
  const at = (iso: string | null) => timeText(iso, clock.timezone)

  async function tap(kind: ClockKind) {
    setPending(kind)
    setError(null)
    const madeAt = new Date().toISOString()
    const stored = await queueClock(kind, madeAt)
    setPending(null)
    if (stored.ok) keep({ key: stored.key, clock: kind, madeAt })
    else setError(stored.message)
  }

  return (
    <section
      aria-labelledby="tech-clock"
      className="space-y-3 rounded-xl border border-slate-300 bg-white p-4 shadow-sm"
    >
      <h2 id="tech-clock" className="text-lg font-bold text-slate-900">
        Your day
      </h2>
      <p className="text-base text-slate-800" role="status">
        {shown.state === 'not-started' ? 'Not started yet.' : null}
        {shown.state === 'working' ? `Working since ${at(shown.startAt)}.` : null}
        {shown.state === 'on-break' ? `On a break since ${at(shown.breakSince)}.` : null}
        {shown.state === 'ended' ? `Day ended at ${at(shown.endAt)} (started ${at(shown.startAt)}).` : null}
        {queued.length > 0 ? ' Saved on this phone; it is sent when there is signal.' : null}
      </p>
      <div className="flex flex-wrap gap-2">
        {shown.state === 'not-started' ? (
          <Button
            type="button"
            className="min-h-12 flex-1"
            pending={pending === 'start'}
            pendingLabel="Starting…"
            onClick={() => void tap('start')}
          >
            Start day
          </Button>
        ) : null}
        {shown.state === 'working' ? (
          <>
            <Button
              type="button"
              variant="secondary"
              className="min-h-12 flex-1"
              pending={pending === 'break-start'}
              pendingLabel="Saving…"
              onClick={() => void tap('break-start')}
            >
              Break
            </Button>
            <Button
              type="button"
              variant="secondary"
              className="min-h-12 flex-1"
              disabled={pending !== null}
              onClick={() => setAsking(true)}
            >
              End day
            </Button>
          </>
        ) : null}
        {shown.state === 'on-break' ? (
          <Button
            type="button"
            className="min-h-12 flex-1"
            pending={pending === 'break-end'}
            pendingLabel="Saving…"
            onClick={() => void tap('break-end')}
          >
            Back
          </Button>
        ) : null}
      </div>
      {error ? (
        <p className="text-sm font-medium text-red-800" role="alert">
          {error}
        </p>
      ) : null}
      {refused.map((item) => (
        <div
          key={item.key}
          role="alert"
          className="flex flex-wrap items-start justify-between gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-danger"
        >
          <p className="min-w-0 flex-1">
            <strong>Not saved:</strong> {item.reason}
          </p>
          <Button type="button" variant="secondary" onClick={() => void dismissRefused(item.key)}>
            Dismiss
          </Button>
        </div>
      ))}
      <Dialog open={asking} onClose={() => setAsking(false)} title="End your day?">
        <p className="text-base text-slate-700">
          Your timesheet ends now. The office can correct it if this was a mistake.
        </p>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => setAsking(false)}>
            Cancel
          </Button>
          <Button
            type="button"
            onClick={() => {
              setAsking(false)
              void tap('end')
            }}
          >
            End day
          </Button>
        </div>
      </Dialog>
    </section>
  )
}
