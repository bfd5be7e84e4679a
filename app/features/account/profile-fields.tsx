// The address block "My account" and /welcome share.
import { type ConformField, TextField } from '~/components/ui/field'

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
