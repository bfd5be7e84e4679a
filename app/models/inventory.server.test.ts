import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, inventoryItems } from '~/db/schema'
import { parseDollars } from '~/features/inventory/inventory-schema'
import { db } from '~/utils/db.server'
import { failure } from '~/utils/result'
import { useDemoData } from '../../tests/helpers/test-database'
import {
  adjustStock,
  belowZeroMessage,
  createInventoryItem,
  getInventoryItem,
  INVENTORY_MESSAGES,
  searchInventory,
  updateInventoryItem,
} from './inventory.server'

let blue: string
let sunset: string

async function companyId(name: string) {
  const [row] = await db().select({ id: companies.id }).from(companies).where(eq(companies.name, name))
  if (!row) throw new Error(`no company ${name}`)
  return row.id
}

async function itemBySku(company: string, sku: string) {
  const [row] = await db()
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.companyId, company), eq(inventoryItems.sku, sku)))
  if (!row) throw new Error(`no item ${sku}`)
  return row
}

beforeAll(async () => {
  await useDemoData()
  blue = await companyId('Blue Lagoon Pool Co.')
  sunset = await companyId('Sunset Pool Care')
})

describe('parseDollars', () => {
  it('turns dollars into exact cents without floating point', () => {
    expect(parseDollars('12.34')).toBe(1234)
    expect(parseDollars('12.3')).toBe(1230)
    expect(parseDollars('12')).toBe(1200)
    expect(parseDollars('0.29')).toBe(29)
    expect(parseDollars('1.005')).toBeNull()
    expect(parseDollars('$1,299.99')).toBe(129999)
    expect(parseDollars('19.99')).toBe(1999)
  })

  it('refuses more than 2 decimals, negatives and non-numbers', () => {
    for (const text of ['12.345', '-1', '-0.50', 'abc', '', '1e3', '12.3.4', '0x10', 'Infinity', '999999999999']) {
      expect(parseDollars(text), text).toBeNull()
    }
  })
})

describe('searchInventory', () => {
  it("finds the company's chlorine products by name, ordered by name", async () => {
    const rows = await searchInventory({ companyId: blue, query: 'chlorine' })
    const names = rows.map((row) => row.name)
    expect(names).toEqual([
      'Chlorine Tablets 1" (5 lb)',
      'Chlorine Tablets 3" (25 lb)',
      'Liquid Chlorine 12.5% (1 gal)',
      'Liquid Chlorine 12.5% (4 × 1 gal case)',
    ])
    expect(rows.every((row) => !row.sku.startsWith('SPC-'))).toBe(true)
  })

  it('matches SKUs, lists everything for a blank query and treats wildcards literally', async () => {
    expect((await searchInventory({ companyId: blue, query: 'chl-tab' })).map((r) => r.sku).sort()).toEqual([
      'CHL-TAB-25',
      'CHL-TAB-5',
    ])
    const all = await searchInventory({ companyId: blue, query: '' })
    expect(all).toHaveLength(14)
    // By name (first letters only: punctuation order depends on the database's collation).
    const initials = all.map((r) => r.name[0]?.toLowerCase() ?? '')
    expect(initials).toEqual([...initials].sort())
    for (const query of ['%', '_', '\\', '%%', "'"]) {
      expect(await searchInventory({ companyId: blue, query }), query).toEqual([])
    }
    // '12.5%' is literal text: only the liquid chlorine names contain it.
    expect((await searchInventory({ companyId: blue, query: '12.5%' })).map((r) => r.sku).sort()).toEqual([
      'CHL-LIQ-1G',
      'CHL-LIQ-4PK',
    ])
  })
})

