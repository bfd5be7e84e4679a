// Equipment warranty and history against the database (issue 33 item 7; docs/quotes.md "Equipment"): "Warranty
// until" saved with the item, "New quote" from an item linking it (only the company's own, at this customer's pool),
// "For:" and "Under warranty" judged on the quote's own day, the customer's address for the PDF, and the item's
// history — its quotes with their work orders and the parts fitted, in one query — with another company's item not
// found.
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  bodiesOfWater,
  companies,
  equipment,
  inventoryItems,
  quotes,
  quoteVersions,
  visits,
  workOrderPartsUsed,
  workOrders,
} from '~/db/schema'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { equipmentLabel, underWarranty, warrantyText } from '~/utils/equipment'
import { addTestCustomer } from '../../tests/helpers/customers'
import { addEquipment, EQUIPMENT_HISTORY_LIMIT, getEquipmentHistory, updateEquipment } from './equipment.server'
import { getQuote } from './quote.server'
import { createQuote } from './quote-create.server'
import { addQuoteLine, QUOTE_MESSAGES } from './quote-edits.server'

const TZ = 'America/New_York'
const today = () => localDateAt(new Date(), TZ)

async function companyWithPump(name: string) {
  const [company] = await db().insert(companies).values({ name, timezone: TZ }).returning()
  if (!company) throw new Error('no company')
  const customer = await addTestCustomer(company.id, {
    customerName: `${name} customer`,
    address: '12 Palm Ave, Tampa, FL 33602',
    email: 'pump.owner@example.test',
  })
  const [body] = await db()
    .select({ id: bodiesOfWater.id })
    .from(bodiesOfWater)
    .where(and(eq(bodiesOfWater.companyId, company.id), eq(bodiesOfWater.locationId, customer.locationId)))
  const added = await addEquipment({
    companyId: company.id,
    bodyOfWaterId: body?.id ?? '',
    input: {
      kind: 'pump',
      make: 'Pentair',
      model: 'IntelliFlo',
      serial: 'SN-4471',
      installedOn: '2025-04-02',
      warrantyUntil: '2028-04-01',
    },
  })
  if (!added.ok) throw new Error(added.message)
  return {
    companyId: company.id,
    customerId: customer.id,
    locationId: customer.locationId,
    equipmentId: added.equipmentId,
  }
}

/** Puts the quote's start at `instant` (the day "Under warranty" is judged on). */
async function startedAt(quoteId: string, instant: string) {
  await db()
    .update(quotes)
    .set({ createdAt: new Date(instant) })
    .where(eq(quotes.id, quoteId))
}

describe('equipment warranty', () => {
  it('keeps "Warranty until" with the item and says whether it is under warranty as of a day', async () => {
    const { companyId, equipmentId } = await companyWithPump('Warranty Pools')
    const [row] = await db()
      .select({ warrantyUntil: equipment.warrantyUntil })
      .from(equipment)
      .where(eq(equipment.id, equipmentId))
    expect(row?.warrantyUntil).toBe('2028-04-01')
    const refused = await updateEquipment({
      companyId,
      equipmentId,
      input: { kind: 'pump', warrantyUntil: 'next spring' },
    })
    expect(refused.ok).toBe(false)
    expect(warrantyText('2028-04-01', '2028-04-01')).toBe('Under warranty until Apr 1, 2028')
    expect(warrantyText('2028-04-01', '2028-04-02')).toBe('Warranty ended Apr 1, 2028')
    expect(warrantyText(null, '2028-04-02')).toBeNull()
    expect(underWarranty(null, '2020-01-01')).toBe(false)
    expect(equipmentLabel({ kind: 'pump', make: 'Pentair', model: 'IntelliFlo', serial: 'SN-4471' })).toBe(
      'Pentair IntelliFlo pump (SN SN-4471)',
    )
    expect(equipmentLabel({ kind: 'filter', make: null, model: ' ', serial: null })).toBe('filter')
  })
})

describe('New quote from an equipment item', () => {
  it('links the item; the quote says what it is for and "Under warranty" up to the last day, by the quote’s day', async () => {
    const { companyId, customerId, equipmentId } = await companyWithPump('Linked Pools')
    const created = await createQuote({ companyId, customerId, equipmentId, today: today() })
    if (!created.ok) throw new Error(created.message)
    const quoteId = created.quote.id
    // 03:30 UTC on April 2 is still April 1 in New York: the company's day, not the server's, decides.
    await startedAt(quoteId, '2028-04-02T03:30:00Z')
    const onLastDay = await getQuote({ companyId, quoteId, today: today() })
    expect(onLastDay?.quoteDate).toBe('2028-04-01')
    expect(onLastDay?.equipment).toMatchObject({ id: equipmentId, warrantyUntil: '2028-04-01', serial: 'SN-4471' })
    expect(underWarranty(onLastDay?.equipment?.warrantyUntil ?? null, onLastDay?.quoteDate ?? '')).toBe(true)
    await startedAt(quoteId, '2028-04-02T05:00:00Z')
    const dayAfter = await getQuote({ companyId, quoteId, today: today() })
    expect(dayAfter?.quoteDate).toBe('2028-04-02')
    expect(underWarranty(dayAfter?.equipment?.warrantyUntil ?? null, dayAfter?.quoteDate ?? '')).toBe(false)
    // The PDF prints the first pool's address under the customer's name.
    expect(dayAfter?.customerAddress).toEqual({
      street: '12 Palm Ave',
      city: 'Tampa',
      state: 'FL',
      postalCode: '33602',
    })
  })

  it('refuses another company’s item, or another customer’s, as not found, and starts nothing', async () => {
    const mine = await companyWithPump('Mine Pools')
    const theirs = await companyWithPump('Theirs Pools')
    const other = await addTestCustomer(mine.companyId, { customerName: 'Next Door', address: '14 Palm Ave, Tampa' })
    for (const [customerId, equipmentId] of [
      [mine.customerId, theirs.equipmentId],
      [other.id, mine.equipmentId],
      [mine.customerId, 'not-a-uuid'],
      [mine.customerId, crypto.randomUUID()],
    ] as const) {
      const refused = await createQuote({ companyId: mine.companyId, customerId, equipmentId, today: today() })
      expect(refused).toMatchObject({ ok: false, code: 'not-found', message: QUOTE_MESSAGES.equipmentNotFound })
    }
    const started = await db().select({ id: quotes.id }).from(quotes).where(eq(quotes.companyId, mine.companyId))
    expect(started).toEqual([])
  })

  it('leaves a quote without equipment when none is given, and when the item is removed', async () => {
    const { companyId, customerId, equipmentId } = await companyWithPump('Removed Pools')
    const plain = await createQuote({ companyId, customerId, today: today() })
    if (!plain.ok) throw new Error(plain.message)
    expect((await getQuote({ companyId, quoteId: plain.quote.id, today: today() }))?.equipment).toBeNull()
    const linked = await createQuote({ companyId, customerId, equipmentId, today: today() })
    if (!linked.ok) throw new Error(linked.message)
    await db().delete(equipment).where(eq(equipment.id, equipmentId))
    const after = await getQuote({ companyId, quoteId: linked.quote.id, today: today() })
    expect(after?.equipment).toBeNull()
    expect(after?.numberLabel).toBe('Q-0002')
  })
})

