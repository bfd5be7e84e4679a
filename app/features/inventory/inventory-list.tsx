// The inventory search's results: a card per item with its price, stock and (for owners and admins) unit cost,
// "Edit" and "Adjust stock".
import { Link } from 'react-router'
import { cn } from '~/components/ui/cn'
import { AdjustStockForm } from './adjust-stock-form'
import type { InventoryItemData, InventoryPageData } from './inventory-page.server'
import type { AdjustStockReply } from './inventory-schema'

export function InventoryList({
  data,
  editingId,
  adjustReply,
}: {
  data: InventoryPageData
  editingId: string | null
  /** Without JavaScript a stock adjustment is a page post, so its reply arrives with the page. */
  adjustReply: AdjustStockReply | undefined
}) {
  if (data.items.length === 0) {
    return <p className="text-sm text-slate-600">No inventory items match that search.</p>
  }
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600" aria-live="polite">
        {data.items.length === 1 ? '1 item' : `${data.items.length} items`}
        {data.q ? ` matching “${data.q}”` : ''}
      </p>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {data.items.map((item) => (
          <InventoryCard
            key={item.id}
            item={item}
            canManage={data.canManage}
            editing={item.id === editingId}
            editTo={`/app/inventory?${new URLSearchParams({ q: data.q, edit: item.id })}`}
            adjustReply={adjustReply?.itemId === item.id ? adjustReply : undefined}
          />
        ))}
      </ul>
    </div>
  )
}

function InventoryCard({
  item,
  canManage,
  editing,
  editTo,
  adjustReply,
}: {
  item: InventoryItemData
  canManage: boolean
  editing: boolean
  editTo: string
  adjustReply: AdjustStockReply | undefined
}) {
  return (
    <li
      className={cn(
        'space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm',
        editing && 'border-brand-600 ring-1 ring-brand-600',
      )}
    >
      <div className="space-y-1">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 className="min-w-0 font-semibold text-slate-900">{item.name}</h3>
          {item.low ? (
            <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200">
              Low stock
            </span>
          ) : null}
        </div>
        <p className="text-sm text-slate-600">
          SKU <span className="font-mono">{item.sku}</span>
        </p>
      </div>
      <dl className="flex gap-6 text-sm">
        <div>
          <dt className="text-slate-500">Price</dt>
          <dd className="font-semibold text-slate-900">{item.price}</dd>
        </div>
        <div>
          <dt className="text-slate-500">In stock</dt>
          <dd className={cn('font-semibold', item.low ? 'text-amber-800' : 'text-slate-900')}>{item.shown}</dd>
        </div>
        {/* Last, after the figures every searcher sees: only owners and admins get it. */}
        {item.cost === null ? null : (
          <div>
            <dt className="text-slate-500">Unit cost</dt>
            <dd className="font-semibold text-slate-900">{item.cost}</dd>
          </div>
        )}
      </dl>
      <Link
        to={`/app/inventory/${item.id}`}
        className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 hover:underline"
      >
        Locations and history<span className="sr-only"> of {item.name}</span>
      </Link>
      {canManage ? (
        <div className="space-y-2 border-t border-slate-100 pt-3">
          <Link
            to={editTo}
            className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg px-2 text-sm font-medium text-brand-700 hover:underline"
          >
            Edit<span className="sr-only"> {item.name}</span>
          </Link>
          <AdjustStockForm item={item} pageReply={adjustReply} />
        </div>
      ) : null}
    </li>
  )
}
