// /app/truck, "My truck" (issue 33 item 5; docs/inventory.md): the signed-in technician's truck stock, read-only —
// the office counts and moves stock (decision 060). Anyone who may search inventory may open it; only a
// technician has a truck.
import { Link } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { loadMyTruck } from '~/features/inventory/stock-page.server'
import type { Route } from './+types/truck'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompanyCapability(request, 'inventory:search')
  return loadMyTruck(user.companyId, user.id)
}

export function meta() {
  return [{ title: 'My truck · Pool Bud' }]
}

export default function MyTruckPage({ loaderData }: Route.ComponentProps) {
  const { truck, items } = loaderData
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">My truck</h1>
      <Card className="space-y-3">
        {truck ? <h2 className="text-lg font-semibold">{truck.name}</h2> : null}
        {items.length === 0 ? (
          <p className="text-sm text-slate-600">
            {truck
              ? 'Nothing on your truck.'
              : 'You have no truck stock yet: what you use on visits comes from the warehouse.'}
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {items.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <Link to={`/app/inventory/${item.id}`} className="min-w-0 font-medium text-slate-900 hover:underline">
                  {item.name}
                </Link>
                <span className="flex items-center gap-2">
                  <span className={cn('font-semibold', item.low ? 'text-amber-800' : 'text-slate-900')}>
                    {item.shown}
                  </span>
                  {item.low ? (
                    <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200">
                      Low (minimum {item.minQty})
                    </span>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
        <p className="text-xs text-slate-500">The office moves stock onto your truck and counts it.</p>
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