describe('saving items', () => {
  it('creates and updates items, with SKUs unique per company', async () => {
    const created = await createInventoryItem({
      companyId: blue,
      name: ' Test Kit ',
      sku: 'KIT-1',
      priceCents: 1234,
      qty: 3,
    })
    expect(created).toMatchObject({ ok: true, item: { name: 'Test Kit', sku: 'KIT-1', priceCents: 1234, qty: 3 } })
    expect(await createInventoryItem({ companyId: blue, name: 'Other', sku: 'KIT-1', priceCents: 0, qty: 0 })).toEqual(
      failure('invalid', INVENTORY_MESSAGES.skuTaken, 'sku'),
    )
    // Another company may use the same SKU.
    expect(
      (await createInventoryItem({ companyId: sunset, name: 'Kit', sku: 'KIT-1', priceCents: 1, qty: 1 })).ok,
    ).toBe(true)
    if (!created.ok) throw new Error('create failed')
    expect(
      await updateInventoryItem({
        companyId: blue,
        itemId: created.item.id,
        name: 'x',
        sku: 'CHL-TAB-5',
        priceCents: 1,
        qty: 1,
      }),
    ).toEqual(failure('invalid', INVENTORY_MESSAGES.skuTaken, 'sku'))
    expect(
      await updateInventoryItem({
        companyId: sunset,
        itemId: created.item.id,
        name: 'x',
        sku: 'X',
        priceCents: 1,
        qty: 1,
      }),
    ).toEqual(failure('not-found', INVENTORY_MESSAGES.notFound))
    const updated = await updateInventoryItem({
      companyId: blue,
      itemId: created.item.id,
      name: 'Test Kit 2',
      sku: 'KIT-2',
      priceCents: 1999,
      qty: 4,
    })
    expect(updated).toMatchObject({ ok: true, item: { name: 'Test Kit 2', sku: 'KIT-2', priceCents: 1999, qty: 4 } })
    // A unit cost is kept by an update that does not name one, and changed by one that does.
    const costed = await updateInventoryItem({ ...fieldsOf(updated), companyId: blue, costCents: 1150 })
    expect(costed).toMatchObject({ ok: true, item: { costCents: 1150 } })
    const kept = await updateInventoryItem({ ...fieldsOf(updated), companyId: blue })
    expect(kept).toMatchObject({ ok: true, item: { costCents: 1150 } })
    expect(await getInventoryItem({ companyId: sunset, itemId: created.item.id })).toBeNull()
    expect(await getInventoryItem({ companyId: blue, itemId: 'not-a-uuid' })).toBeNull()
  })
})

function fieldsOf(result: Awaited<ReturnType<typeof updateInventoryItem>>) {
  if (!result.ok) throw new Error('not saved')
  const { id, name, sku, priceCents, qty } = result.item
  return { itemId: id, name, sku, priceCents, qty }
}

describe('adjustStock', () => {
  it('adds and removes stock, returning the reason', async () => {
    const item = await itemBySku(blue, 'SALT-40')
    const added = await adjustStock({ companyId: blue, itemId: item.id, change: 12, reason: ' delivery ' })
    expect(added).toMatchObject({
      ok: true,
      item: { qty: item.qty + 12 },
      adjustment: { change: 12, reason: 'delivery', previousQty: item.qty, qty: item.qty + 12 },
    })
    const used = await adjustStock({ companyId: blue, itemId: item.id, change: -2, reason: 'used on visit' })
    expect(used).toMatchObject({ ok: true, item: { qty: item.qty + 10 } })
  })

  it('refuses to go below zero and changes nothing', async () => {
    const item = await itemBySku(blue, 'TEST-DPD')
    expect(await adjustStock({ companyId: blue, itemId: item.id, change: -(item.qty + 1), reason: 'oops' })).toEqual(
      failure('invalid', belowZeroMessage(item.qty)),
    )
    expect((await itemBySku(blue, 'TEST-DPD')).qty).toBe(item.qty)
    expect(
      await adjustStock({ companyId: blue, itemId: item.id, change: -item.qty, reason: 'all used' }),
    ).toMatchObject({
      ok: true,
      item: { qty: 0 },
    })
  })

  it("never touches another company's item", async () => {
    const item = await itemBySku(blue, 'CYA-4')
    expect(await adjustStock({ companyId: sunset, itemId: item.id, change: 1, reason: 'x' })).toEqual(
      failure('not-found', INVENTORY_MESSAGES.notFound),
    )
    expect((await itemBySku(blue, 'CYA-4')).qty).toBe(item.qty)
  })
})
