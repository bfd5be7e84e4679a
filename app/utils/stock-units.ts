// Stock units and packs (docs/inventory.md "Units"): stock is stored in whole units of the item ("gal", "lb",
// "each"); an item may also come in a pack ("case" of 4), and receiving, transfers and counts may be entered in
// packs. Pure, shared by forms, models and tests.

/** The units an item is counted in. A plain module, so forms in the browser carry no table code (docs/performance.md). */
export const ITEM_UNITS = ['each', 'gal', 'lb', 'oz'] as const
export type ItemUnit = (typeof ITEM_UNITS)[number]

export type PackInfo = { unit: string; packName: string | null; packSize: number | null }

/** The most units one entry may move: keeps every quantity well inside a 32-bit integer. */
export const MAX_STOCK_UNITS = 1_000_000

/** An entered amount in units: `amount` packs × pack size, or `amount` units. Null when it is not a whole count. */
export function toUnits(amount: number, entered: 'unit' | 'pack', item: PackInfo): number | null {
  if (!Number.isSafeInteger(amount) || amount < 0) return null
  if (entered === 'unit') return amount <= MAX_STOCK_UNITS ? amount : null
  if (!item.packSize) return null
  const units = amount * item.packSize
  return units <= MAX_STOCK_UNITS ? units : null
}

/** "case" → "cases", "box" → "boxes". */
export function plural(word: string, n: number) {
  if (n === 1) return word
  return /(s|x|z|ch|sh)$/i.test(word) ? `${word}es` : `${word}s`
}

/** "12 gal", "3" for items counted each. */
export function formatUnits(qty: number, unit: string) {
  return unit === 'each' ? String(qty) : `${qty} ${unit}`
}

/** Units with their packs beside them: "10 gal (2 cases + 2 gal)", "8 gal (2 cases)", "3 gal". */
export function describeStock(qty: number, item: PackInfo) {
  const units = formatUnits(qty, item.unit)
  if (!item.packName || !item.packSize || Math.abs(qty) < item.packSize) return units
  const packs = Math.trunc(qty / item.packSize)
  const rest = qty - packs * item.packSize
  const packText = `${packs} ${plural(item.packName, Math.abs(packs))}`
  return rest === 0 ? `${units} (${packText})` : `${units} (${packText} + ${formatUnits(Math.abs(rest), item.unit)})`
}
