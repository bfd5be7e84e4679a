// Chemicals a technician adds on a visit: stock items come off inventory in the same transaction, never
// below zero and never from another company's shelf.
import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, inventoryItems, visitChemicalAdditions, visits } from '~/db/schema'
import { CHEMICAL_MESSAGES, ChemicalAdditionSchema } from '~/utils/chemicals'
import { db } from '~/utils/db.server'
import { useDemoData } from '../../tests/helpers/test-database'
import { addChemicalToVisit, listChemicalsForVisit } from './chemical-addition.server'
import { countStock } from './stock.server'
import { notEnoughMessage, warehouseOf } from './stock-locations.server'

/** A demo item with plenty in stock (48 one-gallon jugs); an unordered pick could land on one with none. */
const STOCKED_SKU = 'CHL-LIQ-1G'

let blue: string
let sunset: string
let visitId: string

async function item(companyId: string, sku: string) {
  const [row] = await db()
    .select({ id: inventoryItems.id, qty: inventoryItems.qty, name: inventoryItems.name })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.sku, sku)))
  if (!row) throw new Error(`no item ${sku}`)
  return row
}

function input(fields: Record<string, string>) {
  return ChemicalAdditionSchema.parse(fields)
}

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((c) => c.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((c) => c.name === 'Sunset Pool Care')?.id ?? ''
  const [open] = await db()
    .select({ id: visits.id })
    .from(visits)
    .where(and(eq(visits.companyId, blue), isNull(visits.completedAt)))
    .limit(1)
  visitId = open?.id ?? ''
})

describe('addChemicalToVisit', () => {
  it('records a product typed in, with its unit, and touches no stock', async () => {
    const before = await db()
      .select({ qty: inventoryItems.qty })
      .from(inventoryItems)
      .where(eq(inventoryItems.companyId, blue))
    const result = await addChemicalToVisit({
      companyId: blue,
      visitId,
      input: input({ product: 'liquid chlorine', quantity: '48', unit: 'fl oz' }),
    })
    expect(result).toEqual({ ok: true })
    expect(
      await db().select({ qty: inventoryItems.qty }).from(inventoryItems).where(eq(inventoryItems.companyId, blue)),
    ).toEqual(before)
    const listed = await listChemicalsForVisit({ companyId: blue, visitId })
    expect(listed.at(-1)).toMatchObject({ product: 'liquid chlorine', quantity: 48, unit: 'fl oz', fromStock: false })
  })

  it('takes a stock item off inventory, named as in stock and counted each', async () => {
    const stocked = await item(blue, STOCKED_SKU)
    const result = await addChemicalToVisit({
      companyId: blue,
      visitId,
      input: input({ inventoryItemId: stocked.id, quantity: '1', unit: 'lb' }),
    })
    expect(result).toEqual({ ok: true })
    expect((await item(blue, STOCKED_SKU)).qty).toBe(stocked.qty - 1)
    const listed = await listChemicalsForVisit({ companyId: blue, visitId })
    expect(listed.at(-1)).toMatchObject({ product: stocked.name, quantity: 1, unit: 'each', fromStock: true })
  })

  it('refuses more than is in stock, and records nothing', async () => {
    const stocked = await item(blue, STOCKED_SKU)
    const count = (await listChemicalsForVisit({ companyId: blue, visitId })).length
    const result = await addChemicalToVisit({
      companyId: blue,
      visitId,
      input: input({ inventoryItemId: stocked.id, quantity: String(stocked.qty + 1) }),
    })
    expect(result).toEqual({
      ok: false,
      code: 'invalid',
      field: 'quantity',
      // The demo's technicians have no truck stock yet: their visits take from the warehouse (decision 060).
      message: notEnoughMessage(stocked.qty, 'each', { kind: 'warehouse', name: 'Warehouse' }),
    })
    expect((await item(blue, STOCKED_SKU)).qty).toBe(stocked.qty)
    expect(await listChemicalsForVisit({ companyId: blue, visitId })).toHaveLength(count)
  })

  it('never takes from another company’s stock', async () => {
    const [theirs] = await db()
      .select({ id: inventoryItems.id, qty: inventoryItems.qty })
      .from(inventoryItems)
      .where(eq(inventoryItems.companyId, sunset))
      .limit(1)
    const result = await addChemicalToVisit({
      companyId: blue,
      visitId,
      input: input({ inventoryItemId: theirs?.id ?? '', quantity: '1' }),
    })
    expect(result).toEqual({
      ok: false,
      code: 'invalid',
      field: 'inventoryItemId',
      message: CHEMICAL_MESSAGES.itemMissing,
    })
    const [after] = await db()
      .select({ qty: inventoryItems.qty })
      .from(inventoryItems)
      .where(eq(inventoryItems.id, theirs?.id ?? ''))
    expect(after?.qty).toBe(theirs?.qty)
    expect(
      await db()
        .select()
        .from(visitChemicalAdditions)
        // The demo's own Sunset visits record Sunset's chemicals; none of them may land on this Blue Lagoon visit.
        .where(
          and(
            eq(visitChemicalAdditions.visitId, visitId),
            eq(visitChemicalAdditions.inventoryItemId, theirs?.id ?? ''),
          ),
        ),
    ).toEqual([])
  })

  it('lets two technicians race for the last units without going below zero', async () => {
    const first = await item(blue, STOCKED_SKU)
    // Stock changes only through movements (decision 060): a count leaves 3 in the warehouse.
    const warehouse = await warehouseOf(db(), blue)
    await countStock({ companyId: blue, itemId: first.id, location: warehouse.id, counted: 3, reason: 'Race test' })
    const attempt = () =>
      addChemicalToVisit({ companyId: blue, visitId, input: input({ inventoryItemId: first.id, quantity: '2' }) })
    const results = await Promise.all([attempt(), attempt()])
    expect(results.filter((r) => r.ok)).toHaveLength(1)
    expect((await item(blue, STOCKED_SKU)).qty).toBe(1)
  })
})

describe('ChemicalAdditionSchema', () => {
  const errors = (fields: Record<string, string>) =>
    ChemicalAdditionSchema.safeParse(fields).error?.issues.map((issue) => issue.message) ?? []

  it('asks for a product or a stock item, a quantity and a unit', () => {
    expect(errors({ quantity: '' })).toEqual(expect.arrayContaining([CHEMICAL_MESSAGES.quantityRequired]))
    expect(errors({ quantity: '2', unit: 'lb' })).toEqual([CHEMICAL_MESSAGES.productOrItem])
    expect(errors({ product: 'acid', quantity: '2' })).toEqual([CHEMICAL_MESSAGES.unit])
  })

  it('refuses zero, negative, huge and over-precise quantities, and fractions of a stock unit', () => {
    for (const quantity of ['0', '-1', '100001', 'NaN', 'Infinity'])
      expect(errors({ product: 'acid', quantity, unit: 'lb' })).toEqual([CHEMICAL_MESSAGES.quantityRange])
    expect(errors({ product: 'acid', quantity: '1.234', unit: 'lb' })).toEqual([CHEMICAL_MESSAGES.quantityPrecision])
    expect(errors({ inventoryItemId: '6f1c1a57-3b8e-4a57-9d9f-1f0a2b3c4d5e', quantity: '1.5' })).toEqual([
      CHEMICAL_MESSAGES.wholeUnits,
    ])
  })
})
