// Team → technician's form: the day's start and end address (blank: the company's address), working hours, "Hourly
// cost" (what "Profit per pool" counts for their time) and pay type. Posts without JavaScript; with it, errors show
// at their field as you type, and the pay fields follow the chosen pay type.
import { getCollectionProps, getFormProps, useInputControl } from '@conform-to/react'
import { Form } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { FieldError, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { PAY_TYPES, type PayType } from '~/utils/team-fields'
import { type TechnicianReply, TechnicianSchema, type technicianFormValues } from './technician-schema'

export const SAVE_TECHNICIAN = 'save-technician'

const PAY_TYPE_LABELS: Record<PayType, string> = { hourly: 'Hourly', 'per-stop': 'Per stop' }

type Place = { address: string | null; approximate: boolean; placed: boolean }

export function TechnicianForm({
  values,
  companyAddress,
  start,
  end,
  reply,
}: {
  values: ReturnType<typeof technicianFormValues>
  companyAddress: string | null
  start: Place
  end: Place
  reply: TechnicianReply | undefined
}) {
  const saving = usePosting(SAVE_TECHNICIAN, { untilReloaded: true })
  const [form, fields] = useZodForm(TechnicianSchema, {
    id: 'technician',
    lastResult: reply?.result,
    defaultValue: values,
    shouldValidate: 'onBlur',
  })
  const payType = useInputControl(fields.payType)
  const placeholder = companyAddress ? `Company address: ${companyAddress}` : 'Company address (none set yet)'
  const payErrorId = `${fields.payType.id}-error`
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6" preventScrollReset>
      <input type="hidden" name="intent" value={SAVE_TECHNICIAN} />
      <Card className="space-y-4" aria-labelledby="day-heading">
        <div className="space-y-1">
          <h2 id="day-heading" className="text-lg font-semibold">
            Working day
          </h2>
          <p className="text-sm text-slate-700">
            Routes start and end here, and arrival times count from “Starts”. Blank hours are 8:00 AM to 5:00 PM.
          </p>
        </div>
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <TextField
            field={fields.startAddress}
            label="Start address"
            placeholder={placeholder}
            autoComplete="street-address"
            hint={<PlaceHint place={start} blank="Blank: the day starts at the company's address." />}
          />
          <TextField
            field={fields.endAddress}
            label="End address"
            placeholder={placeholder}
            autoComplete="off"
            hint={<PlaceHint place={end} blank="Blank: the day ends back at the company's address." />}
          />
          <TextField field={fields.workStarts} type="time" label="Starts" />
          <TextField field={fields.workEnds} type="time" label="Ends" />
        </div>
      </Card>
      <Card className="space-y-4" aria-labelledby="pay-heading">
        <div className="space-y-1">
          <h2 id="pay-heading" className="text-lg font-semibold">
            Pay and cost
          </h2>
          <p className="text-sm text-slate-700">
            “Hourly cost” is what an hour of their time costs the company (pay, taxes, truck): “Profit per pool” counts
            it for each visit's minutes on site.
          </p>
        </div>
        <TextField
          field={fields.hourlyCost}
          label="Hourly cost"
          inputMode="decimal"
          autoComplete="off"
          hint="Dollars an hour, like 26.50."
          className="md:max-w-xs"
        />
        <fieldset className="space-y-2" aria-describedby={fields.payType.errors ? payErrorId : undefined}>
          <legend className="text-sm font-medium text-slate-800">Pay type</legend>
          <p className="text-sm text-slate-600">Timesheets' gross pay and the payroll export use it.</p>
          <div className="flex flex-wrap gap-2">
            {getCollectionProps(fields.payType, { type: 'radio', options: [...PAY_TYPES] }).map(({ key, ...props }) => (
              <label
                key={key}
                htmlFor={props.id}
                className="flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  {...props}
                  onChange={(event) => payType.change(event.currentTarget.value)}
                  className="size-4 accent-brand-600"
                />
                {PAY_TYPE_LABELS[props.value as PayType]}
              </label>
            ))}
          </div>
          <FieldError id={payErrorId} errors={fields.payType.errors} />
        </fieldset>
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          {payType.value === 'hourly' ? (
            <TextField
              field={fields.hourlyRate}
              label="Hourly rate"
              inputMode="decimal"
              autoComplete="off"
              hint="Dollars an hour."
            />
          ) : null}
          {payType.value === 'per-stop' ? (
            <>
              <TextField
                field={fields.perStopRate}
                label="Rate per completed visit"
                inputMode="decimal"
                autoComplete="off"
                hint="Dollars a visit."
              />
              <TextField
                field={fields.skippedVisitExtra}
                label="Extra per skipped visit"
                inputMode="decimal"
                autoComplete="off"
                hint="Optional: dollars for a visit they went to but could not do."
              />
            </>
          ) : null}
        </div>
      </Card>
      <FormErrors form={form} />
      {reply?.ok && !saving ? <Alert tone="success">{reply.message}</Alert> : null}
      <Button type="submit" pending={saving} pendingLabel="Saving…">
        Save technician
      </Button>
    </Form>
  )
}

/** Under an address: where it was placed, and whether only roughly (its ZIP code's center). */
function PlaceHint({ place, blank }: { place: Place; blank: string }) {
  if (!place.address) return <>{blank}</>
  if (!place.placed) return <>Not on the map yet: save to place it.</>
  return place.approximate ? (
    <span className="font-medium text-amber-800">
      Approximate: ZIP center (routes start from the middle of that ZIP code).
    </span>
  ) : (
    <>Placed on the map.</>
  )
}
