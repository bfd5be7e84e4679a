// "Create a visit" (docs/product.md "Forms") on the dispatcher dashboard. Choosing a customer in the picker fills the
// customer name and their first location's address (both stay editable) and offers their other locations. A name typed
// but not chosen is looked up by the server, so the browser lets it through (the only way without JavaScript). Errors
// show at their field; a refusal of the whole save in the alert. After a visit is created the form empties and takes a
// new idempotency key, so the next entry is its own visit while a retry of this one is not.
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ChangeEvent, useEffect, useId, useState } from 'react'
import { Form, Link, useActionData, useNavigation } from 'react-router'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { CheckboxField, Field, FieldError, inputClass, SelectField, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { CustomerPicker, type PickedCustomer } from '~/features/customers/customer-picker'
import type { CreateVisitReply } from './create-visit.server'
import { browserCreateVisitSchema, CREATE_VISIT_INTENT, CreateVisitSchema } from './create-visit-schema'
import { TechnicianOptions } from './technician-options'

export function CreateVisitCard({
  createVisitKey,
  defaultSchedule,
  technicians,
}: {
  /** A new idempotency key from the loader, for the next visit. */
  createVisitKey: string
  defaultSchedule: string
  technicians: ReadonlyArray<{ id: string; name: string }>
}) {
  // The page's form answers only to this form (the unassigned rows answer through their own fetchers).
  const actionData = useActionData<{ intent: string }>()
  const reply = actionData?.intent === CREATE_VISIT_INTENT ? (actionData as CreateVisitReply) : undefined
  const navigation = useNavigation()
  const id = useId()
  const [customer, setCustomer] = useState<PickedCustomer | null>(null)
  const [locationId, setLocationId] = useState('')
  const [customerName, setCustomerName] = useState('')
  const [address, setAddress] = useState('')
  const [resets, setResets] = useState(0)
  const creating = usePosting(CREATE_VISIT_INTENT)
  const created = reply?.ok && navigation.state === 'idle' ? reply : null
  const idempotencyKey = useIdempotencyKey(createVisitKey, created)
  // The browser checks with its own schema (it may leave the customer to the server). No constraint from the schema:
  // a `maxLength` would cut pasted text short instead of saying what is wrong.
  const [form, fields] = useZodForm(CreateVisitSchema, {
    id: 'create-visit',
    lastResult: reply?.result,
    defaultValue: { scheduledAt: defaultSchedule },
    constraint: null,
    // Its value is never read here (the form posts), so the schema without a customer may stand in for the full one.
    parse: (formData) =>
      parseWithZod(formData, { schema: browserCreateVisitSchema(formData) as typeof CreateVisitSchema }),
  })

  // Conform empties its own fields (the reply resets the form); the picker and the fields it fills are this form's.
  useEffect(() => {
    if (created) {
      setCustomer(null)
      setLocationId('')
      setCustomerName('')
      setAddress('')
      setResets((count) => count + 1)
    }
  }, [created])

  /**
   * Choosing a customer fills the name and their first location's address (docs/product.md "Forms"); both stay
   * editable.
   */
  function chooseCustomer(picked: PickedCustomer | null) {
    setCustomer(picked)
    const first = picked?.locations[0]
    setLocationId(first?.id ?? '')
    if (picked) {
      setCustomerName(picked.customerName)
      setAddress(first?.address ?? '')
    }
  }

  function chooseLocation(id: string) {
    setLocationId(id)
    const location = customer?.locations.find((l) => l.id === id)
    if (location) setAddress(location.address)
  }

  return (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold">Create a visit</h2>
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <input type="hidden" name="intent" value={CREATE_VISIT_INTENT} />
        <IdempotencyKeyInput value={idempotencyKey} />
        <div className="space-y-1">
          <CustomerPicker
            name="customerId"
            textName="customerQuery"
            label="Customer"
            onPick={chooseCustomer}
            resetKey={resets}
          />
          <FieldError id={fields.customerId.errorId} errors={fields.customerId.errors} />
        </div>
        {customer && customer.locations.length > 1 ? (
          <div className="space-y-1 text-sm font-medium">
            <label htmlFor={`${id}-location`} className="block">
              Service location
            </label>
            <select
              id={`${id}-location`}
              name="locationId"
              value={locationId}
              onChange={(event) => chooseLocation(event.target.value)}
              className={inputClass}
            >
              {customer.locations.map((location) => (
                <option key={location.id} value={location.id}>
                  {location.label ? `${location.label}: ${location.address}` : location.address}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <input type="hidden" name="locationId" value={locationId} />
        )}
        <Field
          label="Customer name"
          errors={fields.customerName.errors}
          inputProps={filled(fields.customerName, customerName, setCustomerName)}
        />
        <Field
          label="Service address"
          errors={fields.address.errors}
          inputProps={filled(fields.address, address, setAddress)}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField field={fields.scheduledAt} label="Scheduled for" type="datetime-local" />
          <SelectField field={fields.technicianId} label="Technician (optional)">
            <TechnicianOptions technicians={technicians} />
          </SelectField>
        </div>
        <CheckboxField field={fields.appointment} label="Fixed appointment: arrive by this time" />
        <FormErrors form={form} />
        {/* A later try the browser refused (form.status) is not this visit's success. */}
        {reply?.ok && !creating && form.status !== 'error' ? (
          <Alert tone="success">
            {reply.ok}{' '}
            {reply.visitId ? (
              <Link to={`/app/visits/${reply.visitId}`} className="underline">
                Open it
              </Link>
            ) : null}
          </Alert>
        ) : null}
        <Button type="submit" className="w-full" pending={creating} pendingLabel="Creating…">
          Create visit
        </Button>
      </Form>
    </Card>
  )
}

/** A field the picker fills (so its value is this form's state), still typed into freely. */
function filled(field: { id: string; name: string }, value: string, set: (value: string) => void) {
  return {
    id: field.id,
    name: field.name,
    value,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(event.target.value),
  }
}
