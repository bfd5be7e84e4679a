// Truck stock (decision 060): stock per location, transfers (atomic, once per form, never below zero even when two
// run at once), counts with their reason, stock used on a visit from the right place, and the history rows. Runs on
// PGlite and, with DATABASE_URL, on PostgreSQL. The property test drives any sequence of changes and checks that
// every location stays ≥ 0 and item total = sum of locations = sum of movements.
import { and, eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, inventoryItems, profiles, stockLevels, stockMovements, visits } from '~/db/schema'
import { type Database, db, queryRows } from '~/utils/db.server'
import { addTestCustomer, type TestCustomer } from '../../tests/helpers/customers'
import { useDemoData } from '../../tests/helpers/test-database'
import { createInventoryItem, listLowStockItems } from './inventory.server'
import { countStock, receiveStock, transferStock } from './stock.server'
import { listItemHistory, listItemLevels } from './stock-lists.server'
import { notEnoughMessage, truckOf, warehouseOf } from './stock-locations.server'
import { takeStockForVisit } from './stock-use.server'

let blue: string
let sunset: string
let tech: { id: string; name: string }
let otherTech: { id: string; name: string }
let customer: TestCustomer
let warehouse: string

async function newItem(qty: number, sku = `TS-${crypto.randomUUID().slice(0, 8)}`) {
  const made = await createInventoryItem({
    companyId: blue,
    name: `Truck test ${sku}`,
    sku,
    priceCents: 1299,
    costCents: 700,
    qty,
    unit: 'gal',
    pack: { name: 'case', size: 4 },
  })
  if (!made.ok) throw new Error(made.message)
  return made.item.id
}

async function newVisit(technicianId: string | null) {
  const [visit] = await db()
    .insert(visits)
    .values({
      companyId: blue,
      customerId: customer.id,
      locationId: customer.locationId,
      customerName: customer.customerName,
      address: customer.address,
      scheduledAt: new Date(),
      technicianId,
    })
    .returning({ id: visits.id })
  if (!visit) throw new Error('no visit')
  return visit.id
}

/** Stock used on a visit, in a transaction of its own as its callers' would be. */
const take = (visitId: string, itemId: string, quantity: number, companyId = blue) =>
  db().transaction((tx) => takeStockForVisit(tx as unknown as Database, { companyId, visitId, itemId, quantity }))

/** Every location's quantity, the item's total and the sum of its movements. */
async function ledger(itemId: string) {
  const levels = await db()
    .select({ locationId: stockLevels.locationId, qty: stockLevels.qty })
    .from(stockLevels)
    .where(eq(stockLevels.itemId, itemId))
  const [item] = await db()
    .select({ qty: inventoryItems.qty })
    .from(inventoryItems)
    .where(eq(inventoryItems.id, itemId))
  const [moved] = await db()
    .select({ sum: sql<number>`coalesce(sum(${stockMovements.change}), 0)::int` })
    .from(stockMovements)
    .where(eq(stockMovements.itemId, itemId))
  const at = (locationId: string) => levels.find((l) => l.locationId === locationId)?.qty ?? 0
  return { levels, total: item?.qty ?? -1, moved: moved?.sum ?? -1, at }
}

async function member(email: string) {
  const [row] = await db()
    .select({ id: profiles.id, name: profiles.fullName })
    .from(profiles)
    .where(eq(profiles.email, email))
  if (!row) throw new Error(email)
  return { id: row.id, name: row.name ?? email }
}

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((c) => c.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((c) => c.name === 'Sunset Pool Care')?.id ?? ''
  tech = await member('tech@bluelagoon.test')
  otherTech = await member('tech2@bluelagoon.test')
  customer = await addTestCustomer(blue, { customerName: 'Truck Stock Test', address: '9 Stock St, Austin, TX 78701' })
  warehouse = (await warehouseOf(db(), blue)).id
})

