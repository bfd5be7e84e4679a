// Settings → "Tax rates" (issue 31 item 9; docs/billing.md, "Tax"): the company's named rates, the default marked,
// each with "Edit" (name and percent), "Make default" and "Remove" (asked first; refused, naming the locations, while
// any location uses it). Owners and admins change them; dispatchers read. Plain forms that work before JavaScript;
// buttons say what they are doing while the page posts.
import { getFormProps } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { percentText, usedByText } from '~/billing/tax'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { TextField } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import { AddTaxRateSchema, type TaxRateReply, UpdateTaxRateSchema } from './tax-rate-forms'

type Rate = {
  id: string
  name: string
  milliPercent: number
  isDefault: boolean
  usedBy: string[]
  usedByCount: number
}

const summaryClass = (variant: 'secondary' | 'ghost') =>
  buttonClass(variant, 'cursor-pointer list-none px-3 [&::-webkit-details-marker]:hidden')

/** Whether the page is posting `intent` for `rateId` (or for no rate). */
function usePostingRate(intent: string, rateId?: string) {
  const navigation = useNavigation()
  const formData = navigation.formData
  return (
    navigation.state === 'submitting' &&
    formData?.get('intent') === intent &&
    (rateId === undefined || formData.get('rateId') === rateId)
  )
}

export function TaxRatesSection({
  rates,
  canSave,
  reply,
}: {
  rates: readonly Rate[]
  canSave: boolean
  reply: TaxRateReply | undefined
}) {
  const defaultRate = rates.find((rate) => rate.isDefault)
  // Refusals of "Add rate" and "Save" show in their form; every other answer shows here.
  const message = reply && !(reply.tone === 'error' && reply.result) ? reply : undefined
  return (
    <Card className="space-y-4" aria-labelledby="tax-rates-heading">
      <div className="space-y-1">
        <h1 id="tax-rates-heading" className="text-lg font-semibold">
          Tax rates
        </h1>
        <p className="text-sm text-slate-700">
          Each service location is taxed at its own rate, or the default. An invoice has one tax line per rate. Invoices
          already sent keep their tax; drafts take a change when they are next edited.
        </p>
      </div>
      {canSave ? null : <Alert tone="info">Only owners and admins can change tax rates.</Alert>}
      {message ? (
        <Alert tone={message.tone} className="break-words">
          {message.message}
        </Alert>
      ) : null}
      {rates.length === 0 ? (
        <p className="text-sm text-slate-600">No tax rates: invoices carry no tax.</p>
      ) : (
        <ul aria-label="Tax rates" className="divide-y divide-slate-200 border-y border-slate-200">
          {rates.map((rate) => (
            <RateRow
              key={rate.id}
              rate={rate}
              canSave={canSave}
              reply={reply?.rateId === rate.id && reply.intent === 'tax-rate-update' ? reply : undefined}
            />
          ))}
        </ul>
      )}
      {rates.length > 0 && !defaultRate ? (
        <Alert tone="info">No default rate: locations without a rate of their own are not taxed.</Alert>
      ) : null}
      {canSave ? <AddRateForm reply={reply?.intent === 'tax-rate-add' ? reply : undefined} /> : null}
    </Card>
  )
}

