import { useEffect, useId, useRef, useState } from 'react'
import { Form, Link, useActionData, useFetcher, useNavigation, useSearchParams } from 'react-router'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { StatusBadge } from '~/components/status-badge'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { inputClass } from '~/components/ui/field'
import { rowLinkTarget, textLinkTarget } from '~/components/ui/touch'
import { CustomerPicker, type PickedCustomer } from '~/features/customers/customer-picker'
import type { AssignJobReply } from '~/features/jobs/assign-job.server'
import { AssignJobForm } from '~/features/jobs/assign-job-form'
import type { ActionReply, DispatcherDashboardData } from './dispatcher-dashboard.server'

/** The office's dashboard: counts, job creation, assignment, today's route and recent activity. */
export function DispatcherDashboard({ data }: { data: DispatcherDashboardData }) {
  const stats = [
    { label: 'Unassigned', value: data.counts.unassigned },
    { label: "Today's jobs", value: data.counts.today },
    { label: 'Overdue', value: data.counts.overdue },
    { label: 'Upcoming', value: data.counts.upcoming },
  ]
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Dispatch</h1>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {stats.map((stat) => (
          <div key={stat.label} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-600">{stat.label}</dt>
            <dd className="text-3xl font-bold">{stat.value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <CreateJobCard data={data} />
        <UnassignedCard data={data} />
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <TodaysRouteCard route={data.route} />
        <RecentActivityCard recent={data.recent} />
      </div>
    </div>
  )
}

function CreateJobCard({ data }: { data: DispatcherDashboardData }) {
  const actionData = useActionData<ActionReply>()
  const navigation = useNavigation()
  const formRef = useRef<HTMLFormElement>(null)
  const id = useId()
  const [customer, setCustomer] = useState<PickedCustomer | null>(null)
  const [locationId, setLocationId] = useState('')
  const [customerName, setCustomerName] = useState('')
  const [address, setAddress] = useState('')
  const [resets, setResets] = useState(0)
  const reply = actionData?.intent === 'create-job' ? actionData : undefined
  const creating = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'create-job'
  const idempotencyKey = useIdempotencyKey(data.createJobKey, reply?.ok && navigation.state === 'idle' ? reply : null)

  useEffect(() => {
    if (reply?.ok && navigation.state === 'idle') {
      formRef.current?.reset()
      setCustomer(null)
      setLocationId('')
      setCustomerName('')
      setAddress('')
      setResets((count) => count + 1)
    }
  }, [reply, navigation.state])

  /** Choosing a customer fills the name and their first location's address (SPEC §5); both stay editable. */
  function chooseCustomer(picked: PickedCustomer | null) {
    setCustomer(picked)
    const first = picked?.locations[0]
    setLocationId(first?.id ?? '')
    if (picked) {
      setCustomerName(picked.customerName)
      setAddress(first?.address ?? '')
    }
  }

  function chooseLocation(id: string) {
    setLocationId(id)
    const location = customer?.locations.find((l) => l.id === id)
    if (location) setAddress(location.address)
  }

  return (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold">Create a job</h2>
      <Form method="post" ref={formRef} className="space-y-3" noValidate>
        <input type="hidden" name="intent" value="create-job" />
        <IdempotencyKeyInput value={idempotencyKey} />
        <CustomerPicker
          name="customerId"
          textName="customerQuery"
          label="Customer"
          onPick={chooseCustomer}
          resetKey={resets}
        />
        {customer && customer.locations.length > 1 ? (
          <div className="space-y-1 text-sm font-medium">
            <label htmlFor={`${id}-location`} className="block">
              Service location
            </label>
            <select
              id={`${id}-location`}
              name="locationId"
              value={locationId}
              onChange={(event) => chooseLocation(event.target.value)}
              className={inputClass}
            >
              {customer.locations.map((location) => (
                <option key={location.id} value={location.id}>
                  {location.label ? `${location.label}: ${location.address}` : location.address}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <input type="hidden" name="locationId" value={locationId} />
        )}
        <label className="block space-y-1 text-sm font-medium">
          <span>Customer name</span>
          <input
            name="customerName"
            value={customerName}
            onChange={(e) => setCustomerName(e.target.value)}
            className={inputClass}
          />
        </label>
        <label className="block space-y-1 text-sm font-medium">
          <span>Service address</span>
          <input name="address" value={address} onChange={(e) => setAddress(e.target.value)} className={inputClass} />
        </label>
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="block space-y-1 text-sm font-medium">
            <span>Scheduled for</span>
            <input
              type="datetime-local"
              name="scheduledAt"
              defaultValue={data.defaultSchedule}
              className={inputClass}
            />
          </label>
          <div className="space-y-1 text-sm font-medium">
            <label htmlFor={`${id}-technician`} className="block">
              Technician (optional)
            </label>
            <select id={`${id}-technician`} name="technicianId" defaultValue="" className={inputClass}>
              <option value="">Unassigned</option>
              {data.technicians.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        {reply?.error ? <Alert tone="error">{reply.error}</Alert> : null}
        {reply?.ok && !creating ? (
          <Alert tone="success">
            {reply.ok}{' '}
            {reply.jobId ? (
              <Link to={`/app/jobs/${reply.jobId}`} className="underline">
                Open it
              </Link>
            ) : null}
          </Alert>
        ) : null}
        <Button type="submit" className="w-full" pending={creating} pendingLabel="Creating…">
          Create job
        </Button>
      </Form>
    </Card>
  )
}

function UnassignedCard({ data }: { data: DispatcherDashboardData }) {
  // An assigned job leaves this list as soon as the page revalidates, taking its row's
  // message with it; the card keeps the confirmation.
  const [notice, setNotice] = useState<string | null>(null)
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">Unassigned jobs</h2>
      <div aria-live="polite">{notice ? <Alert tone="success">{notice}</Alert> : null}</div>
      {data.unassigned.length === 0 ? (
        <p className="text-sm text-slate-600">Every open job has a technician.</p>
      ) : (
        <>
          <ul className="divide-y divide-slate-100">
            {data.unassigned.map((job) => (
              <UnassignedRow key={job.id} job={job} technicians={data.technicians} onSaved={setNotice} />
            ))}
          </ul>
          <UnassignedPager pager={data.unassignedPage} />
        </>
      )}
    </Card>
  )
}

/** "Showing 11–20 of 22 unassigned jobs." with links to the pages either side (other query parameters kept). */
function UnassignedPager({ pager }: { pager: DispatcherDashboardData['unassignedPage'] }) {
  const [searchParams] = useSearchParams()
  if (pager.pageCount <= 1) return null
  const to = (page: number) => {
    const next = new URLSearchParams(searchParams)
    if (page > 1) next.set('unassigned', String(page))
    else next.delete('unassigned')
    const search = next.toString()
    return search ? `?${search}` : '?'
  }
  return (
    <nav aria-label="Unassigned jobs pages" className="flex flex-wrap items-center justify-between gap-2 pt-2">
      <p className="text-sm text-slate-600">
        Showing {pager.first}–{pager.last} of {pager.total} unassigned jobs.
      </p>
      <div className="flex gap-2">
        {pager.page > 1 ? (
          <Link to={to(pager.page - 1)} preventScrollReset className={buttonClass('secondary')} rel="prev">
            ← Earlier
          </Link>
        ) : null}
        {pager.page < pager.pageCount ? (
          <Link to={to(pager.page + 1)} preventScrollReset className={buttonClass('secondary')} rel="next">
            Later →
          </Link>
        ) : null}
      </div>
    </nav>
  )
}

function UnassignedRow({
  job,
  technicians,
  onSaved,
}: {
  job: DispatcherDashboardData['unassigned'][number]
  technicians: DispatcherDashboardData['technicians']
  onSaved: (message: string) => void
}) {
  // A fetcher per row: each row saves on its own, with its own pending, success and error state.
  const fetcher = useFetcher<AssignJobReply>()
  const saved = fetcher.data?.ok
  useEffect(() => {
    if (saved) onSaved(`${job.customerName}: ${saved}`)
  }, [saved, job.customerName, onSaved])
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <Link to={`/app/jobs/${job.id}`} className={cn('font-semibold text-slate-900 hover:underline', textLinkTarget)}>
          {job.customerName}
        </Link>
        <StatusBadge status={job.status} />
        <StatusBadge status="Unassigned" />
      </div>
      <p className="text-sm text-slate-600">
        {job.address} · {job.scheduled}
      </p>
      <AssignJobForm job={job} technicians={technicians} row={{ customerName: job.customerName, fetcher }} />
    </li>
  )
}

function TodaysRouteCard({ route }: { route: DispatcherDashboardData['route'] }) {
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">Today's route</h2>
      {route.length === 0 ? (
        <p className="text-sm text-slate-600">No open jobs left today.</p>
      ) : (
        <ol className="divide-y divide-slate-100">
          {route.map((job) => (
            <li key={job.id} className="relative flex items-start gap-3 py-2 hover:bg-slate-50">
              <span className="w-20 shrink-0 text-sm font-semibold text-slate-700">{job.time}</span>
              <div className="min-w-0 flex-1">
                <Link to={`/app/jobs/${job.id}`} className={cn('font-medium hover:underline', rowLinkTarget)}>
                  {job.customerName}
                </Link>
                <p className="text-sm text-slate-600">{job.address}</p>
                <p className="text-sm text-slate-600">
                  {job.technicianName ? (
                    <>
                      {job.technicianName}
                      {job.technicianPhone ? (
                        <>
                          {' · '}
                          <a href={`tel:${job.technicianPhone}`} className="relative z-10 underline">
                            {job.technicianPhone}
                          </a>
                        </>
                      ) : null}
                    </>
                  ) : (
                    <StatusBadge status="Unassigned" />
                  )}
                </p>
              </div>
              <StatusBadge status={job.status} />
            </li>
          ))}
        </ol>
      )}
    </Card>
  )
}

function RecentActivityCard({ recent }: { recent: DispatcherDashboardData['recent'] }) {
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">Recent activity</h2>
      {recent.length === 0 ? (
        <p className="text-sm text-slate-600">No jobs yet. Create one above.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {recent.map((job) => (
            <li key={job.id} className="relative py-2 text-sm hover:bg-slate-50">
              <div className="flex flex-wrap items-center gap-2">
                <Link to={`/app/jobs/${job.id}`} className={cn('font-medium hover:underline', rowLinkTarget)}>
                  {job.customerName}
                </Link>
                <StatusBadge status={job.status} />
                {job.technicianName ? null : <StatusBadge status="Unassigned" />}
              </div>
              <p className="text-slate-600">
                Created {job.created} · for {job.scheduled}
                {job.technicianName ? ` · ${job.technicianName}` : ''}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
