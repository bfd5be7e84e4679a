// /app/inventory (docs/product.md "Limits"): everyone in the office and the technicians search the company's stock;
// owners and admins add and edit items and adjust stock.
import { useState } from 'react'
import { Form } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { ListSearchForm } from '~/components/list-search-form'
import { RouteError } from '~/components/route-error'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { inputClass } from '~/components/ui/field'
import { InventoryForm } from '~/features/inventory/inventory-form'
import { InventoryList } from '~/features/inventory/inventory-list'
import { adjustInventoryStock, loadInventoryPage, saveInventoryItem } from '~/features/inventory/inventory-page.server'
import type { InventoryFormValues } from '~/features/inventory/inventory-schema'
import { readForm } from '~/utils/forms'
import { can } from '~/utils/permissions'
import { preparedLoader } from '~/utils/prepared-statements.server'
import type { Route } from './+types/inventory'

export const loader = preparedLoader(async ({ request }: Route.LoaderArgs) => {
  const user = await requireCompanyCapability(request, 'inventory:search')
  return loadInventoryPage(user.companyId, can(user.role, 'inventory:manage'), new URL(request.url))
})

export async function action({ request }: Route.ActionArgs) {
  // Every change re-checks on the server: dispatchers and techs get the 403 'no-access' card.
  const user = await requireCompanyCapability(request, 'inventory:manage')
  const formData = await readForm(request)
  if (formData.get('intent') === 'adjust') return adjustInventoryStock(user.companyId, user.id, formData)
  return saveInventoryItem(user.companyId, user.id, formData)
}

export function meta() {
  return [{ title: 'Inventory · Pool Bud' }]
}

export default function InventoryPage({ loaderData, actionData }: Route.ComponentProps) {
  const editingId = loaderData.editing?.id ?? null
  const saveReply = actionData?.intent === 'save' ? actionData : undefined
  const savedId = saveReply?.savedId ?? null
  // Without JavaScript a stock adjustment is a page post, so its reply arrives here, not in a fetcher.
  const adjustReply = actionData?.intent === 'adjust' ? actionData : undefined

  // "Item saved." stays until the user edits the form again or opens another item.
  const [notice, setNotice] = useState<string | null>(null)
  const [shownSave, setShownSave] = useState<string | null>(null)
  const [shownEditingId, setShownEditingId] = useState(editingId)
  if (savedId && savedId !== shownSave) {
    setShownSave(savedId)
    setNotice(saveReply?.message ?? null)
  }
  if (shownEditingId !== editingId) {
    setShownEditingId(editingId)
    setNotice(null)
  }
  const cancelTo = `/app/inventory?${new URLSearchParams({ q: loaderData.q })}`

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Inventory</h1>
      {loaderData.canManage ? (
        <Card className="space-y-4">
          <h2 className="text-lg font-semibold">
            {loaderData.editing ? `Edit ${loaderData.editing.name}` : 'Add an item'}
          </h2>
          <InventoryForm
            // A new item remounts a blank form; an edit keeps the fields of that item.
            key={`${editingId ?? 'new'}:${editingId ? '' : (shownSave ?? '')}`}
            editing={loaderData.editing satisfies InventoryFormValues | null}
            idempotencyKey={loaderData.addFormKey}
            lastResult={saveReply?.result}
            cancelTo={cancelTo}
            notice={notice}
            onInput={notice ? () => setNotice(null) : undefined}
          />
        </Card>
      ) : null}
      <Card className="space-y-4">
        <ListSearchForm
          path="/app/inventory"
          id="inventory-search"
          label="Search inventory"
          placeholder="Name or SKU"
          q={loaderData.q}
          editingId={editingId}
        />
        <LocationFilter q={loaderData.q} location={loaderData.location} locations={loaderData.locations} />
        <InventoryList data={loaderData} editingId={editingId} adjustReply={adjustReply} />
      </Card>
    </div>
  )
}

/** "Show stock at": one location's quantities instead of the company-wide total (decision 060). */
function LocationFilter({
  q,
  location,
  locations,
}: {
  q: string
  location: string
  locations: Array<{ value: string; label: string }>
}) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="q" value={q} />
      <div className="min-w-0 grow sm:grow-0">
        <label htmlFor="inventory-location" className="block text-sm font-medium text-slate-800">
          Show stock at
        </label>
        <select id="inventory-location" name="location" defaultValue={location} key={location} className={inputClass}>
          <option value="">All locations</option>
          {locations.map((place) => (
            <option key={place.value} value={place.value}>
              {place.label}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="secondary">
        Show
      </Button>
    </Form>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
