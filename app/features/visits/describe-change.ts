// What a queued change was, in words, for a change the server refused ("Not saved: … Reading pH 7.4, Cl 2, Alk 90"):
// the technician sees exactly what did not reach the office, to do again or tell them.
import type { VisitChange } from '~/field/changes'
import { describeChemical } from '~/utils/chemicals'

export type ChangeContext = {
  /** Checklist labels by item id. */
  items: ReadonlyMap<string, string>
  /** Stock item names by id. */
  stock: ReadonlyMap<string, string>
}

/** "2 × Liquid Chlorine" or "48 fl oz liquid chlorine" for a chemical form's fields as typed. */
export function describeChemicalFields(fields: Record<string, string>, stock: ReadonlyMap<string, string>) {
  const fromStock = fields.inventoryItemId ? stock.get(fields.inventoryItemId) : undefined
  return describeChemical({
    product: fromStock ?? fields.product ?? 'chemical',
    quantity: Number(fields.quantity),
    unit: fromStock ? 'each' : (fields.unit ?? ''),
  })
}

/** "pH 7.4, Cl 2, Alk 90" for a reading form's fields as typed. */
export function describeReadingFields(fields: Record<string, string>) {
  return [
    `pH ${fields.ph ?? ''}`,
    `Cl ${fields.chlorinePpm ?? ''}`,
    `Alk ${fields.alkalinity ?? ''}`,
    fields.cyanuricAcid ? `CYA ${fields.cyanuricAcid}` : null,
    fields.calciumHardness ? `CH ${fields.calciumHardness}` : null,
    fields.salt ? `Salt ${fields.salt}` : null,
    fields.waterTempF ? `${fields.waterTempF} °F` : null,
  ]
    .filter(Boolean)
    .join(', ')
}

export function describeChange(change: VisitChange, context: ChangeContext) {
  switch (change.type) {
    case 'check': {
      const label = context.items.get(change.itemId) ?? 'a checklist item'
      return `${change.checked ? 'Ticked' : 'Unticked'} ${label}`
    }
    case 'reading':
      return `Reading ${describeReadingFields(change.fields)}`
    case 'chemical':
      return `Chemical ${describeChemicalFields(change.fields, context.stock)}`
    case 'note':
      return `${change.audience === 'office' ? 'Note for office' : 'Note for customer'}: “${change.text}”`
    case 'complete':
      return 'Mark Complete'
    case 'skip':
      return `Skip visit (${change.fields.reason === 'Other' ? `Other: ${change.fields.otherReason ?? ''}` : (change.fields.reason ?? '')})`
  }
}
