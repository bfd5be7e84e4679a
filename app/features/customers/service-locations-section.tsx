// "Service locations" on the customer record: "Add service location", and each location with what the technician
// needs at the gate, its bodies of water and its service plans. A location with past visits is archived rather than
// removed; it stays on the record, read-only.
import { ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { BodiesOfWater } from './bodies-of-water'
import type { CustomerRecordData, LocationData } from './customer-record.server'
import type { RecordActionData } from './customer-record-schema'
import { ApproximatePoint } from './position-pin'
import { Detail } from './record-form'
import { PieceForm, PieceView } from './record-pieces'
import { ServicePlansSection } from './service-plans-section'

type Props = Pick<CustomerRecordData, 'open' | 'technicians' | 'today' | 'planDraft'> & { actionData: RecordActionData }

export function ServiceLocationsSection({ locations, ...props }: Props & { locations: readonly LocationData[] }) {
  const adding = props.open.add === 'location'
  return (
    <section aria-labelledby="locations-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="locations-heading" className="text-xl font-semibold">
          Service locations
        </h2>
        {adding ? null : (
          <ButtonLink to="?add=location" variant="secondary" preventScrollReset>
            Add service location
          </ButtonLink>
        )}
      </div>
      {adding ? (
        <Card>
          <PieceForm piece="location" actionData={props.actionData} />
        </Card>
      ) : null}
      {locations.map((location) => (
        <LocationCard key={location.id} location={location} {...props} />
      ))}
    </section>
  )
}

function LocationCard({
  location,
  open,
  technicians,
  today,
  planDraft,
  actionData,
}: Props & { location: LocationData }) {
  const title = location.label ? `${location.label}: ${location.address}` : location.address
  const editing = open.edit === `location:${location.id}`
  return (
    <Card
      aria-labelledby={editing ? undefined : `location-${location.id}`}
      aria-label={editing ? location.address : undefined}
      className={cn('space-y-4', location.archived && 'bg-slate-50')}
    >
      <ApproximatePoint.Provider value={location.approximatePoint}>
        <PieceView
          piece="location"
          id={location.id}
          name={location.address}
          values={location.form}
          editing={editing}
          readOnly={location.archived}
          consequence="A location with past visits is archived instead, keeping its history; its upcoming visits are canceled."
          details={
            <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
              <Detail label="Gate code">{location.gateCode ?? 'None'}</Detail>
              <Detail label="Dog on site">{location.dogOnSite ? 'Yes' : 'No'}</Detail>
              <Detail label="Minutes on site">{location.minutesOnSite}</Detail>
              <Detail label="Arrive between">{location.arriveBetween}</Detail>
              <Detail label="Tax rate">{location.taxRate}</Detail>
              <Detail label="Position">{location.position}</Detail>
              <Detail label="Access notes" className="sm:col-span-2 lg:col-span-1">
                <span className="whitespace-pre-line">{location.accessNotes ?? 'None'}</span>
              </Detail>
            </dl>
          }
          actionData={actionData}
        >
          <h3 id={`location-${location.id}`} className="min-w-0 text-lg font-semibold wrap-anywhere">
            {title}
            {location.archived ? <span className="ml-2 text-sm font-normal text-slate-600">(archived)</span> : null}
          </h3>
        </PieceView>
      </ApproximatePoint.Provider>
      <BodiesOfWater location={location} open={open} actionData={actionData} />
      <ServicePlansSection
        location={location}
        open={open}
        technicians={technicians}
        today={today}
        planDraft={planDraft}
        actionData={actionData}
      />
    </Card>
  )
}
