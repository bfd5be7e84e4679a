// "Adjust stock" of one item: a signed change and a reason ("+12 delivery", "-2 used on visit"). Each item has its own
// fetcher, so its pending state and answer are its own.
import { getFormProps, getInputProps } from '@conform-to/react'
import { useFetcher } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { inputClass } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import type { InventoryItemData } from './inventory-page.server'
import { AdjustSchema, type AdjustStockReply, type SaveItemReply } from './inventory-schema'

export function AdjustStockForm({
  item,
  pageReply,
}: {
  item: InventoryItemData
  pageReply: AdjustStockReply | undefined
}) {
  const fetcher = useFetcher<SaveItemReply | AdjustStockReply>()
  const pending = fetcher.state !== 'idle'
  const reply = fetcher.data?.intent === 'adjust' ? fetcher.data : pageReply
  const [form, fields] = useZodForm(AdjustSchema, {
    id: `adjust-${item.id}`,
    lastResult: pending ? undefined : reply?.result,
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
        {/* The two inputs share a row too narrow for their messages: they show together, here. */}
        <FormErrors form={form} fields={[fields.change, fields.reason]} />
        {reply?.ok && !pending ? <Alert tone="success">{reply.message}</Alert> : null}
      </div>
      <Button type="submit" variant="secondary" pending={pending} pendingLabel="Updating…">
        Update stock<span className="sr-only"> of {item.name}</span>
      </Button>
    </fetcher.Form>
  )
}
