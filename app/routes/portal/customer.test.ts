import { and, eq, isNotNull, ne } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, profiles, serviceLocations, visitPhotos, visits } from '~/db/schema'
import { PORTAL_READINGS_LIMIT } from '~/models/portal.server'
import { createVisit } from '~/models/visit-changes.server'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../../tests/helpers/customers'
import { pageRequest, routeArgs, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import CustomerPortal, { loader } from './customer'
import { loader as visitLoader } from './visit'

type PortalData = Awaited<ReturnType<typeof loader>>

/** A loader's thrown `data(…, { status })` or Response, as a status code. */

let blue: string
let danaId: string
let marcoId: string
let neighborId: string
const cookies: Record<string, string> = {}

async function cookieOf(email: string) {
  cookies[email] ??= await signInAs(email)
  return cookies[email]
}

async function portalAs(email: string, customerId: string, query = '') {
  const cookie = await cookieOf(email)
  return (await loader(routeArgs(pageRequest(`/customer/${customerId}${query}`, cookie), { customerId }))) as PortalData
}

/** The page's HTML for `loaderData`, rendered inside a router as React Router would. */
function render(loaderData: PortalData) {
  const router = createMemoryRouter(
    [
      {
        path: '/customer/:customerId',
        element: createElement(CustomerPortal, { loaderData, params: {}, matches: [] } as never),
      },
    ],
    { initialEntries: ['/customer/x'] },
  )
  // React separates adjacent text with empty comments; they are not part of what anyone reads.
  return renderToString(createElement(RouterProvider, { router })).replaceAll('<!-- -->', '')
}

beforeAll(async () => {
  await useDemoData()
  const [company] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  const rows = await db().select({ id: customers.id, name: customers.customerName }).from(customers)
  danaId = rows.find((r) => r.name === 'Dana Whitfield')?.id ?? ''
  marcoId = rows.find((r) => r.name === 'Marco Ruiz')?.id ?? ''
  const [neighbor] = await db()
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.companyId, blue), ne(customers.id, danaId)))
    .limit(1)
  neighborId = neighbor?.id ?? ''
})

describe('portal page: who may see it', () => {
  it('shows customer@bluelagoon.test the portal of Dana Whitfield with visits, readings and photos', async () => {
    // A visit of an hour ago not yet worked ("Scheduled" in her history), whatever the hour and weekday the test runs.
    const open = await createVisit({
      companyId: blue,
      customerId: danaId,
      scheduledAt: new Date(Date.now() - 3_600_000),
      technicianId: null,
    })
    if (!open) throw new Error('no visit')
    const data = await portalAs('customer@bluelagoon.test', danaId)
    expect(data.preview).toBe(false)
    expect(data.customer).toEqual({ name: 'Dana Whitfield', address: expect.any(String), phone: '(813) 555-0101' })
    expect(data.balance).toEqual({ settled: false, due: '$240.00', credit: null })
    expect(data.visits.rows.length).toBeGreaterThan(0)
    expect(new Set(data.visits.rows.map((v) => v.status))).toEqual(new Set(['Completed', 'Scheduled']))
    expect(data.readings).toHaveLength(PORTAL_READINGS_LIMIT)
    expect(data.latestReading).not.toBeNull()
    expect(data.counts.completed).toBeGreaterThan(0)
    expect(data.nextVisit).not.toBeNull()
    expect(data.gallery.length).toBeGreaterThan(0)
    for (const photo of data.gallery) {
      expect(photo.full).toMatch(new RegExp(`^/customer/${danaId}/photos/[0-9a-f-]{36}/[0-9a-f-]{36}$`))
      expect(photo.thumb).toBe(`${photo.full}?size=thumb`)
      expect(['Before', 'After', 'Other']).toContain(photo.label)
    }
    const linked = data.visits.rows.filter((v) => v.photos.length > 0)
    expect(linked.length).toBeGreaterThan(0)
    expect(linked[0]?.photos.map((p) => p.label)).toEqual(['Before', 'After'])
  })

  it('lets staff who may preview (owner, admin, dispatcher) see it, marked as a preview', async () => {
    for (const email of ['dispatch@bluelagoon.test', 'owner@bluelagoon.test', 'office@bluelagoon.test']) {
      const data = await portalAs(email, danaId)
      expect(data.preview).toBe(true)
      expect(data.customer.name).toBe('Dana Whitfield')
    }
  })

  it("is a 404 for other customers, the other company's staff, technicians and platform admins", async () => {
    const cases: Array<[string, () => string]> = [
      ['customer@sunsetpools.test', () => danaId],
      ['owner@sunsetpools.test', () => danaId],
      ['customer@bluelagoon.test', () => marcoId],
      ['customer@bluelagoon.test', () => neighborId],
      ['tech@bluelagoon.test', () => danaId],
      ['admin@poolbud.test', () => danaId],
      ['dispatch@bluelagoon.test', () => marcoId],
      ['customer@bluelagoon.test', () => 'not-a-uuid'],
    ]
    for (const [email, id] of cases) {
      const cookie = await cookieOf(email)
      const { thrown } = await settle(loader(routeArgs(pageRequest(`/customer/${id()}`, cookie), { customerId: id() })))
      expect(statusOf(thrown), `${email} on ${id()}`).toBe(404)
    }
  })

  it('sends visitors who are not signed in to log in, then back to the portal', async () => {
    const { thrown } = await settle(loader(routeArgs(pageRequest(`/customer/${danaId}`), { customerId: danaId })))
    expect(thrown).toHaveRedirect(`/login?redirectTo=${encodeURIComponent(`/customer/${danaId}`)}`)
  })

  it('still opens for a customer who has not finished setup', async () => {
    const [login] = await db()
      .select({ id: profiles.id })
      .from(profiles)
      .where(eq(profiles.email, 'customer@bluelagoon.test'))
    await db()
      .update(profiles)
      .set({ hasCompletedSetup: false })
      .where(eq(profiles.id, login?.id ?? ''))
    try {
      const data = await portalAs('customer@bluelagoon.test', danaId)
      expect(data.customer.name).toBe('Dana Whitfield')
    } finally {
      await db()
        .update(profiles)
        .set({ hasCompletedSetup: true })
        .where(eq(profiles.id, login?.id ?? ''))
    }
  })
})