describe('locations', () => {
  it('gives every company one warehouse, holding a new item with its "initial" movement', async () => {
    const itemId = await newItem(10)
    const book = await ledger(itemId)
    expect(book.at(warehouse)).toBe(10)
    expect(book.total).toBe(10)
    expect(book.moved).toBe(10)
    const history = await listItemHistory({ companyId: blue, itemId })
    expect(history.rows.map((r) => [r.kind, r.change, r.location])).toEqual([['initial', 10, 'Warehouse']])
    expect((await warehouseOf(db(), sunset)).id).not.toBe(warehouse)
  })

  it("makes a company's warehouse when the company is made", async () => {
    const [made] = await db().insert(companies).values({ name: 'Fresh Pools' }).returning({ id: companies.id })
    const [row] = await queryRows<{ n: number }>(
      sql`select count(*)::int as n from stock_locations where company_id = ${made?.id} and kind = 'warehouse'`,
    )
    expect(row?.n).toBe(1)
  })
})

describe('transferStock', () => {
  it("moves stock to a technician's truck in one transaction, making the truck, with two history rows", async () => {
    const itemId = await newItem(10)
    const moved = await transferStock({ companyId: blue, itemId, from: warehouse, to: `tech:${tech.id}`, quantity: 8 })
    expect(moved.ok).toBe(true)
    const truck = await truckOf(db(), blue, tech.id)
    expect(truck?.name).toBe(`Truck — ${tech.name}`)
    const book = await ledger(itemId)
    expect([book.at(warehouse), book.at(truck?.id ?? ''), book.total, book.moved]).toEqual([2, 8, 10, 10])
    const history = await listItemHistory({ companyId: blue, itemId })
    expect(history.rows.map((r) => [r.kind, r.change, r.location, r.otherLocation])).toEqual(
      expect.arrayContaining([
        ['transfer-out', -8, 'Warehouse', `Truck — ${tech.name}`],
        ['transfer-in', 8, `Truck — ${tech.name}`, 'Warehouse'],
      ]),
    )
    const levels = await listItemLevels({ companyId: blue, itemId })
    expect(levels.map((l) => [l.name, l.qty])).toEqual([
      ['Warehouse', 2],
      [`Truck — ${tech.name}`, 8],
    ])
  })

  it('refuses to go below zero, saying what is left, and changes nothing', async () => {
    const itemId = await newItem(3)
    const refused = await transferStock({
      companyId: blue,
      itemId,
      from: warehouse,
      to: `tech:${tech.id}`,
      quantity: 4,
    })
    expect(refused).toEqual({
      ok: false,
      code: 'invalid',
      field: 'quantity',
      message: 'Only 3 gal left in the Warehouse.',
    })
    const book = await ledger(itemId)
    expect([book.at(warehouse), book.total, book.moved]).toEqual([3, 3, 3])
  })

  it('is one transfer when the same form is sent twice', async () => {
    const itemId = await newItem(10)
    const requestKey = crypto.randomUUID()
    const send = () =>
      transferStock({ companyId: blue, itemId, from: warehouse, to: `tech:${tech.id}`, quantity: 2, requestKey })
    const [first, second] = await Promise.all([send(), send()])
    expect(first.ok && second.ok).toBe(true)
    expect(await send()).toMatchObject({ ok: true, replayed: true })
    const book = await ledger(itemId)
    expect(book.at(warehouse)).toBe(8)
    const history = await listItemHistory({ companyId: blue, itemId })
    expect(history.rows.filter((r) => r.kind === 'transfer-out')).toHaveLength(1)
  })

  it('never lets two transfers at once take a location below zero', async () => {
    const itemId = await newItem(3)
    const results = await Promise.all([
      transferStock({ companyId: blue, itemId, from: warehouse, to: `tech:${tech.id}`, quantity: 2 }),
      transferStock({ companyId: blue, itemId, from: warehouse, to: `tech:${otherTech.id}`, quantity: 2 }),
    ])
    expect(results.filter((r) => r.ok)).toHaveLength(1)
    const book = await ledger(itemId)
    expect([book.at(warehouse), book.total, book.moved]).toEqual([1, 3, 3])
  })

  it("refuses another company's item and locations", async () => {
    const itemId = await newItem(5)
    expect(
      await transferStock({ companyId: sunset, itemId, from: warehouse, to: `tech:${tech.id}`, quantity: 1 }),
    ).toMatchObject({
      ok: false,
      code: 'not-found',
    })
    const theirs = (await warehouseOf(db(), sunset)).id
    expect(await transferStock({ companyId: blue, itemId, from: theirs, to: warehouse, quantity: 1 })).toMatchObject({
      ok: false,
      field: 'from',
    })
    expect(await transferStock({ companyId: blue, itemId, from: warehouse, to: warehouse, quantity: 1 })).toMatchObject(
      {
        ok: false,
        field: 'to',
      },
    )
  })
})

