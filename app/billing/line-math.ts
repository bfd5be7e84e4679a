// One line's arithmetic for invoices and quotes (docs/billing.md): quantity in hundredths × unit price in cents,
// rounded half up to the cent.
import { divideHalfUp } from '~/utils/money'

/** "2.5" → 250: quantity in hundredths (numeric(10, 2) keeps two decimals, so this is exact). */
export function hundredthsOf(quantity: string) {
  const match = /^(\d{1,8})(?:\.(\d{1,2}))?$/.exec(quantity.trim())
  if (!match) return null
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

/** 250 → "2.50". */
export function quantityText(hundredths: number) {
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`
}

/** quantity × unit price, rounded half up to the cent (a negative unit price rounds its magnitude the same way). */
export function lineAmountCents(hundredths: number, unitCents: number) {
  const magnitude = divideHalfUp(hundredths * Math.abs(unitCents), 100)
  return unitCents < 0 ? -magnitude : magnitude
}

/** Tax on a subtotal at a rate in thousandths of a percent (7250 = 7.25 %), rounded half up once. */
export function taxOf(subtotalCents: number, rateMilliPercent: number) {
  return rateMilliPercent > 0 && subtotalCents > 0 ? divideHalfUp(subtotalCents * rateMilliPercent, 100_000) : 0
}
