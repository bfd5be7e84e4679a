// Migration 0039 (truck stock, decision 060) on existing data: every company gets its warehouse, each item's whole
// quantity becomes the warehouse's stock with one "initial" movement, so item total = sum of locations = sum of
// movements from the start; companies and items added afterwards get theirs from the database. Runs on PGlite and,
// with DATABASE_URL, on PostgreSQL.
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, migrateDatabase, queryRows } from '~/utils/db.server'
import { databaseMigratedTo } from '../helpers/migrations'

const BEFORE = '0038_work_orders_and_deposits'

let handle: DatabaseHandle
let drop: () => Promise<void>
let companyA: string
let companyB: string

async function rows<T>(query: ReturnType<typeof sql>) {
  return queryRows<T>(query, handle.db)
}

beforeAll(async () => {
  ;({ handle, drop } = await databaseMigratedTo(BEFORE))
  const made = await rows<{ id: string }>(
    sql`insert into companies (name) values ('Old Pools'), ('Empty Pools') returning id`,
  )
  companyA = made[0]?.id ?? ''
  companyB = made[1]?.id ?? ''
  await rows(sql`insert into inventory_items (company_id, name, sku, qty, price_cents) values
    (${companyA}, 'Liquid chlorine', 'CHL', 48, 699),
    (${companyA}, 'Test strips', 'STRIP', 0, 1299)`)
  await migrateDatabase(handle)
}, 120_000)

afterAll(async () => {
  await drop?.()
})

describe('migration 0039 truck stock', () => {
  it('gives every existing company one warehouse', async () => {
    const found = await rows<{ company_id: string; n: number }>(
      sql`select company_id, count(*)::int as n from stock_locations where kind = 'warehouse' group by company_id`,
    )
    expect(new Map(found.map((r) => [r.company_id, r.n]))).toEqual(
      new Map([
        [companyA, 1],
        [companyB, 1],
      ]),
    )
  })

  it("makes each item's quantity the warehouse's stock, with one initial movement", async () => {
    const levels = await rows<{ sku: string; qty: number; total: number; moved: number }>(sql`
      select i.sku, l.qty, i.qty as total,
        (select coalesce(sum(m.change), 0)::int from stock_movements m where m.item_id = i.id) as moved
      from inventory_items i
      join stock_levels l on l.item_id = i.id
      join stock_locations w on w.id = l.location_id and w.kind = 'warehouse'
      order by i.sku`)
    expect(levels).toEqual([
      { sku: 'CHL', qty: 48, total: 48, moved: 48 },
      { sku: 'STRIP', qty: 0, total: 0, moved: 0 },
    ])
    const movements = await rows<{ kind: string; change: number; qty_after: number }>(
      sql`select kind, change, qty_after from stock_movements`,
    )
    expect(movements).toEqual([{ kind: 'initial', change: 48, qty_after: 48 }])
    const items = await rows<{ unit: string; min_qty: number }>(sql`select distinct unit, min_qty from inventory_items`)
    expect(items).toEqual([{ unit: 'each', min_qty: 5 }])
  })

  it('gives a company made later its warehouse, and an item added later its warehouse stock', async () => {
    const [later] = await rows<{ id: string }>(sql`insert into companies (name) values ('New Pools') returning id`)
    await rows(sql`insert into inventory_items (company_id, name, sku, qty) values (${later?.id}, 'Salt', 'SALT', 7)`)
    const [level] = await rows<{ qty: number; kind: string }>(sql`
      select l.qty, w.kind from stock_levels l join stock_locations w on w.id = l.location_id
      where l.company_id = ${later?.id}`)
    expect(level).toEqual({ qty: 7, kind: 'warehouse' })
  })
})