describe('countStock and receiveStock', () => {
  it('records the difference of a count with its reason, and a received delivery', async () => {
    const itemId = await newItem(10)
    expect(
      await countStock({ companyId: blue, itemId, location: warehouse, counted: 7, reason: 'Leaking jug' }),
    ).toMatchObject({
      ok: true,
      change: -3,
      qtyAfter: 7,
    })
    expect(await receiveStock({ companyId: blue, itemId, location: warehouse, quantity: 8 })).toMatchObject({
      ok: true,
    })
    // A count that matches is recorded too (who checked, when), as a change of 0.
    expect(
      await countStock({ companyId: blue, itemId, location: warehouse, counted: 15, reason: 'Weekly count' }),
    ).toMatchObject({
      ok: true,
      change: 0,
    })
    const book = await ledger(itemId)
    expect([book.at(warehouse), book.total, book.moved]).toEqual([15, 15, 15])
    const history = await listItemHistory({ companyId: blue, itemId })
    expect(history.rows.map((r) => [r.kind, r.change, r.qtyAfter, r.reason])).toEqual([
      ['count', 0, 15, 'Weekly count'],
      ['received', 8, 15, null],
      ['count', -3, 7, 'Leaking jug'],
      ['initial', 10, 10, null],
    ])
  })

  it('refuses a count without a reason at the database too', async () => {
    const itemId = await newItem(1)
    await expect(
      countStock({ companyId: blue, itemId, location: warehouse, counted: 0, reason: ' ' }),
    ).rejects.toThrow()
    expect((await ledger(itemId)).total).toBe(1)
  })

  it('pages the history', async () => {
    const itemId = await newItem(1)
    for (let n = 0; n < 26; n++) await receiveStock({ companyId: blue, itemId, location: warehouse, quantity: 1 })
    const first = await listItemHistory({ companyId: blue, itemId })
    const second = await listItemHistory({ companyId: blue, itemId, page: 2 })
    expect([first.rows.length, first.hasNext, second.rows.length, second.hasNext]).toEqual([25, true, 2, false])
  })
})

describe('takeStockForVisit', () => {
  it("takes from the visit technician's truck, and says what is left there when it is not enough", async () => {
    const itemId = await newItem(10)
    await transferStock({ companyId: blue, itemId, from: warehouse, to: `tech:${tech.id}`, quantity: 2 })
    const truck = await truckOf(db(), blue, tech.id)
    const visitId = await newVisit(tech.id)
    expect(await take(visitId, itemId, 1)).toEqual({
      ok: true,
      name: expect.stringContaining('Truck test'),
      priceCents: 1299,
      costCents: 700,
    })
    const book = await ledger(itemId)
    expect([book.at(warehouse), book.at(truck?.id ?? ''), book.total, book.moved]).toEqual([8, 1, 9, 9])
    expect(await take(visitId, itemId, 2)).toEqual({
      ok: false,
      code: 'invalid',
      field: 'quantity',
      message: `Only 1 gal left on Truck — ${tech.name}.`,
    })
    const history = await listItemHistory({ companyId: blue, itemId })
    expect(history.rows[0]).toMatchObject({ kind: 'used', change: -1, visitId, location: `Truck — ${tech.name}` })
  })

  it('takes from the warehouse when the visit has no technician, theirs has no truck yet, or it never carried the item', async () => {
    const itemId = await newItem(10)
    // Tyler has a truck (earlier tests), which never carried this item.
    expect(await truckOf(db(), blue, tech.id)).not.toBeNull()
    expect((await take(await newVisit(tech.id), itemId, 1)).ok).toBe(true)
    const unassigned = await newVisit(null)
    const [truckless] = await db()
      .select({ id: profiles.id })
      .from(profiles)
      .where(
        and(
          eq(profiles.companyId, blue),
          eq(profiles.role, 'tech'),
          sql`${profiles.id} not in (select technician_id from stock_locations where technician_id is not null)`,
        ),
      )
      .limit(1)
    expect((await take(unassigned, itemId, 2)).ok).toBe(true)
    if (truckless) expect((await take(await newVisit(truckless.id), itemId, 3)).ok).toBe(true)
    expect((await ledger(itemId)).at(warehouse)).toBe(truckless ? 4 : 7)
  })

  it("refuses another company's item or visit", async () => {
    const itemId = await newItem(10)
    const visitId = await newVisit(null)
    expect(await take(visitId, itemId, 1, sunset)).toMatchObject({ ok: false, field: 'inventoryItemId' })
    expect(notEnoughMessage(2, 'each', { kind: 'truck', name: 'Truck — A' })).toBe('Only 2 left on Truck — A.')
  })
})

