import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies } from '~/db/schema'
import { archiveCustomer } from '~/models/customer-changes.server'
import { addServiceLocation } from '~/models/service-location.server'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../../tests/helpers/customers'
import { pageRequest, routeArgs, settle } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { loader } from './customer-picker'

type Answer = {
  data: { query: string; customers: Array<{ id: string; customerName: string; detail: string; locations: unknown[] }> }
  init: { headers: Record<string, string> }
}

async function pick(cookie: string, q: string) {
  return (await loader(
    routeArgs(pageRequest(`/app/customers/picker?q=${encodeURIComponent(q)}`, cookie)),
  )) as unknown as Answer
}

let blue: string
let dispatcher: string

beforeAll(async () => {
  await useDemoData()
  const [company] = await db().select().from(companies).where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  dispatcher = await signInAs('dispatch@bluelagoon.test')
})

describe('the customer picker', () => {
  it('finds any active customer by typing, with their locations, however many the company has', async () => {
    for (let i = 0; i < 30; i++) {
      await addTestCustomer(blue, { customerName: `Zanzibar ${String(i).padStart(2, '0')}`, address: `${i} Zed Rd` })
    }
    // The 26th of them is found by typing more of the name: a search, not the first 20 of a list.
    const found = await pick(dispatcher, 'zanzibar 25')
    expect(found.data.customers[0]).toMatchObject({
      customerName: 'Zanzibar 25',
      detail: expect.stringContaining('25 Zed Rd'),
    })
    expect(found.init.headers['Cache-Control']).toBe('private, no-store')
    const many = await pick(dispatcher, 'zanzibar')
    expect(many.data.customers).toHaveLength(10)

    const landlord = await addTestCustomer(blue, { customerName: 'Quincy Quarters', address: '1 One St' })
    await addServiceLocation({
      companyId: blue,
      customerId: landlord.id,
      input: { street: '2 Two St', dogOnSite: false },
    })
    expect((await pick(dispatcher, 'quincy')).data.customers[0]?.locations).toHaveLength(2)
    await archiveCustomer({ companyId: blue, customerId: landlord.id })
    expect((await pick(dispatcher, 'quincy')).data.customers).toEqual([])
  })

  it("never shows another company's customers, and is for the office only", async () => {
    const sunset = await signInAs('owner@sunsetpools.test')
    expect((await pick(sunset, 'Dana Whitfield')).data.customers).toEqual([])
    expect((await pick(dispatcher, 'Dana Whitfield')).data.customers.map((c) => c.customerName)).toEqual([
      'Dana Whitfield',
    ])
    for (const email of ['tech@bluelagoon.test', 'customer@bluelagoon.test']) {
      const { thrown } = await settle(pick(await signInAs(email), 'dana'))
      expect((thrown as { init?: { status?: number } }).init?.status).toBe(403)
    }
  })
})
