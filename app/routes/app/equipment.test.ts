// "Warranty until", "New quote" from an equipment item and the item's page, through the routes (issue 33 item 7;
// docs/quotes.md "Equipment"): the record saves and shows the warranty, the quotes action starts a quote linked to the
// item that the quote page shows as "For: …" with "Under warranty", the item's page lists it — and another company's
// owner gets 404s for the page and for a quote on the item.
import { and, desc, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { bodiesOfWater, equipment } from '~/db/schema'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { findTestCustomer } from '../../../tests/helpers/customers'
import { formRequest, pageRequest, routeArgs, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action as customerAction, loader as customerLoader } from './customer'
import { loader as equipmentLoader } from './equipment'
import { loader as quoteLoader } from './quote'
import { action as quotesAction } from './quotes'

let dispatcher: string
let otherOwner: string

beforeAll(async () => {
  await useDemoData()
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  otherOwner = await signInAs('owner@sunsetpools.test')
})

describe('equipment warranty and New quote from an item', () => {
  it('saves "Warranty until", starts a linked quote that says "Under warranty", and lists it on the item’s page', async () => {
    const dana = await findTestCustomer('Dana Whitfield')
    const [pool] = await db()
      .select({ id: bodiesOfWater.id })
      .from(bodiesOfWater)
      .where(eq(bodiesOfWater.locationId, dana.locationId))
      .limit(1)
    // A warranty that runs to the end of next year holds at any hour of any day this test runs.
    const nextYear = Number(localDateAt(new Date(), 'America/New_York').slice(0, 4)) + 1
    const { thrown: saved } = await settle(
      customerAction(
        routeArgs(
          formRequest(
            `/app/customers/${dana.id}`,
            {
              intent: 'add-equipment',
              targetId: pool?.id ?? '',
              kind: 'heater',
              make: 'Hayward',
              model: 'H-Series',
              serial: 'HW-3310',
              installedOn: '2025-03-01',
              warrantyUntil: `${nextYear}-12-31`,
            },
            dispatcher,
          ),
          { customerId: dana.id },
        ),
      ),
    )
    expect(statusOf(saved)).toBe(302)
    const [heater] = await db()
      .select({ id: equipment.id })
      .from(equipment)
      .where(and(eq(equipment.bodyOfWaterId, pool?.id ?? ''), eq(equipment.serial, 'HW-3310')))
      .orderBy(desc(equipment.createdAt))
      .limit(1)
    const equipmentId = heater?.id ?? ''
    const record = await customerLoader(
      routeArgs(pageRequest(`/app/customers/${dana.id}`, dispatcher), { customerId: dana.id }),
    )
    const shown = record.locations
      .flatMap((l) => l.bodiesOfWater.flatMap((b) => b.equipment))
      .find((e) => e.id === equipmentId)
    expect(shown).toMatchObject({
      label: 'Hayward H-Series heater (SN HW-3310)',
      warranty: `Under warranty until Dec 31, ${nextYear}`,
      form: { warrantyUntil: `${nextYear}-12-31` },
    })

    const { thrown: started } = await settle(
      quotesAction(
        routeArgs(
          formRequest(
            '/app/quotes',
            {
              intent: 'create',
              customerId: dana.id,
              equipmentId,
              idempotencyKey: crypto.randomUUID(),
            },
            dispatcher,
          ),
          {},
        ),
      ),
    )
    expect(statusOf(started)).toBe(302)
    const location = (started as Response).headers.get('Location') ?? ''
    const quoteId = location.replace('/app/quotes/', '')
    const page = await quoteLoader(routeArgs(pageRequest(location, dispatcher), { quoteId }))
    expect(page.quote.equipment).toEqual({
      id: equipmentId,
      label: 'Hayward H-Series heater (SN HW-3310)',
      underWarranty: true,
      warrantyUntil: `Dec 31, ${nextYear}`,
    })
    expect(page.quote.customerAddressLines[0]).toBe(dana.address.split(',')[0])

    const history = await equipmentLoader(
      routeArgs(pageRequest(`/app/equipment/${equipmentId}`, dispatcher), { equipmentId }),
    )
    expect(history.equipment).toMatchObject({
      label: 'Hayward H-Series heater (SN HW-3310)',
      installedOn: 'Mar 1, 2025',
    })
    expect(history.customer).toMatchObject({ id: dana.id, name: 'Dana Whitfield' })
    expect(history.canQuote).toBe(true)
    expect(history.quotes).toEqual([
      {
        id: quoteId,
        numberLabel: expect.stringMatching(/^Q-\d{4}$/),
        status: 'Draft',
        total: '$0.00',
        date: expect.any(String),
        workOrder: null,
        partsFitted: [],
      },
    ])

    // Another company: the item's page and a quote on it do not exist.
    const { thrown: hidden } = await settle(
      equipmentLoader(routeArgs(pageRequest(`/app/equipment/${equipmentId}`, otherOwner), { equipmentId })),
    )
    expect(statusOf(hidden)).toBe(404)
    const { thrown: refused } = await settle(
      quotesAction(
        routeArgs(
          formRequest(
            '/app/quotes',
            {
              intent: 'create',
              customerId: dana.id,
              equipmentId,
              idempotencyKey: crypto.randomUUID(),
            },
            otherOwner,
          ),
          {},
        ),
      ),
    )
    expect(statusOf(refused)).toBe(404)
  })
})