describe('low stock per location', () => {
  it('lists an item low on a truck as "Low at Truck — …" with its own minimum', async () => {
    const itemId = await newItem(50)
    await transferStock({ companyId: blue, itemId, from: warehouse, to: `tech:${tech.id}`, quantity: 3 })
    const low = await listLowStockItems({ companyId: blue, limit: 200 })
    const rows = low.filter((r) => r.id === itemId).map((r) => [r.location, r.qty])
    expect(rows).toEqual([[`Truck — ${tech.name}`, 3]])
  })
})

describe('any sequence of changes (property)', () => {
  type Op =
    | { op: 'receive'; at: number; qty: number }
    | { op: 'transfer'; from: number; to: number; qty: number }
    | { op: 'use'; on: number; qty: number }
    | { op: 'count'; at: number; qty: number }
  const place = fc.integer({ min: 0, max: 2 })
  const qty = fc.integer({ min: 1, max: 12 })
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ op: fc.constant('receive' as const), at: place, qty }),
    fc.record({ op: fc.constant('transfer' as const), from: place, to: place, qty }),
    fc.record({ op: fc.constant('use' as const), on: place, qty }),
    fc.record({ op: fc.constant('count' as const), at: place, qty: fc.integer({ min: 0, max: 12 }) }),
  )

  it('keeps every location ≥ 0 and item total = sum of locations = sum of movements', async () => {
    // Places: the warehouse, Tyler's truck, the second technician's truck; visits by nobody / each technician.
    const visitByPlace = [await newVisit(null), await newVisit(tech.id), await newVisit(otherTech.id)]
    const placeValue = [warehouse, `tech:${tech.id}`, `tech:${otherTech.id}`]
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const itemId = await newItem(5)
        for (const step of ops) {
          if (step.op === 'receive')
            await receiveStock({ companyId: blue, itemId, location: placeValue[step.at] as string, quantity: step.qty })
          else if (step.op === 'transfer')
            await transferStock({
              companyId: blue,
              itemId,
              from: placeValue[step.from] as string,
              to: placeValue[step.to] as string,
              quantity: step.qty,
            })
          else if (step.op === 'use') await take(visitByPlace[step.on] as string, itemId, step.qty)
          else {
            const truck =
              step.at === 0 ? warehouse : (await truckOf(db(), blue, step.at === 1 ? tech.id : otherTech.id))?.id
            if (truck)
              await countStock({ companyId: blue, itemId, location: truck, counted: step.qty, reason: 'Property' })
          }
          const book = await ledger(itemId)
          expect(book.levels.every((l) => l.qty >= 0)).toBe(true)
          expect(book.total).toBe(book.levels.reduce((sum, l) => sum + l.qty, 0))
          expect(book.total).toBe(book.moved)
        }
      }),
      { numRuns: 15 },
    )
  })
})
