import { Card } from '~/components/ui/card'

// Made-up numbers for a made-up day; the visible label keeps anyone from reading them as customer results.
const SNAPSHOT = { visits: 12, completed: 7, invoicesDue: 5 } as const

/** A dashboard-like card showing what a day looks like in Pool Bud, clearly marked as illustrative. */
export function DemoSnapshot() {
  const percent = Math.round((SNAPSHOT.completed / SNAPSHOT.visits) * 100)
  return (
    <Card aria-labelledby="demo-snapshot-title" className="w-full max-w-md">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="demo-snapshot-title" className="text-base font-semibold text-slate-900">
          Demo snapshot · Today
        </h3>
        <span className="rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-900">
          Illustrative figures
        </span>
      </div>
      <dl className="mt-4 grid grid-cols-3 gap-3 text-center">
        <div className="rounded-lg bg-brand-50 p-3">
          <dt className="text-xs font-medium text-slate-600">Visits</dt>
          <dd className="text-2xl font-bold text-brand-900">{SNAPSHOT.visits}</dd>
        </div>
        <div className="rounded-lg bg-green-50 p-3">
          <dt className="text-xs font-medium text-slate-600">Completed</dt>
          <dd className="text-2xl font-bold text-green-800">{SNAPSHOT.completed}</dd>
        </div>
        <div className="rounded-lg bg-amber-50 p-3">
          <dt className="text-xs font-medium text-slate-600">Invoices due</dt>
          <dd className="text-2xl font-bold text-amber-900">{SNAPSHOT.invoicesDue}</dd>
        </div>
      </dl>
      <div className="mt-4">
        <div className="flex justify-between text-xs text-slate-600">
          <span>Route progress</span>
          <span>
            {SNAPSHOT.completed} of {SNAPSHOT.visits} stops
          </span>
        </div>
        {/* The text above already states the progress, so the bar is decoration for sighted readers. */}
        {/* An SVG width, not a style attribute: the CSP allows no inline styles. */}
        <svg className="mt-1 block h-2 w-full" viewBox="0 0 100 2" preserveAspectRatio="none" aria-hidden="true">
          <rect width="100" height="2" rx="1" className="fill-slate-200" />
          <rect width={percent} height="2" rx="1" className="fill-brand-600" />
        </svg>
      </div>
      <p className="mt-4 text-xs text-slate-500">Sample data for a fictional company, not real customer results.</p>
    </Card>
  )
}
