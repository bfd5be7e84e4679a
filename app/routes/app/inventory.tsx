import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { data, Link, useFetcher } from 'react-router'
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import {
  AdjustSchema,
  centsToDollarText,
  InventoryForm,
  type InventoryFormValues,
  InventorySchema,
} from '~/components/inventory-form'
import { ListSearchForm } from '~/components/list-search-form'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { FieldError, inputClass } from '~/components/ui/field'
import { oncePerKey, readIdempotencyKey } from '~/models/idempotency.server'
import {
  adjustStock,
  createInventoryItem,
  getInventoryItem,
  LOW_STOCK_QTY,
  searchInventory,
  updateInventoryItem,
} from '~/models/inventory.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { readForm } from '~/utils/forms'
import { logger } from '~/utils/logger.server'
import { formatCents } from '~/utils/money'
import { can } from '~/utils/permissions'
import { failureStatus } from '~/utils/result'
import type { Route } from './+types/inventory'

/** SPEC §9: the search box starts with 'chlorine' and searches it on load. */
const DEFAULT_QUERY = 'chlorine'
const SKU_TAKEN = 'That SKU is already used by another item.'

/** No `q` at all is the first visit (the default search); an empty `q` lists everything. */
function readQuery(url: URL) {
  const q = url.searchParams.get('q')
  return q === null ? DEFAULT_QUERY : q.trim().slice(0, 100)
}

function listSearch(q: string) {
  return `?${new URLSearchParams({ q })}`
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompanyCapability(request, 'inventory:search')
  const canManage = can(user.role, 'inventory:manage')
  const url = new URL(request.url)
  const q = readQuery(url)
  const editId = canManage ? (url.searchParams.get('edit') ?? '') : ''
  const [items, editing] = await Promise.all([
    searchInventory({ companyId: user.companyId, query: q }),
    editId ? getInventoryItem({ companyId: user.companyId, itemId: editId }) : null,
  ])
  // Another company's item (or a made-up id) does not exist for this user.
  if (editId && !editing) notFound()
  return {
    q,
    canManage,
    // The add form's idempotency key: a new one for every page load.
    addFormKey: crypto.randomUUID(),
    editing: editing
      ? {
          id: editing.id,
          name: editing.name,
          sku: editing.sku,
          price: centsToDollarText(editing.priceCents),
          cost: centsToDollarText(editing.costCents),
          qty: String(editing.qty),
        }
      : null,
    items: items.map((item) => ({
      id: item.id,
      name: item.name,
      sku: item.sku,
      qty: item.qty,
      price: formatCents(item.priceCents),
      // What the company pays is for those who manage stock (owners, admins), not for every searcher.
      cost: canManage ? formatCents(item.costCents) : null,
      low: item.qty <= LOW_STOCK_QTY,
    })),
  }
}

export async function action({ request }: Route.ActionArgs) {
  // Every change re-checks on the server: dispatchers and techs get the 403 'no-access' card.
  const user = await requireCompanyCapability(request, 'inventory:manage')
  const formData = await readForm(request)
  if (formData.get('intent') === 'adjust') return adjust(user.companyId, user.id, formData)
  return save(user.companyId, formData)
}

async function save(companyId: string, formData: FormData) {
  const itemId = String(formData.get('itemId') ?? '').trim()
  // Someone else's item is answered before anything is validated, exactly as a missing one.
  if (itemId && !(await getInventoryItem({ companyId, itemId }))) notFound()

  const submission = parseWithZod(formData, { schema: InventorySchema })
  if (submission.status !== 'success') {
    return data({ intent: 'save' as const, ok: false, result: submission.reply(), message: null }, 400)
  }
  const idempotency = readIdempotencyKey(formData)
  if (!idempotency.ok) {
    return data(
      {
        intent: 'save' as const,
        ok: false,
        result: submission.reply({ formErrors: [idempotency.message] }),
        message: null,
      },
      400,
    )
  }
  const { name, sku, price, cost, qty } = submission.value
  const fields = { name, sku, priceCents: price, costCents: cost, qty }
  const saved = await (itemId
    ? updateInventoryItem({ companyId, itemId, ...fields })
    : // A new item sent again (same key) is created once.
      oncePerKey({ companyId, key: idempotency.key, action: 'inventory.create' }, (tx) =>
        createInventoryItem({ companyId, ...fields }, tx),
      )
  ).catch((error: unknown) => {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, itemId }, 'inventory save failed')
    return null
  })
  if (saved === null) {
    return data(
      {
        intent: 'save' as const,
        ok: false,
        result: submission.reply({ formErrors: ['Unable to save the item.'] }),
        message: null,
      },
      500,
    )
  }
  if (!saved.ok && 'reason' in saved && saved.reason === 'not-found') notFound()
  if (!saved.ok) {
    // The SKU is taken, or (`message`) the key was already used by another form.
    const errors = 'reason' in saved ? { fieldErrors: { sku: [SKU_TAKEN] } } : { formErrors: [saved.message] }
    return data(
      { intent: 'save' as const, ok: false, result: submission.reply(errors), message: null },
      'reason' in saved ? 400 : failureStatus(saved),
    )
  }
  return data({
    intent: 'save' as const,
    ok: true,
    // A new item resets the form; an edit keeps showing the saved values.
    result: submission.reply({ resetForm: !itemId }),
    message: 'Item saved.',
    savedId: `${saved.item.id}:${crypto.randomUUID()}`,
  })
}

