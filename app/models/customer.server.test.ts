import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { useDemoData } from '../../tests/helpers/test-database'
import { getCustomer } from './customer.server'
import { createCustomerWithLocation, updateCustomerContact } from './customer-changes.server'
import { listCustomerDirectory as listCustomers } from './customer-list.server'

let blue: string
let sunset: string
let dana: string
let marcus: string

async function companyId(name: string) {
  const [row] = await db().select({ id: companies.id }).from(companies).where(eq(companies.name, name))
  if (!row) throw new Error(`no company ${name}`)
  return row.id
}

async function customerId(name: string) {
  const [row] = await db().select({ id: customers.id }).from(customers).where(eq(customers.customerName, name))
  if (!row) throw new Error(`no customer ${name}`)
  return row.id
}

const names = (rows: Array<{ customerName: string }>) => rows.map((row) => row.customerName)

beforeAll(async () => {
  await useDemoData()
  blue = await companyId('Blue Lagoon Pool Co.')
  sunset = await companyId('Sunset Pool Care')
  dana = await customerId('Dana Whitfield')
  marcus = await customerId('Marcus Bell')
})

describe('listCustomerDirectory', () => {
  it("lists only the company's customers, by name, with balance", async () => {
    // The demo's 32 customers and the houses on the technicians' weekly routes (app/demo/routes.server.ts).
    const [{ n: all } = { n: 0 }] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(customers)
      .where(eq(customers.companyId, blue))
    const { rows, total } = await listCustomers({ companyId: blue, pageSize: 200 })
    expect(all).toBeGreaterThan(32)
    expect(total).toBe(all)
    expect(rows).toHaveLength(all)
    expect(names(rows)).toEqual([...names(rows)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    expect(names(rows)).not.toContain('Marco Ruiz')
    const danaRow = rows.find((row) => row.id === dana)
    expect(danaRow).toMatchObject({
      customerName: 'Dana Whitfield',
      email: 'customer@bluelagoon.test',
      balanceDue: 24000,
    })
  })

  it('searches by part of the name, address or email, ignoring case', async () => {
    expect(names((await listCustomers({ companyId: blue, query: 'whitf' })).rows)).toEqual(['Dana Whitfield'])
    expect(names((await listCustomers({ companyId: blue, query: 'PRIYA.RAMAN@' })).rows)).toEqual(['Priya Raman'])
    const [danaRow] = (await listCustomers({ companyId: blue, query: 'Dana Whitfield' })).rows
    const street = danaRow?.address?.split(',')[0] ?? ''
    const byAddress = await listCustomers({ companyId: blue, query: street.toLowerCase() })
    expect(byAddress.rows.map((row) => row.id)).toContain(dana)
    expect(byAddress.rows.every((row) => row.address?.toLowerCase().includes(street.toLowerCase()))).toBe(true)
    // Another company's customers never match, whatever the text.
    expect((await listCustomers({ companyId: blue, query: 'Marco Ruiz' })).total).toBe(0)
  })

  it('treats typed wildcards, quotes and backslashes as plain text', async () => {
    // The customer whose fields do contain the special characters.
    const created = await createCustomerWithLocation(sunset, {
      customerName: "100% O'Neil_Pools (Test) Inc\\",
      location: { street: '1 Main St', dogOnSite: false },
    })
    const id = created.ok ? created.customerId : ''
    for (const companyId of [blue, sunset]) {
      const all = (await listCustomers({ companyId })).rows
      for (const query of ["%' or 1=1 --", "O'Neil_", '100% o', 'Inc\\', '(Test)']) {
        const { rows, total } = await listCustomers({ companyId, query })
        // Exactly the customers whose name, address or email contains the text literally.
        const literal = all.filter((row) =>
          [row.customerName, row.address ?? '', row.email ?? ''].some((field) =>
            field.toLowerCase().includes(query.toLowerCase()),
          ),
        )
        expect({ query, ids: rows.map((row) => row.id), total }).toEqual({
          query,
          ids: literal.map((row) => row.id),
          total: literal.length,
        })
      }
    }
    expect((await listCustomers({ companyId: sunset, query: "O'Neil_" })).rows.map((row) => row.id)).toEqual([id])
    // Punctuation alone identifies nobody: it matches nothing rather than every address with a comma.
    for (const query of ['%', '_', "'", ',', ')', '(', '\\', '%%', '\\%']) {
      for (const companyId of [blue, sunset]) {
        expect({ query, total: (await listCustomers({ companyId, query })).total }).toEqual({ query, total: 0 })
      }
    }
  })

  it('pages past 50 rows with a total over the whole list', async () => {
    const [company] = await db().insert(companies).values({ name: 'Many Pools' }).returning({ id: companies.id })
    const many = company?.id ?? ''
    for (let i = 0; i < 123; i++) {
      await addTestCustomer(many, {
        customerName: `Customer ${String(i).padStart(3, '0')}`,
        address: `${i} Pool Lane`,
        email: i % 2 === 0 ? `even${i}@example.com` : null,
      })
    }
    const first = await listCustomers({ companyId: many })
    expect(first.total).toBe(123)
    expect(first.rows).toHaveLength(50)
    expect(first.rows[0]?.customerName).toBe('Customer 000')
    const second = await listCustomers({ companyId: many, page: 2 })
    expect(second.total).toBe(123)
    expect(second.rows[0]?.customerName).toBe('Customer 050')
    const third = await listCustomers({ companyId: many, page: 3 })
    expect(third.rows).toHaveLength(23)
    expect(third.rows.at(-1)?.customerName).toBe('Customer 122')
    const seen = new Set([...first.rows, ...second.rows, ...third.rows].map((row) => row.id))
    expect(seen.size).toBe(123)
    // Past the end: no rows, but still the right total.
    expect(await listCustomers({ companyId: many, page: 9 })).toMatchObject({ rows: [], total: 123 })
    // Search totals count every match, not just the page.
    const even = await listCustomers({ companyId: many, query: 'even', pageSize: 10 })
    expect(even.total).toBe(62)
    expect(even.rows).toHaveLength(10)
  })

  it('reports portal status: none, invited (setup unfinished) or active', async () => {
    const { rows } = await listCustomers({ companyId: blue, pageSize: 200 })
    const status = (id: string) => rows.find((row) => row.id === id)?.portalStatus
    expect(status(dana)).toBe('active')
    expect(status(marcus)).toBe('none')
    expect(rows.filter((row) => row.portalStatus === 'active')).toHaveLength(1)
  })
})

describe('getCustomer / createCustomerWithLocation / updateCustomerContact', () => {
  it("answers null for another company's customer and for anything that is not an id", async () => {
    expect(await getCustomer({ companyId: blue, customerId: dana })).toMatchObject({ customerName: 'Dana Whitfield' })
    expect(await getCustomer({ companyId: sunset, customerId: dana })).toBeNull()
    expect(await getCustomer({ companyId: blue, customerId: 'not-an-id' })).toBeNull()
    expect(await getCustomer({ companyId: blue, customerId: "' or 1=1 --" })).toBeNull()
  })

  it('stores trimmed text, lowercased email and blanks as null', async () => {
    const created = await createCustomerWithLocation(blue, {
      customerName: '  Zed New  ',
      email: '  Zed.New@Example.COM ',
      phone: '   ',
      location: { street: ' 9 Elm St ', dogOnSite: false },
    })
    if (!created.ok) throw new Error(created.message)
    const id = created.customerId
    expect(await getCustomer({ companyId: blue, customerId: id })).toMatchObject({
      customerName: 'Zed New',
      address: '9 Elm St',
      email: 'zed.new@example.com',
      phone: null,
      balanceDue: 0,
    })
    expect(
      await updateCustomerContact({
        companyId: blue,
        customerId: id,
        input: { customerName: 'Zed Newer', email: null, phone: '(813) 555-0199' },
      }),
    ).toEqual({ ok: true })
    // Phones are stored in E.164 (issue #17); the pages format them for people.
    expect(await getCustomer({ companyId: blue, customerId: id })).toMatchObject({
      customerName: 'Zed Newer',
      email: null,
      phone: '+18135550199',
    })
  })

  it("refuses to update another company's customer and leaves it unchanged", async () => {
    const before = await getCustomer({ companyId: blue, customerId: marcus })
    const input = { customerName: 'Hijacked', email: null, phone: null }
    expect(await updateCustomerContact({ companyId: sunset, customerId: marcus, input })).toMatchObject({
      ok: false,
      code: 'not-found',
    })
    expect(await updateCustomerContact({ companyId: sunset, customerId: 'nope', input })).toMatchObject({
      ok: false,
      code: 'not-found',
    })
    expect(await getCustomer({ companyId: blue, customerId: marcus })).toEqual(before)
  })
})
