import { cn } from '~/components/ui/cn'
import { ReadingStatuses } from '~/components/water-balance'
import type { CustomerPortalData } from './customer-portal.server'
import { factLabel, listCard, PortalSection } from './portal-section'

/** "Chemistry readings": the most recent readings, newest first, each with how it compares to the targets. */
export function PortalReadings({ readings }: { readings: CustomerPortalData['readings'] }) {
  return (
    <PortalSection
      id="readings"
      title="Chemistry readings"
      isEmpty={readings.length === 0}
      empty="No chemistry readings yet."
    >
      <ol
        aria-label={`The ${readings.length} most recent readings, newest first`}
        className="grid gap-3 md:grid-cols-2"
      >
        {readings.map((reading, index) => (
          // Readings have no id on the page (none is needed); their order is fixed by the loader.
          // biome-ignore lint/suspicious/noArrayIndexKey: a static, server-ordered list
          <li key={index} className={cn(listCard, 'space-y-2')}>
            <div>
              <h3 className="font-semibold">{reading.takenAt}</h3>
              <p className="text-sm text-slate-600">Visit of {reading.visitDate}</p>
            </div>
            <dl className="grid grid-cols-3 gap-2 text-sm">
              <div>
                <dt className={factLabel}>pH</dt>
                <dd className="text-base font-semibold tabular-nums">{reading.ph}</dd>
              </div>
              <div>
                <dt className={factLabel}>Chlorine</dt>
                <dd className="text-base font-semibold tabular-nums">{reading.chlorinePpm} ppm</dd>
              </div>
              <div>
                <dt className={factLabel}>Alkalinity</dt>
                <dd className="text-base font-semibold tabular-nums">{reading.alkalinity} ppm</dd>
              </div>
            </dl>
            <ReadingStatuses summary={reading.summary} />
          </li>
        ))}
      </ol>
    </PortalSection>
  )
}
