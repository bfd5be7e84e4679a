// /app/work-orders: the office's work orders (owners, admins, dispatchers; issue 33 item 4, docs/work-orders.md): a
// paged list filtered open/completed, reached from Quotes. A work order is made on an approved quote's page.
import { Form, Link } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { Pager } from '~/components/pager'
import { RouteError } from '~/components/route-error'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { textLinkTarget } from '~/components/ui/touch'
import { loadWorkOrderList } from '~/features/work-orders/work-order-page.server'
import type { Route } from './+types/work-orders'

export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'quotes:manage')
  return loadWorkOrderList(member, new URL(request.url))
}

export function meta() {
  return [{ title: 'Work orders · Pool Bud' }]
}

export default function WorkOrdersPage({ loaderData }: Route.ComponentProps) {
  const { workOrders, state, page, hasNext } = loaderData
  return (
    <div className="space-y-5">
      <Link to="/app/quotes" className={`text-sm underline ${textLinkTarget}`}>
        ← Quotes
      </Link>
      <h1 className="text-2xl font-bold">Work orders</h1>
      <p className="text-sm text-slate-700">An approved quote becomes a work order with “Create work order”.</p>
      <Card className="space-y-4" aria-labelledby="work-order-list-heading">
        <h2 id="work-order-list-heading" className="sr-only">
          Work order list
        </h2>
        <Form method="get" className="flex flex-wrap items-end gap-2">
          <div className="space-y-1">
            <label htmlFor="work-order-state" className="block text-sm font-medium">
              Status
            </label>
            <select id="work-order-state" name="state" defaultValue={state} className="input-field">
              <option value="">All</option>
              <option value="open">Open</option>
              <option value="completed">Completed</option>
            </select>
          </div>
          <Button type="submit" variant="secondary">
            Filter
          </Button>
        </Form>
        {workOrders.length === 0 ? (
          <p className="text-sm text-slate-700">{state ? `No ${state} work orders.` : 'No work orders yet.'}</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {workOrders.map((order) => (
              <li key={order.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div className="min-w-0">
                  <Link to={`/app/work-orders/${order.id}`} className={`font-medium underline ${textLinkTarget}`}>
                    {order.numberLabel} · {order.customerName}
                  </Link>
                  <p className="text-sm text-slate-700">
                    Quote {order.quoteLabel} · {order.progress} · created {order.created}
                  </p>
                </div>
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-sm">{order.state}</span>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} hasNext={hasNext} label="Work order pages" />
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
