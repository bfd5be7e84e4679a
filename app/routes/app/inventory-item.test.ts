// The item page (docs/inventory.md, decision 060): locations and history for everyone who searches stock; Transfer
// (in packs, once per token), Count (reason required) for owners and admins; another company's item is a 404; and
// "My truck" shows a technician their own truck.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, profiles } from '~/db/schema'
import { createInventoryItem } from '~/models/inventory.server'
import { warehouseOf } from '~/models/stock-locations.server'
import { db } from '~/utils/db.server'
import { formRequest, pageRequest, routeArgs, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './inventory-item'
import { loader as truckLoader } from './truck'

const post = (cookie: string, itemId: string, fields: Record<string, string>) =>
  formRequest(`/app/inventory/${itemId}`, fields, cookie)

function reply(result: unknown) {
  const value = result as {
    data: { ok: boolean; message: string | null; result?: { error?: Record<string, string[] | null> } }
    init?: { status?: number } | null
  }
  const errors = Object.values(value.data.result?.error ?? {})
    .flat()
    .filter(Boolean)
  return { ...value.data, errors, status: value.init?.status ?? 200 }
}

type ItemPage = Awaited<ReturnType<typeof loader>>

let owner: string
let tech: string
let techId: string
let itemId: string
let warehouse: string

beforeAll(async () => {
  await useDemoData()
  const [company] = await db().select().from(companies).where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  const companyId = company?.id ?? ''
  const made = await createInventoryItem({
    companyId,
    name: 'Route test acid',
    sku: 'RT-ACID',
    priceCents: 1250,
    qty: 12,
    unit: 'gal',
    pack: { name: 'case', size: 4 },
  })
  if (!made.ok) throw new Error(made.message)
  itemId = made.item.id
  warehouse = (await warehouseOf(db(), companyId)).id
  const [tyler] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.email, 'tech@bluelagoon.test'))
  techId = tyler?.id ?? ''
  ;[owner, tech] = await Promise.all([signInAs('owner@bluelagoon.test'), signInAs('tech@bluelagoon.test')])
})

describe('item page', () => {
  it('moves a case to Tyler’s truck once, however often the form is sent, and shows it', async () => {
    const fields = {
      intent: 'transfer',
      from: warehouse,
      to: `tech:${techId}`,
      quantity: '1',
      entered: 'pack',
      idempotencyKey: crypto.randomUUID(),
    }
    const first = reply(await action(routeArgs(post(owner, itemId, fields), { itemId })))
    expect(first).toMatchObject({ ok: true, message: 'Moved 4 gal (1 case) from Warehouse to Truck — Tyler Brooks.' })
    expect(reply(await action(routeArgs(post(owner, itemId, fields), { itemId }))).ok).toBe(true)
    const data = (await loader(routeArgs(pageRequest(`/app/inventory/${itemId}`, owner), { itemId }))) as ItemPage
    expect(data.levels.map((l) => [l.name, l.shown])).toEqual([
      ['Warehouse', '8 gal (2 cases)'],
      ['Truck — Tyler Brooks', '4 gal (1 case)'],
    ])
    expect(data.history.rows.map((r) => [r.what, r.change])).toEqual([
      ['Transferred in', '+4 gal'],
      ['Transferred out', '-4 gal'],
      ['Starting stock', '+12 gal'],
    ])
    // The technician sees the page (no forms) and their truck.
    const asTech = (await loader(routeArgs(pageRequest(`/app/inventory/${itemId}`, tech), { itemId }))) as ItemPage
    expect([asTech.canManage, asTech.places]).toEqual([false, []])
    const truck = await truckLoader(routeArgs(pageRequest('/app/truck', tech)))
    expect(truck.truck?.name).toBe('Truck — Tyler Brooks')
    expect(truck.items.find((i) => i.id === itemId)?.shown).toBe('4 gal (1 case)')
  })

  it('refuses a transfer of more than is there, at the quantity', async () => {
    const refused = reply(
      await action(
        routeArgs(post(owner, itemId, { intent: 'transfer', from: warehouse, to: `tech:${techId}`, quantity: '99' }), {
          itemId,
        }),
      ),
    )
    expect(refused).toMatchObject({ ok: false, status: 400, errors: ['Only 8 gal left in the Warehouse.'] })
  })

  it('asks a count for its reason, then records the difference', async () => {
    const missing = reply(
      await action(routeArgs(post(owner, itemId, { intent: 'count', location: warehouse, quantity: '7' }), { itemId })),
    )
    expect(missing).toMatchObject({ ok: false, status: 400, errors: ['Give a reason for the count.'] })
    const counted = reply(
      await action(
        routeArgs(post(owner, itemId, { intent: 'count', location: warehouse, quantity: '7', reason: 'Spilled' }), {
          itemId,
        }),
      ),
    )
    expect(counted).toMatchObject({ ok: true, message: 'Counted 7 gal (1 case + 3 gal): adjusted by -1 gal.' })
  })

  it('sets a location’s own minimum, and blank goes back to the item’s', async () => {
    const set = reply(
      await action(
        routeArgs(post(owner, itemId, { intent: 'minimum', locationId: warehouse, minQty: '10' }), { itemId }),
      ),
    )
    expect(set).toMatchObject({ ok: true, message: 'Minimum set to 10.' })
    let data = (await loader(routeArgs(pageRequest(`/app/inventory/${itemId}`, owner), { itemId }))) as ItemPage
    expect(data.levels.find((l) => l.locationId === warehouse)).toMatchObject({
      minQty: 10,
      ownMinQty: '10',
      low: true,
    })
    await action(routeArgs(post(owner, itemId, { intent: 'minimum', locationId: warehouse, minQty: '' }), { itemId }))
    data = (await loader(routeArgs(pageRequest(`/app/inventory/${itemId}`, owner), { itemId }))) as ItemPage
    expect(data.levels.find((l) => l.locationId === warehouse)).toMatchObject({ minQty: 5, ownMinQty: '', low: false })
  })

  it("answers 404 to another company's owner, and 403 to a technician's change", async () => {
    const sunsetOwner = await signInAs('owner@sunsetpools.test')
    const seen = await settle(loader(routeArgs(pageRequest(`/app/inventory/${itemId}`, sunsetOwner), { itemId })))
    expect(statusOf(seen.thrown)).toBe(404)
    const changed = await settle(action(routeArgs(post(sunsetOwner, itemId, { intent: 'count' }), { itemId })))
    expect(statusOf(changed.thrown)).toBe(404)
    const byTech = await settle(action(routeArgs(post(tech, itemId, { intent: 'count' }), { itemId })))
    expect(statusOf(byTech.thrown)).toBe(403)
  })
})