describe('portal page: what it sends', () => {
  it('never sends internal fields: ids of the company, login or technicians, emails or storage keys', async () => {
    for (const email of ['customer@bluelagoon.test', 'dispatch@bluelagoon.test']) {
      const text = JSON.stringify(await portalAs(email, danaId))
      const staff = await db()
        .select({ id: profiles.id, email: profiles.email })
        .from(profiles)
        .where(eq(profiles.companyId, blue))
      const [dana] = await db()
        .select({ portalUserId: customers.portalUserId })
        .from(customers)
        .where(eq(customers.id, danaId))
      const keys = await db()
        .select({ key: visitPhotos.storageKey })
        .from(visitPhotos)
        .innerJoin(visits, eq(visits.id, visitPhotos.visitId))
        .where(eq(visits.customerId, danaId))
      expect(keys.length).toBeGreaterThan(0)
      const secrets = [
        blue,
        dana?.portalUserId ?? '',
        ...staff.flatMap((p) => [p.id, p.email ?? '']),
        ...keys.map((k) => k.key),
      ].filter(Boolean)
      for (const secret of secrets) expect(text).not.toContain(secret)
      expect(text).not.toMatch(/companyId|portalUserId|technicianId|balanceDueCents/i)
      // No field carries an email address; the Notifications section's per-channel switches ("email": true) may.
      expect(text).not.toMatch(/"\w*email\w*":"/i)
    }
  })

  it('pages the visit history 20 at a time past 20 visits', async () => {
    const customer = await addTestCustomer(blue, { customerName: 'Many Visits', address: '9 Weekly Road' })
    const id = customer.id
    const start = Date.UTC(2024, 0, 3, 15)
    await db()
      .insert(visits)
      .values(
        Array.from({ length: 75 }, (_, i) => ({
          companyId: blue,
          customerId: id,
          locationId: customer.locationId,
          customerName: 'Many Visits',
          address: '9 Weekly Road',
          scheduledAt: new Date(start + i * 7 * 86_400_000),
          completedAt: new Date(start + i * 7 * 86_400_000 + 3_600_000),
        })),
      )
    const first = await portalAs('dispatch@bluelagoon.test', id)
    expect(first.visits).toMatchObject({ page: 1, pageCount: 4, total: 75 })
    expect(first.visits.rows).toHaveLength(20)
    const second = await portalAs('dispatch@bluelagoon.test', id, '?page=2')
    const third = await portalAs('dispatch@bluelagoon.test', id, '?page=3')
    const last = await portalAs('dispatch@bluelagoon.test', id, '?page=4')
    expect([second, third, last].map((page) => page.visits.rows.length)).toEqual([20, 20, 15])
    const ids = new Set([first, second, third, last].flatMap((page) => page.visits.rows.map((v) => v.id)))
    expect(ids.size).toBe(75)

    // Nonsense is the first page; a page past the end goes to the last one.
    expect((await portalAs('dispatch@bluelagoon.test', id, '?page=abc')).visits.page).toBe(1)
    const { thrown } = await settle(portalAs('dispatch@bluelagoon.test', id, '?page=7'))
    expect(thrown).toHaveRedirect(`/customer/${id}?page=4`)

    const html = render(first)
    expect(html).toContain('Page 1 of 4')
    expect(html).toContain('Older visits')
    expect(html).toMatch(/href="\/customer\/x\?page=2#visits"/)
    expect(html).not.toContain('Newer visits')
    const lastHtml = render(last)
    expect(lastHtml).toContain('Newer visits')
    expect(lastHtml).not.toContain('Older visits')
  })
})

describe('portal page: what it shows', () => {
  it("renders Dana's tiles, tables, gallery and her invoices, with Log out", async () => {
    const data = await portalAs('customer@bluelagoon.test', danaId)
    const html = render(data)
    expect(html).toContain('<h1')
    expect(html).toContain('Dana Whitfield')
    for (const text of [
      'Next visit',
      'Completed visits',
      'Latest chemistry',
      'Balance due',
      'Visit history',
      'Chemistry readings',
      'Photo gallery',
      'Invoices',
      'Opening balance',
      '$240.00',
      'Log out',
    ]) {
      expect(html).toContain(text)
    }
    // Her invoice opens its own page (where "Pay invoice" is); the old "coming soon" wording is gone.
    const invoice = data.invoices.rows[0]
    expect(invoice).toMatchObject({ status: 'Past due', amountDue: '$240.00' })
    expect(html).toContain(`href="/customer/${danaId}/invoices/${invoice?.id}"`)
    expect(html).not.toMatch(/coming soon/i)
    // Visits and readings are cards (no table to scroll sideways on a phone), each with its labeled facts.
    expect(html).not.toContain('<table')
    expect(html).toMatch(/<dt[^>]*>Technician<\/dt>/)
    expect(html).toMatch(/<dt[^>]*>Chemistry<\/dt>/)
    expect(html).not.toContain('Staff preview')
    // Thumbnails carry alt text and link to the full-size photo.
    const photo = data.gallery[0]
    expect(photo).toBeDefined()
    const thumb = (photo?.thumb ?? '').replaceAll('&', '&amp;')
    const full = (photo?.full ?? '').replaceAll('&', '&amp;')
    expect(html).toContain(`<a href="${full}"`)
    expect(html).toMatch(
      new RegExp(`<img src="${thumb.replace(/[?.]/g, '\\$&')}" alt="(Before|After), the visit on [^"]+"`),
    )
    // One card per reading (12).
    expect(data.readings).toHaveLength(PORTAL_READINGS_LIMIT)
    expect(html.match(/>Alkalinity<\/dt>/g)).toHaveLength(PORTAL_READINGS_LIMIT)
  })

  it('shows staff a preview banner and no Log out', async () => {
    const html = render(await portalAs('dispatch@bluelagoon.test', danaId))
    expect(html).toContain('Staff preview')
    expect(html).not.toContain('Log out')
  })

  it("shows the empty states and 'All settled' for a customer with no visits and nothing due", async () => {
    const customer = await addTestCustomer(blue, { customerName: 'Brand New', address: '5 Fresh Start Ct' })
    const data = await portalAs('owner@bluelagoon.test', customer.id)
    expect(data.balance.settled).toBe(true)
    const html = render(data)
    for (const text of ['No visits yet.', 'No chemistry readings yet.', 'No photos uploaded yet.', 'All settled']) {
      expect(html).toContain(text)
    }
    expect(html).toContain('No visit scheduled')
    expect(html).not.toContain('$0.00')
  })
})

describe('portal pages: what the company keeps to itself (docs/architecture.md "Shared rules")', () => {
  it('never carries the gate code or access notes, in the customer’s own view or a staff preview', async () => {
    const gateCode = 'GATE-4321'
    const accessNotes = 'Key under the third flowerpot'
    await db()
      .update(serviceLocations)
      .set({ gateCode, accessNotes, dogOnSite: true })
      .where(and(eq(serviceLocations.companyId, blue), eq(serviceLocations.customerId, danaId)))
    const [visit] = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(and(eq(visits.customerId, danaId), isNotNull(visits.completedAt)))
      .limit(1)
    for (const email of ['customer@bluelagoon.test', 'owner@bluelagoon.test']) {
      const cookie = await cookieOf(email)
      const portal = await portalAs(email, danaId)
      const report = await visitLoader({
        request: pageRequest(`/customer/${danaId}/visits/${visit?.id}`, cookie),
        params: { customerId: danaId, visitId: visit?.id ?? '' },
        context: {},
      } as never)
      expect(report.address.length).toBeGreaterThan(0)
      for (const data of [portal, report]) {
        const text = JSON.stringify(data)
        expect(text, email).not.toContain(gateCode)
        expect(text, email).not.toContain(accessNotes)
        expect(text, email).not.toMatch(/gateCode|accessNotes|dogOnSite|minutesOnSite/)
      }
    }
  })
})