function RateRow({ rate, canSave, reply }: { rate: Rate; canSave: boolean; reply: TaxRateReply | undefined }) {
  const removing = usePostingRate('tax-rate-remove', rate.id)
  const defaulting = usePostingRate('tax-rate-default', rate.id)
  const label = `${rate.name} ${percentText(rate.milliPercent)} %`
  return (
    <li className="space-y-2 py-3" data-tax-rate={rate.name}>
      <div className="flex flex-wrap items-center gap-2">
        <p className="min-w-0 font-medium break-words text-slate-900">
          {rate.name} <span className="tabular-nums">{percentText(rate.milliPercent)} %</span>
        </p>
        {rate.isDefault ? (
          <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-900">Default</span>
        ) : null}
      </div>
      {rate.usedBy.length > 0 ? (
        <p className="text-sm break-words text-slate-700">Used by {usedByText(rate.usedBy, rate.usedByCount)}</p>
      ) : null}
      {canSave ? (
        <div className="flex flex-wrap items-start gap-2">
          {rate.isDefault ? null : (
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="tax-rate-default" />
              <input type="hidden" name="rateId" value={rate.id} />
              <Button
                type="submit"
                variant="secondary"
                pending={defaulting}
                pendingLabel="Saving…"
                aria-label={`Make default: ${label}`}
              >
                Make default
              </Button>
            </Form>
          )}
          <details
            key={`edit-${rate.name}-${rate.milliPercent}`}
            open={Boolean(reply)}
            className="group/edit open:basis-full"
          >
            <summary className={summaryClass('secondary')}>
              <span className="group-open/edit:hidden">
                Edit<span className="sr-only"> {label}</span>
              </span>
              <span className="hidden group-open/edit:inline">
                Cancel<span className="sr-only"> editing {label}</span>
              </span>
            </summary>
            <EditRateForm rate={rate} reply={reply} />
          </details>
          <details className="group/remove open:basis-full">
            <summary className={summaryClass('ghost')}>
              <span className="group-open/remove:hidden">
                Remove<span className="sr-only"> {label}</span>
              </span>
              <span className="hidden group-open/remove:inline">
                Keep<span className="sr-only"> {label}</span>
              </span>
            </summary>
            <Form
              method="post"
              preventScrollReset
              className="mt-2 flex flex-wrap items-center gap-2 rounded-lg border border-red-200 bg-red-50 p-3"
            >
              <input type="hidden" name="intent" value="tax-rate-remove" />
              <input type="hidden" name="rateId" value={rate.id} />
              <p className="basis-full text-sm text-slate-800">
                Remove “{label}”? Invoices already made keep their tax lines.
                {rate.isDefault
                  ? ' Locations without a rate of their own will not be taxed until you make another rate the default.'
                  : ''}
              </p>
              <Button type="submit" variant="danger" pending={removing} pendingLabel="Removing…">
                Yes, remove
              </Button>
            </Form>
          </details>
        </div>
      ) : null}
    </li>
  )
}

function EditRateForm({ rate, reply }: { rate: Rate; reply: TaxRateReply | undefined }) {
  const [form, fields] = useZodForm(UpdateTaxRateSchema, {
    id: `tax-rate-edit-${rate.id}`,
    lastResult: reply?.result,
    defaultValue: { name: rate.name, percent: percentText(rate.milliPercent) },
    constraint: null,
  })
  const saving = usePostingRate('tax-rate-update', rate.id)
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="mt-2 space-y-2">
      <input type="hidden" name="intent" value="tax-rate-update" />
      <input type="hidden" name="rateId" value={rate.id} />
      <FormErrors form={form} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField field={fields.name} label="Name" autoComplete="off" />
        <TextField field={fields.percent} label="Percent" inputMode="decimal" autoComplete="off" hint="Like 7.25" />
      </div>
      <Button type="submit" pending={saving} pendingLabel="Saving…">
        Save rate
      </Button>
    </Form>
  )
}

function AddRateForm({ reply }: { reply: TaxRateReply | undefined }) {
  const [form, fields] = useZodForm(AddTaxRateSchema, {
    id: 'tax-rate-add',
    lastResult: reply?.result,
    constraint: null,
  })
  const adding = usePostingRate('tax-rate-add')
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-3">
      <input type="hidden" name="intent" value="tax-rate-add" />
      <h2 className="text-base font-semibold">Add a rate</h2>
      <FormErrors form={form} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField field={fields.name} label="Name" hint="Like “Tampa” or “Hillsborough County”" autoComplete="off" />
        <TextField
          field={fields.percent}
          label="Percent"
          hint="0 to 30, up to 3 decimals: 7.25 for 7.25 %"
          inputMode="decimal"
          autoComplete="off"
        />
      </div>
      <Button type="submit" pending={adding} pendingLabel="Adding…">
        Add rate
      </Button>
    </Form>
  )
}
