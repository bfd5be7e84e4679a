// How an equipment item is named and what its warranty says (issue 33 item 7; docs/quotes.md "Equipment"): shared by
// the customer record, the equipment's history page, and a quote's page, PDF and portal view, so all say the same.
import { formatLocalDate } from './dates'

type Named = { kind: string; make: string | null; model: string | null; serial: string | null }

/** "Pentair IntelliFlo pump (SN 12345)": make, model and kind, with the serial when there is one. */
export function equipmentLabel(item: Named) {
  const name = [item.make, item.model, item.kind].filter((part) => part?.trim()).join(' ')
  return item.serial?.trim() ? `${name} (SN ${item.serial.trim()})` : name
}

/** Whether work dated `on` (a local date) falls on or before the last day of the warranty. */
export function underWarranty(warrantyUntil: string | null, on: string) {
  return warrantyUntil !== null && on <= warrantyUntil
}

/** "Under warranty until Dec 10, 2027" or "Warranty ended Dec 10, 2025" as of `today`; null without a date. */
export function warrantyText(warrantyUntil: string | null, today: string) {
  if (!warrantyUntil) return null
  return underWarranty(warrantyUntil, today)
    ? `Under warranty until ${formatLocalDate(warrantyUntil)}`
    : `Warranty ended ${formatLocalDate(warrantyUntil)}`
}
