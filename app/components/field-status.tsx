import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { CLOCK_QUEUE_ID } from '~/field/changes'
import { useFieldQueue } from '~/field/queue'
import { cn } from './ui/cn'

/** How long "All changes saved" stays after the last waiting change reached the server. */
const SAVED_FOR_MS = 5_000

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`
}

const PILL = 'inline-flex min-h-8 items-center rounded-2xl px-3 py-1 text-sm leading-snug font-semibold'

/**
 * The phone's state in the staff app's header (docs/product.md "The visit"): "Offline", "N changes waiting", then "All
 * changes saved"; changes the server refused, each linking to its visit; and when this phone cannot keep changes at
 * all. One polite live region, so a screen reader hears each change of state; empty (and no height) when all is well.
 * The region is in the server's page; what it says comes from the phone's queue once the page runs.
 */
export function FieldStatus() {
  const [running, setRunning] = useState(false)
  useEffect(() => setRunning(true), [])
  return (
    <div role="status" aria-live="polite" className="flex flex-wrap items-center gap-2 [&:not(:empty)]:pb-2">
      {running ? <QueueStatus /> : null}
    </div>
  )
}

function QueueStatus() {
  const { online, waiting, savedAt, refused, signedOut, noStorage } = useFieldQueue()
  const justSaved = useRecently(savedAt, SAVED_FOR_MS) && waiting === 0
  const refusedVisits = [...new Set(refused.map((item) => item.visitId))]
  return (
    <>
      {online ? null : <span className={cn(PILL, 'bg-slate-800 text-white')}>Offline</span>}
      {waiting > 0 ? (
        <span className={cn(PILL, 'bg-amber-100 text-amber-900 ring-1 ring-amber-700/40')}>
          {`${plural(waiting, 'change', 'changes')} waiting`}
        </span>
      ) : null}
      {justSaved ? <span className={cn(PILL, 'bg-green-100 text-green-900')}>All changes saved</span> : null}
      {signedOut && waiting > 0 ? (
        <Link to="/login" className={cn(PILL, 'min-h-11 bg-white text-brand-800 underline ring-1 ring-brand-700')}>
          Log in again to send them
        </Link>
      ) : null}
      {noStorage ? (
        <span className={cn(PILL, 'bg-red-700 text-white')}>Changes cannot be kept offline on this phone</span>
      ) : null}
      {refusedVisits.map((visitId, index) => {
        const count = refused.filter((item) => item.visitId === visitId).length
        return (
          <Link
            key={visitId}
            to={visitId === CLOCK_QUEUE_ID ? '/app' : `/app/visits/${visitId}`}
            className={cn(PILL, 'min-h-11 bg-red-700 text-white underline underline-offset-2 hover:bg-red-800')}
          >
            {`${plural(count, 'change', 'changes')} not applied: ${visitId === CLOCK_QUEUE_ID ? 'see Today' : 'see the visit'}`}
            {refusedVisits.length > 1 ? (
              <span className="sr-only">{` (${index + 1} of ${refusedVisits.length})`}</span>
            ) : null}
          </Link>
        )
      })}
    </>
  )
}

/** True for `forMs` after `since` (a timestamp that changes each time the thing happens again). */
function useRecently(since: number | null, forMs: number) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (since === null) return
    setNow(Date.now())
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, since + forMs - Date.now()))
    return () => clearTimeout(timer)
  }, [since, forMs])
  return since !== null && now - since < forMs
}
