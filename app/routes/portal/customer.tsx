import { and, desc, eq } from 'drizzle-orm'
import { Form } from 'react-router'
import { RouteError } from '~/components/route-error'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { jobs } from '~/db/schema'
import { getCompanySummary } from '~/models/company.server'
import { getPortalCustomer } from '~/models/customer.server'
import { formatDate } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { formatCents } from '~/utils/money'
import { can } from '~/utils/permissions'
import { notFound, requireUser } from '~/utils/permissions.server'
import type { Route } from './+types/customer'

// The customer's read-only portal. Only that customer's own login, or staff of the same
// company who may preview portals, can see it; anyone else gets a 404 (ARCHITECTURE §4).
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const profile = user.profile
  if (!profile?.companyId) notFound()
  const customer = await getPortalCustomer({ companyId: profile.companyId, customerId: params.customerId })
  if (!customer) notFound()
  const isOwnRecord = profile.role === 'customer' && customer.portalUserId === user.id
  if (!isOwnRecord && !can(profile.role, 'portal:preview')) notFound()
  const company = await getCompanySummary(customer.companyId)
  const visits = await db()
    .select({ id: jobs.id, scheduledAt: jobs.scheduledAt, completedAt: jobs.completedAt })
    .from(jobs)
    .where(and(eq(jobs.companyId, customer.companyId), eq(jobs.customerId, customer.id)))
    .orderBy(desc(jobs.scheduledAt))
    .limit(12)
  const timezone = company?.timezone ?? 'America/New_York'
  return {
    preview: !isOwnRecord,
    companyName: company?.name ?? '',
    customer: {
      name: customer.customerName,
      address: customer.address,
      phone: customer.phone,
      balanceDue: formatCents(customer.balanceDue),
    },
    visits: visits.map((visit) => ({
      id: visit.id,
      date: formatDate(visit.scheduledAt, timezone),
      status: visit.completedAt ? 'Completed' : 'Scheduled',
    })),
  }
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.customer.name} · Pool Bud` : 'Customer portal · Pool Bud' }]
}

export default function CustomerPortal({ loaderData }: Route.ComponentProps) {
  const { customer, visits, companyName, preview } = loaderData
  return (
    <main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      {preview ? (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Staff preview of this customer’s portal.
        </p>
      ) : null}
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm font-medium text-brand-700">{companyName}</p>
          <h1 className="text-2xl font-bold">{customer.name}</h1>
          <p className="text-slate-600">{customer.address}</p>
          {customer.phone ? <p className="text-slate-600">{customer.phone}</p> : null}
        </div>
        <Form method="post" action="/logout">
          <Button type="submit" variant="secondary">
            Log out
          </Button>
        </Form>
      </header>
      <Card>
        <h2 className="text-sm font-medium text-slate-500">Balance due</h2>
        <p className="text-2xl font-bold">{customer.balanceDue}</p>
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-semibold">Visit history</h2>
        {visits.length === 0 ? (
          <p className="text-slate-600">No visits yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {visits.map((visit) => (
              <li key={visit.id} className="flex justify-between py-2 text-sm">
                <span>{visit.date}</span>
                <span className="font-medium">{visit.status}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </main>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
