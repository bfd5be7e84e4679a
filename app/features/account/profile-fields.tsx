// The text fields "My account" and /welcome share: one labelled input per Conform field, and the address block.
import { getInputProps } from '@conform-to/react'
import { Field } from '~/components/ui/field'

type ConformField = Parameters<typeof getInputProps>[0]

/** A labelled text input bound to a Conform field, its errors under it. */
export function TextField({
  field,
  label,
  autoComplete,
  type = 'text',
  hint,
}: {
  field: ConformField
  label: string
  autoComplete: string
  type?: 'text' | 'tel' | 'email'
  hint?: string
}) {
  return (
    <Field
      label={label}
      errors={field.errors}
      hint={hint}
      inputProps={{ ...getInputProps(field, { type }), autoComplete }}
    />
  )
}

type AddressName = 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'postalCode' | 'country'

/** The two address lines, then city, state, postal code and country two by two on a wide screen. */
export function AddressFields({ fields }: { fields: Record<AddressName, ConformField> }) {
  return (
    <>
      <TextField field={fields.addressLine1} label="Address line 1" autoComplete="address-line1" />
      <TextField field={fields.addressLine2} label="Address line 2" autoComplete="address-line2" />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.city} label="City" autoComplete="address-level2" />
        <TextField field={fields.state} label="State / Province" autoComplete="address-level1" />
        <TextField field={fields.postalCode} label="Postal code" autoComplete="postal-code" />
        <TextField field={fields.country} label="Country" autoComplete="country-name" />
      </div>
    </>
  )
}
