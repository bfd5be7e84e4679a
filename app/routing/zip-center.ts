// The built-in, offline way to put an address on the map: the center of its US ZIP code, from the `zipcodes` data
// package (docs/decisions/035-offline-zip-positions.md). Approximate (a ZIP spans a few miles), but it needs no
// network and no configuration, so every new location is routed at once; a geocoder or a person refines it later.
import zipcodes from 'zipcodes'
import { isLatLng, type LatLng } from './distance'

/** "85254", "85254-1234" and "852541234" (ZIP+4) name the same ZIP; anything else is not a US ZIP. */
const US_ZIP = /^(\d{5})(?:-?\d{4})?$/

/** The five-digit ZIP in `postalCode`, or null when it is not a US ZIP. */
export function zip5(postalCode: string | null | undefined) {
  const match = US_ZIP.exec((postalCode ?? '').trim())
  return match?.[1] ?? null
}

/** The center of the US ZIP code in `postalCode`; null for no ZIP, a malformed one or one the data does not know. */
export function zipCenter(postalCode: string | null | undefined): LatLng | null {
  const zip = zip5(postalCode)
  if (!zip) return null
  const found = zipcodes.lookup(zip)
  if (found?.country !== 'US') return null
  const point = { lat: found.latitude, lng: found.longitude }
  return isLatLng(point) ? point : null
}
