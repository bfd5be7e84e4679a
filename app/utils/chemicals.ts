// What a technician records adding to the water: shared by the visit page form (browser and server), the
// database schema, the portal and the service report.
import { z } from 'zod'

export const CHEMICAL_UNITS = ['fl oz', 'gal', 'oz', 'lb', 'each'] as const
export type ChemicalUnit = (typeof CHEMICAL_UNITS)[number]

export const CHEMICAL_MESSAGES = {
  productOrItem: 'Choose a stock item or type the product.',
  productTooLong: 'Product must be 80 characters or fewer.',
  quantityRequired: 'Enter how much you added.',
  quantityRange: 'Quantity must be more than 0 and at most 100,000.',
  quantityPrecision: 'Quantity can have at most 2 decimals.',
  wholeUnits: 'Stock is counted in whole units: enter a whole number.',
  unit: 'Choose a unit.',
  itemMissing: 'That stock item no longer exists.',
  saved: 'Chemical recorded.',
  notEnough: (qty: number) => `Only ${qty} in stock.`,
} as const

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value)

export const ChemicalAdditionSchema = z
  .object({
    inventoryItemId: z.preprocess(blankToUndefined, z.uuid({ error: CHEMICAL_MESSAGES.itemMissing }).optional()),
    product: z.preprocess(blankToUndefined, z.string().trim().max(80, CHEMICAL_MESSAGES.productTooLong).optional()),
    quantity: z
      .string({ error: CHEMICAL_MESSAGES.quantityRequired })
      .trim()
      .min(1, CHEMICAL_MESSAGES.quantityRequired)
      .pipe(
        z.coerce
          .number<string>({ error: CHEMICAL_MESSAGES.quantityRange })
          .refine(Number.isFinite, CHEMICAL_MESSAGES.quantityRange)
          .refine((n) => n > 0 && n <= 100_000, CHEMICAL_MESSAGES.quantityRange)
          .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, CHEMICAL_MESSAGES.quantityPrecision),
      ),
    // A stock item is counted in whole units, so its unit is always 'each' whatever was sent.
    unit: z.preprocess(blankToUndefined, z.enum(CHEMICAL_UNITS, { error: CHEMICAL_MESSAGES.unit }).optional()),
  })
  .superRefine((value, context) => {
    if (!value.inventoryItemId && !value.product)
      context.addIssue({ code: 'custom', path: ['product'], message: CHEMICAL_MESSAGES.productOrItem })
    if (value.inventoryItemId && !Number.isInteger(value.quantity))
      context.addIssue({ code: 'custom', path: ['quantity'], message: CHEMICAL_MESSAGES.wholeUnits })
    if (!value.inventoryItemId && !value.unit)
      context.addIssue({ code: 'custom', path: ['unit'], message: CHEMICAL_MESSAGES.unit })
  })

export type ChemicalAdditionInput = z.infer<typeof ChemicalAdditionSchema>

/** "2 × Liquid Chlorine 12.5% (1 gal)" for stock units, "48 fl oz liquid chlorine" otherwise. */
export function describeChemical({ product, quantity, unit }: { product: string; quantity: number; unit: string }) {
  return unit === 'each' ? `${quantity} × ${product}` : `${quantity} ${unit} ${product}`
}
