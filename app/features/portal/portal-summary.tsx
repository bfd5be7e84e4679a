import type { ReactNode } from 'react'
import { ReadingStatuses } from '~/components/water-balance'
import { chemistryText } from './chemistry-text'
import type { CustomerPortalData } from './customer-portal.server'

function Tile({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="mt-1 space-y-0.5">{children}</dd>
    </div>
  )
}

/** The four tiles at the top: next visit, completed visits, latest chemistry, balance due. */
export function PortalSummary({ data }: { data: CustomerPortalData }) {
  const { nextVisit, counts, latestReading, balance, arrivingToday } = data
  return (
    <section aria-labelledby="summary-heading">
      <h2 id="summary-heading" className="sr-only">
        Summary
      </h2>
      <dl className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
        <Tile label="Next visit">
          {arrivingToday ? (
            <>
              <p className="text-lg font-semibold">Today</p>
              <p className="font-medium text-brand-700">{arrivingToday}</p>
            </>
          ) : nextVisit ? (
            <>
              <p className="text-lg font-semibold">{nextVisit.when}</p>
              <p className="text-sm text-slate-600">
                {nextVisit.technician ? `with ${nextVisit.technician}` : 'Technician to be assigned'}
              </p>
            </>
          ) : (
            <p className="text-lg font-semibold">No visit scheduled</p>
          )}
        </Tile>
        <Tile label="Completed visits">
          <p className="text-2xl font-bold">{counts.completed}</p>
          <p className="text-sm text-slate-600">
            of {counts.total} {counts.total === 1 ? 'visit' : 'visits'} recorded
          </p>
        </Tile>
        <Tile label="Latest chemistry">
          {latestReading ? (
            <>
              <p className="font-semibold">{chemistryText(latestReading)}</p>
              <ReadingStatuses summary={latestReading.summary} />
              <p className="text-sm text-slate-600">Taken {latestReading.takenOn}</p>
            </>
          ) : (
            <p className="text-slate-600">No chemistry readings yet.</p>
          )}
        </Tile>
        <Tile label="Balance due">
          {balance.settled ? (
            <p className="text-2xl font-bold text-emerald-700">All settled</p>
          ) : (
            <p className="text-2xl font-bold">{balance.due}</p>
          )}
        </Tile>
      </dl>
    </section>
  )
}