describe('equipment history', () => {
  it('lists the item’s quotes newest first with status, total, day, work order and parts fitted; another company’s is null', async () => {
    const { companyId, customerId, locationId, equipmentId } = await companyWithPump('History Pools')
    const first = await createQuote({ companyId, customerId, equipmentId, today: today() })
    const second = await createQuote({ companyId, customerId, equipmentId, today: today() })
    const unrelated = await createQuote({ companyId, customerId, today: today() })
    if (!first.ok || !second.ok || !unrelated.ok) throw new Error('quotes not started')
    await addQuoteLine(companyId, first.quote.id, {
      description: 'Replace pump motor',
      quantityHundredths: 100,
      unitPriceCents: 85_000,
      priceBookItemId: null,
      optional: false,
      taxable: false,
    })
    await startedAt(first.quote.id, '2026-05-04T14:00:00Z')
    await startedAt(second.quote.id, '2026-06-10T14:00:00Z')
    // The first quote was approved and became a work order (the other engineer's table: its equipment is its quote's).
    await db().update(quotes).set({ state: 'approved' }).where(eq(quotes.id, first.quote.id))
    const [version] = await db()
      .select({ id: quoteVersions.id })
      .from(quoteVersions)
      .where(eq(quoteVersions.quoteId, first.quote.id))
    const [workOrder] = await db()
      .insert(workOrders)
      .values({ companyId, customerId, quoteId: first.quote.id, quoteVersionId: version?.id ?? '', number: 7 })
      .returning({ id: workOrders.id })
    // Two parts fitted on its visit, the later one late in the evening of May 6 in New York (May 7 in UTC).
    const [visit] = await db()
      .insert(visits)
      .values({
        companyId,
        customerId,
        locationId,
        customerName: 'History Pools customer',
        address: '12 Palm Ave, Tampa, FL 33602',
        scheduledAt: new Date('2026-05-06T13:00:00Z'),
      })
      .returning({ id: visits.id })
    const [motor] = await db()
      .insert(inventoryItems)
      .values({ companyId, name: 'Pump motor 1.5 HP', sku: 'MOT-15', qty: 3 })
      .returning({ id: inventoryItems.id })
    const fitted = (description: string, quantity: number, at: string) => ({
      companyId,
      workOrderId: workOrder?.id ?? '',
      visitId: visit?.id ?? '',
      inventoryItemId: motor?.id ?? '',
      description,
      quantity,
      unitPriceCents: 100,
      recordedAt: new Date(at),
    })
    await db()
      .insert(workOrderPartsUsed)
      .values([fitted('Shaft seal', 2, '2026-05-07T01:30:00Z'), fitted('Pump motor 1.5 HP', 1, '2026-05-06T15:00:00Z')])
    const history = await getEquipmentHistory({ companyId, equipmentId, today: '2026-07-01' })
    expect(history?.customer).toEqual({ id: customerId, name: 'History Pools customer', archived: false })
    expect(history?.equipment).toMatchObject({ warrantyUntil: '2028-04-01', bodyOfWaterName: 'Pool' })
    expect(history?.more).toBe(false)
    expect(history?.quotes).toEqual([
      {
        id: second.quote.id,
        numberLabel: 'Q-0002',
        status: 'Draft',
        totalCents: 0,
        date: '2026-06-10',
        workOrder: null,
        partsFitted: [],
      },
      {
        id: first.quote.id,
        numberLabel: 'Q-0001',
        status: 'Approved',
        totalCents: 85_000,
        date: '2026-05-04',
        workOrder: { id: workOrder?.id, numberLabel: 'WO-0007', state: 'open' },
        partsFitted: [
          { description: 'Pump motor 1.5 HP', quantity: 1, date: '2026-05-06' },
          { description: 'Shaft seal', quantity: 2, date: '2026-05-06' },
        ],
      },
    ])
    const stranger = await companyWithPump('Stranger Pools')
    expect(await getEquipmentHistory({ companyId: stranger.companyId, equipmentId, today: today() })).toBeNull()
    expect(await getEquipmentHistory({ companyId, equipmentId: 'nope', today: today() })).toBeNull()
    expect(EQUIPMENT_HISTORY_LIMIT).toBeGreaterThan(0)
  })
})
