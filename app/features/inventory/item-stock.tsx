// The item page's sections (docs/inventory.md): stock at each location, "Transfer", "Receive", "Count" (owners and
// admins) and the history. Each form has its own fetcher (its own pending state and answer), its token (a double
// submit is one change) and says what it did ("Moved 2 gal from Warehouse to Truck — Tyler Brooks.").
import { getFormProps } from '@conform-to/react'
import { Link, useFetcher, useLocation } from 'react-router'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Pager } from '~/components/pager'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { SelectField, TextField } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import { visitHref } from '~/features/visits/back-link'
import type { ItemStockPageData } from './stock-page.server'
import { CountSchema, MinimumSchema, ReceiveSchema, type StockReply, TransferSchema } from './stock-schema'

type Option = { value: string; label: string }

export function LocationsCard({ data }: { data: ItemStockPageData }) {
  return (
    <Card className="space-y-3">
      <h2 id="locations" className="text-lg font-semibold">
        Stock by location
      </h2>
      {data.levels.length === 0 ? (
        <p className="text-sm text-slate-600">No stock anywhere yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {data.levels.map((level) => (
            <li key={level.locationId} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="font-medium text-slate-900">{level.name}</span>
              <span className="flex items-center gap-2">
                <span
                  className={cn('whitespace-nowrap font-semibold', level.low ? 'text-amber-800' : 'text-slate-900')}
                >
                  {level.shown}
                </span>
                {level.low ? (
                  <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200">
                    Low at {level.name} (minimum {level.minQty})
                  </span>
                ) : null}
              </span>
              {data.canManage ? <MinimumForm level={level} itemMinQty={data.item.minQty} /> : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

/** A location's own minimum for the item (owners and admins); blank is the item's. */
function MinimumForm({ level, itemMinQty }: { level: ItemStockPageData['levels'][number]; itemMinQty: number }) {
  const fetcher = useFetcher<StockReply>()
  const pending = fetcher.state !== 'idle'
  const reply = fetcher.data?.intent === 'minimum' ? fetcher.data : undefined
  const [form, fields] = useZodForm(MinimumSchema, {
    id: `minimum-${level.locationId}`,
    lastResult: pending ? undefined : reply?.result,
    defaultValue: { locationId: level.locationId, minQty: level.ownMinQty },
  })
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="flex w-full flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="minimum" />
      <input type="hidden" name="locationId" value={level.locationId} />
      <TextField
        field={fields.minQty}
        label={`Minimum at ${level.name}`}
        hint={`Blank: the item's ${itemMinQty}.`}
        inputMode="numeric"
        autoComplete="off"
        className="w-40"
      />
      <Button type="submit" variant="secondary" pending={pending} pendingLabel="Saving…">
        Save<span className="sr-only"> minimum at {level.name}</span>
      </Button>
      <div aria-live="polite" className="w-full">
        <FormErrors form={form} />
        <Done reply={reply} pending={pending} />
      </div>
    </fetcher.Form>
  )
}

/** One stock form: its fetcher, its token, its fields, its confirmation. */
function useStockForm(intent: StockReply['intent'], freshKey: string) {
  const fetcher = useFetcher<StockReply>()
  const pending = fetcher.state !== 'idle'
  const reply = fetcher.data?.intent === intent ? fetcher.data : undefined
  // A new token after each success; a retry of a lost answer sends the same one.
  const key = useIdempotencyKey(freshKey, reply?.ok ? reply : null)
  return { fetcher, pending, reply, key }
}

function AmountFields({
  quantity,
  entered,
  entryOptions,
  label,
}: {
  quantity: Parameters<typeof TextField>[0]['field']
  entered: Parameters<typeof SelectField>[0]['field']
  entryOptions: Option[]
  label: string
}) {
  return (
    <div className="grid grid-cols-2 gap-2">
      <TextField field={quantity} label={label} inputMode="numeric" autoComplete="off" placeholder="1" />
      {entryOptions.length > 1 ? (
        <SelectField field={entered} label="In" options={entryOptions} />
      ) : (
        <input type="hidden" name="entered" value="unit" />
      )}
    </div>
  )
}

function Done({ reply, pending }: { reply: StockReply | undefined; pending: boolean }) {
  return reply?.ok && !pending ? <Alert tone="success">{reply.message}</Alert> : null
}

export function TransferForm({ data }: { data: ItemStockPageData }) {
  const { fetcher, pending, reply, key } = useStockForm('transfer', data.formKeys.transfer)
  const [form, fields] = useZodForm(TransferSchema, {
    id: 'transfer',
    lastResult: pending ? undefined : reply?.result,
    defaultValue: { from: data.places[0]?.value ?? '', entered: 'unit' },
  })
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="space-y-3">
      <input type="hidden" name="intent" value="transfer" />
      <IdempotencyKeyInput value={key} />
      <h3 className="font-semibold">Transfer</h3>
      <div className="grid gap-2 sm:grid-cols-2">
        <SelectField field={fields.from} label="From" options={data.places} />
        <SelectField field={fields.to} label="To" options={data.places}>
          <option value="">Choose…</option>
        </SelectField>
      </div>
      <AmountFields
        quantity={fields.quantity}
        entered={fields.entered}
        entryOptions={data.entryOptions}
        label="Quantity"
      />
      <div aria-live="polite">
        <FormErrors form={form} />
        <Done reply={reply} pending={pending} />
      </div>
      <Button type="submit" pending={pending} pendingLabel="Moving…">
        Transfer
      </Button>
    </fetcher.Form>
  )
}

export function ReceiveForm({ data }: { data: ItemStockPageData }) {
  const { fetcher, pending, reply, key } = useStockForm('receive', data.formKeys.receive)
  const [form, fields] = useZodForm(ReceiveSchema, {
    id: 'receive',
    lastResult: pending ? undefined : reply?.result,
    defaultValue: { location: data.places[0]?.value ?? '', entered: 'unit' },
  })
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="space-y-3">
      <input type="hidden" name="intent" value="receive" />
      <IdempotencyKeyInput value={key} />
      <h3 className="font-semibold">Receive</h3>
      <SelectField field={fields.location} label="At" options={data.places} />
      <AmountFields
        quantity={fields.quantity}
        entered={fields.entered}
        entryOptions={data.entryOptions}
        label="Quantity"
      />
      <div aria-live="polite">
        <FormErrors form={form} />
        <Done reply={reply} pending={pending} />
      </div>
      <Button type="submit" variant="secondary" pending={pending} pendingLabel="Receiving…">
        Receive
      </Button>
    </fetcher.Form>
  )
}

export function CountForm({ data }: { data: ItemStockPageData }) {
  const { fetcher, pending, reply, key } = useStockForm('count', data.formKeys.count)
  const counted = data.levels.map((level) => ({ value: level.locationId, label: level.name }))
  const [form, fields] = useZodForm(CountSchema, {
    id: 'count',
    lastResult: pending ? undefined : reply?.result,
    defaultValue: { location: counted[0]?.value ?? '', entered: 'unit' },
  })
  return (
    <fetcher.Form
      method="post"
      {...getFormProps(form)}
      className="space-y-3"
      onSubmit={(event) => {
        // A count replaces what the books say: ask once before adjusting.
        if (!window.confirm('Record this count? The difference becomes an adjustment in the history.'))
          event.preventDefault()
      }}
    >
      <input type="hidden" name="intent" value="count" />
      <IdempotencyKeyInput value={key} />
      <h3 className="font-semibold">Count</h3>
      <SelectField field={fields.location} label="Location counted" options={counted} />
      <AmountFields
        quantity={fields.quantity}
        entered={fields.entered}
        entryOptions={data.entryOptions}
        label="Counted"
      />
      <TextField field={fields.reason} label="Reason" maxLength={200} placeholder="Weekly count" autoComplete="off" />
      <div aria-live="polite">
        <FormErrors form={form} />
        <Done reply={reply} pending={pending} />
      </div>
      <Button type="submit" variant="secondary" pending={pending} pendingLabel="Saving…">
        Save count
      </Button>
    </fetcher.Form>
  )
}

export function HistoryCard({ data }: { data: ItemStockPageData }) {
  const { rows, page, hasNext } = data.history
  // A visit's page leads back here ("Back to item").
  const { pathname } = useLocation()
  return (
    <Card className="space-y-3">
      <h2 id="history" className="text-lg font-semibold">
        History
      </h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">No changes yet.</p>
      ) : (
        <ol className="divide-y divide-slate-100" aria-label="Stock changes, newest first">
          {rows.map((row) => (
            <li key={row.id} className="space-y-0.5 py-2 text-sm">
              <p className="flex flex-wrap justify-between gap-2">
                <span className="font-medium text-slate-900">
                  {row.what} · {row.location}
                </span>
                <span className={cn('font-semibold', row.change.startsWith('-') ? 'text-rose-800' : 'text-slate-900')}>
                  {row.change}
                </span>
              </p>
              <p className="text-slate-600">
                {row.at}
                {row.detail ? ` · ${row.detail}` : ''}
                {row.visitId ? (
                  <>
                    {' · '}
                    <Link to={visitHref(row.visitId, pathname)} className="text-brand-700 underline">
                      Visit
                    </Link>
                  </>
                ) : null}
                {row.by ? ` · ${row.by}` : ''} · then {row.after}
              </p>
            </li>
          ))}
        </ol>
      )}
      <Pager page={page} hasNext={hasNext} label="History pages" hash="history" />
    </Card>
  )
}