async function adjust(companyId: string, userId: string, formData: FormData) {
  const itemId = String(formData.get('itemId') ?? '').trim()
  if (!(await getInventoryItem({ companyId, itemId }))) notFound()
  const submission = parseWithZod(formData, { schema: AdjustSchema })
  if (submission.status !== 'success') {
    return data({ intent: 'adjust' as const, itemId, ok: false, result: submission.reply(), message: null }, 400)
  }
  const { change, reason } = submission.value
  const result = await adjustStock({ companyId, itemId, change, reason, userId })
  if (!result.ok && result.reason === 'not-found') notFound()
  if (!result.ok) {
    const message = `Stock can't go below 0: there ${result.qty === 1 ? 'is' : 'are'} only ${result.qty} in stock.`
    return data(
      {
        intent: 'adjust' as const,
        itemId,
        ok: false,
        result: submission.reply({ formErrors: [message] }),
        message: null,
      },
      400,
    )
  }
  return data({
    intent: 'adjust' as const,
    itemId,
    ok: true,
    result: submission.reply({ resetForm: true }),
    message: 'Stock updated.',
    adjustment: {
      change: result.adjustment.change,
      reason: result.adjustment.reason,
      qty: result.adjustment.qty,
    },
  })
}

export function meta() {
  return [{ title: 'Inventory · Pool Bud' }]
}

type PageData = Route.ComponentProps['loaderData']
type ItemData = PageData['items'][number]

export default function InventoryPage({ loaderData, actionData }: Route.ComponentProps) {
  const editingId = loaderData.editing?.id ?? null
  const saveReply = actionData?.intent === 'save' ? actionData : undefined
  const savedId = saveReply && 'savedId' in saveReply ? saveReply.savedId : null
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
  const cancelTo = `/app/inventory${listSearch(loaderData.q)}`

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
        <InventoryList data={loaderData} editingId={editingId} adjustReply={adjustReply} />
      </Card>
    </div>
  )
}

type AdjustReply = Extract<NonNullable<Route.ComponentProps['actionData']>, { intent: 'adjust' }>

function InventoryList({
  data,
  editingId,
  adjustReply,
}: {
  data: PageData
  editingId: string | null
  adjustReply: AdjustReply | undefined
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
  item: ItemData
  canManage: boolean
  editing: boolean
  editTo: string
  adjustReply: AdjustReply | undefined
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
          <dd className={cn('font-semibold', item.low ? 'text-amber-800' : 'text-slate-900')}>{item.qty}</dd>
        </div>
        {/* Last, after the figures every searcher sees: only owners and admins get it. */}
        {item.cost === null ? null : (
          <div>
            <dt className="text-slate-500">Unit cost</dt>
            <dd className="font-semibold text-slate-900">{item.cost}</dd>
          </div>
        )}
      </dl>
      {canManage ? (
        <div className="space-y-2 border-t border-slate-100 pt-3">
          <Link
            to={editTo}
            className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg px-2 text-sm font-medium text-brand-700 hover:underline"
          >
            Edit<span className="sr-only"> {item.name}</span>
          </Link>
          <AdjustStock item={item} pageReply={adjustReply} />
        </div>
      ) : null}
    </li>
  )
}

/** Per item, its own fetcher: a signed change and a reason, with its own pending state and result. */
function AdjustStock({ item, pageReply }: { item: ItemData; pageReply: AdjustReply | undefined }) {
  const fetcher = useFetcher<typeof action>()
  const pending = fetcher.state !== 'idle'
  const reply = fetcher.data?.intent === 'adjust' ? fetcher.data : pageReply
  const [form, fields] = useForm({
    id: `adjust-${item.id}`,
    lastResult: pending ? undefined : reply?.result,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AdjustSchema }),
  })
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="space-y-2">
      <input type="hidden" name="intent" value="adjust" />
      <input type="hidden" name="itemId" value={item.id} />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">
          Adjust stock<span className="sr-only"> of {item.name}</span>
        </legend>
        <div className="grid grid-cols-[6rem_minmax(0,1fr)] gap-2">
          <div>
            <label htmlFor={fields.change.id} className="sr-only">
              Change (e.g. +12 or -2)
            </label>
            <input
              {...getInputProps(fields.change, { type: 'text' })}
              inputMode="numeric"
              placeholder="+12"
              autoComplete="off"
              aria-invalid={fields.change.errors?.length ? true : undefined}
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor={fields.reason.id} className="sr-only">
              Reason
            </label>
            <input
              {...getInputProps(fields.reason, { type: 'text' })}
              placeholder="Reason, e.g. delivery"
              maxLength={200}
              autoComplete="off"
              aria-invalid={fields.reason.errors?.length ? true : undefined}
              className={inputClass}
            />
          </div>
        </div>
      </fieldset>
      <div aria-live="polite">
        <FieldError
          errors={[...(fields.change.errors ?? []), ...(fields.reason.errors ?? []), ...(form.errors ?? [])]}
        />
        {reply?.ok && !pending ? <Alert tone="success">{reply.message}</Alert> : null}
      </div>
      <Button type="submit" variant="secondary" pending={pending} pendingLabel="Updating…">
        Update stock<span className="sr-only"> of {item.name}</span>
      </Button>
    </fetcher.Form>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
