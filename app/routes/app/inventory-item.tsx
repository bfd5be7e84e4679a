// /app/inventory/:itemId (issue 33 item 5; docs/inventory.md): an item's stock at each location and its history, for
// everyone who may search inventory; "Transfer", "Receive" and "Count" for owners and admins (decision 060).
import { Link } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Card } from '~/components/ui/card'
import { CountForm, HistoryCard, LocationsCard, ReceiveForm, TransferForm } from '~/features/inventory/item-stock'
import { handleStockAction, loadItemStockPage } from '~/features/inventory/stock-page.server'
import { readForm } from '~/utils/forms'
import { can } from '~/utils/permissions'
import type { Route } from './+types/inventory-item'

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireCompanyCapability(request, 'inventory:search')
  return loadItemStockPage(
    user.companyId,
    user.timezone,
    can(user.role, 'inventory:manage'),
    params.itemId,
    new URL(request.url),
  )
}

export async function action({ request, params }: Route.ActionArgs) {
  // Every change re-checks on the server: dispatchers and technicians get the 403 card.
  const user = await requireCompanyCapability(request, 'inventory:manage')
  return handleStockAction(user.companyId, user.id, params.itemId, await readForm(request))
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.item.name ?? 'Item'} · Inventory · Pool Bud` }]
}

export default function InventoryItemPage({ loaderData }: Route.ComponentProps) {
  const { item } = loaderData
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <Link to="/app/inventory" className="text-sm font-medium text-brand-700 hover:underline">
          ← Inventory
        </Link>
        <h1 className="text-2xl font-bold">{item.name}</h1>
        <p className="text-sm text-slate-600">
          SKU <span className="font-mono">{item.sku}</span> · {item.price} · counted in {item.unit}
          {item.pack ? ` · comes in a ${item.pack}` : ''} · low at or below {item.minQty}
        </p>
        <p className="text-lg font-semibold">In stock: {item.total}</p>
      </div>
      <LocationsCard data={loaderData} />
      {loaderData.canManage ? (
        <Card className="grid gap-6 md:grid-cols-3">
          <TransferForm data={loaderData} />
          <ReceiveForm data={loaderData} />
          <CountForm data={loaderData} />
        </Card>
      ) : null}
      <HistoryCard data={loaderData} />
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
