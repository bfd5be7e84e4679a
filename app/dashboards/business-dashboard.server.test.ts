// The owner's and the admin's counts against a hand count: completions this month and this week (from Monday 00:00,
// docs/product.md "Easy to get wrong"), in the company's timezone — here Los Angeles, across the end of daylight saving
// time on Sunday 1 November 2026. The money figures are summed from invoices, payments and plans:
// billing-figures.server.test.ts.
import { createContext, createElement, type FunctionComponent, useContext } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, emailOutbox, inventoryItems, visits } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { AdminDashboard, OwnerDashboard } from './business-dashboard'
import { loadAdminDashboard, loadOwnerDashboard } from './business-dashboard.server'

const LA = 'America/Los_Angeles'
let pacific: string
let other: string

async function company(name: string, timezone: string) {
  const [row] = await db().insert(companies).values({ name, timezone }).returning({ id: companies.id })
  return row?.id as string
}

async function addVisits(companyId: string, list: Array<{ scheduledAt: string; completedAt?: string }>) {
  const customer = await addTestCustomer(companyId, { customerName: 'Ana Soto', address: '1 Palm Dr' })
  await db()
    .insert(visits)
    .values(
      list.map((visit, index) => ({
        companyId,
        customerId: customer.id,
        locationId: customer.locationId,
        customerName: `Visit ${index + 1}`,
        address: '1 Palm Dr',
        scheduledAt: new Date(visit.scheduledAt),
        completedAt: visit.completedAt ? new Date(visit.completedAt) : null,
      })),
    )
}

/** Completions placed on the boundaries; the comment says when each is in Los Angeles. */
const COMPLETIONS = [
  '2026-10-31T18:00:00Z', // Sat 31 Oct 11:00 PDT — October
  '2026-11-01T06:59:00Z', // Sat 31 Oct 23:59 PDT — October, one minute before the month
  '2026-11-01T07:00:30Z', // Sun 1 Nov 00:00:30 PDT — the month's first half-minute
  '2026-11-15T20:00:00Z', // Sun 15 Nov 12:00 PST — mid-month, an earlier week
  '2026-11-23T07:59:00Z', // Sun 22 Nov 23:59 PST — the minute before this week
  '2026-11-23T08:00:30Z', // Mon 23 Nov 00:00:30 PST — just after midnight: this week
  '2026-11-24T17:00:00Z', // Tue 24 Nov 09:00 PST — this week
  '2026-12-01T07:59:00Z', // Mon 30 Nov 23:59 PST — the last minute of November
  '2026-12-01T08:00:00Z', // Tue 1 Dec 00:00 PST — December
]

beforeAll(async () => {
  pacific = await company('Pacific Pools', LA)
  other = await company('Elsewhere Pools', 'UTC')
  const completed = COMPLETIONS.map((completedAt) => ({ scheduledAt: completedAt, completedAt }))
  const open = [
    { scheduledAt: '2026-11-20T17:00:00Z' }, // overdue by "now" below
    { scheduledAt: '2026-11-21T17:00:00Z' }, // overdue
    ...Array.from({ length: 6 }, (_, i) => ({ scheduledAt: `2026-12-0${i + 2}T17:00:00Z` })),
  ]
  await addVisits(pacific, [...completed, ...open])
  // The other company completes visits at the same instants: never counted for Pacific.
  await addVisits(other, completed)
  await db()
    .insert(inventoryItems)
    .values([
      { companyId: pacific, name: 'Liquid chlorine', sku: 'CL-1', qty: 10, priceCents: 1234 },
      { companyId: pacific, name: 'pH down', sku: 'PH-1', qty: 3, priceCents: 999 },
      { companyId: other, name: 'Salt', sku: 'S-1', qty: 100, priceCents: 500 },
    ])
})

describe("owner: this month's completions", () => {
  it('in late November counts 1 Nov 00:00:30 to 30 Nov 23:59, and nothing of October or December', async () => {
    // Now: Mon 30 Nov 23:59:30 PST, the last half-minute of November.
    const data = await loadOwnerDashboard({ companyId: pacific, timezone: LA, now: new Date('2026-12-01T07:59:30Z') })
    // 1 Nov 00:00:30, 15 Nov, 22 Nov 23:59, 23 Nov 00:00:30, 24 Nov, 30 Nov 23:59 = 6
    expect(data.completedThisMonth).toBe(6)
    // No invoices, payments or plans: every money figure is zero — nothing is estimated per visit any more.
    expect(Object.values(data.money).filter((value) => typeof value === 'string')).toEqual(Array(6).fill('$0.00'))
  })

  it('on 1 December just after midnight counts only December', async () => {
    const data = await loadOwnerDashboard({ companyId: pacific, timezone: LA, now: new Date('2026-12-01T08:00:30Z') })
    expect(data.completedThisMonth).toBe(1)
  })

  it('shows the pipeline (next 5 open, earliest first), open and overdue counts and inventory value', async () => {
    const data = await loadOwnerDashboard({ companyId: pacific, timezone: LA, now: new Date('2026-11-22T20:00:00Z') })
    expect(data.open).toBe(8)
    expect(data.overdue).toBe(2)
    expect(data.pipeline).toHaveLength(5)
    expect(data.pipeline.map((visit) => visit.customerName)).toEqual([
      'Visit 10',
      'Visit 11',
      'Visit 12',
      'Visit 13',
      'Visit 14',
    ])
    expect(data.pipeline[0]?.status).toBe('Overdue')
    expect(data.recent.map((visit) => visit.customerName)).toEqual([
      'Visit 9',
      'Visit 8',
      'Visit 7',
      'Visit 6',
      'Visit 5',
    ])
    // 10 × $12.34 + 3 × $9.99; the other company's salt is not ours.
    expect(data.inventoryValue).toBe('$153.37')
    expect(data.lowStock).toBe(1)
  })
})

describe('admin: completed this week (from Monday 00:00)', () => {
  it('on Monday at noon counts the completion just after midnight, not the one a minute before', async () => {
    const data = await loadAdminDashboard({ companyId: pacific, timezone: LA, now: new Date('2026-11-23T20:00:00Z') })
    // Mon 23 Nov 00:00:30 and Tue 24 Nov 09:00 (this week runs Mon 23 – Sun 29 Nov).
    expect(data.completedThisWeek).toBe(2)
    expect(data.invoicedThisMonth).toBe('$0.00')
    expect(data.upcoming).toHaveLength(6)
    expect(data.recent).toHaveLength(5)
    expect(data.lowStock.map((item) => [item.name, item.qty])).toEqual([['pH down', 3]])
  })

  it('a week later counts that week only (30 Nov 23:59 and 1 Dec 00:00)', async () => {
    const data = await loadAdminDashboard({ companyId: pacific, timezone: LA, now: new Date('2026-12-02T20:00:00Z') })
    expect(data.completedThisWeek).toBe(2)
  })
})

describe("today's visits, overdue and skipped this week", () => {
  it('counts open visits only today, open visits from earlier days as overdue, and this week’s skips from Monday', async () => {
    const lagoon = await company('Count Pools', LA)
    const customer = await addTestCustomer(lagoon, { customerName: 'Cy Count', address: '2 Count Ct' })
    // Now: Wed 25 Nov 12:00 PST; this week runs Mon 23 – Sun 29 Nov.
    const now = new Date('2026-11-25T20:00:00Z')
    const visitList: Array<{ at: string; completed?: boolean; canceled?: boolean; skip?: string }> = [
      { at: '2026-11-25T17:00:00Z' }, // today 09:00, open (earlier than now: today's, not overdue)
      { at: '2026-11-25T23:00:00Z' }, // today 15:00, open
      { at: '2026-11-25T18:00:00Z', completed: true }, // today, done: not work to do
      { at: '2026-11-25T19:00:00Z', canceled: true, skip: 'Locked gate' }, // today, skipped
      { at: '2026-11-25T19:30:00Z', canceled: true }, // today, canceled
      { at: '2026-11-24T17:00:00Z' }, // yesterday, open: overdue
      { at: '2026-11-18T17:00:00Z' }, // last week, open: overdue
      { at: '2026-11-23T08:00:00Z', canceled: true, skip: 'Weather' }, // Mon 23 Nov 00:00 PST: this week
      { at: '2026-11-30T07:59:00Z', canceled: true, skip: 'Dog in yard' }, // Sun 29 Nov 23:59 PST: this week
      { at: '2026-11-23T07:59:00Z', canceled: true, skip: 'Weather' }, // Sun 22 Nov 23:59 PST: last week
      { at: '2026-11-30T08:00:00Z', canceled: true, skip: 'Weather' }, // Mon 30 Nov: next week
    ]
    await db()
      .insert(visits)
      .values(
        visitList.map((visit, index) => ({
          companyId: lagoon,
          customerId: customer.id,
          locationId: customer.locationId,
          customerName: `Count ${index + 1}`,
          address: '2 Count Ct',
          scheduledAt: new Date(visit.at),
          completedAt: visit.completed ? now : null,
          canceledAt: visit.canceled ? now : null,
          skipReason: visit.skip ?? null,
        })),
      )
    const admin = await loadAdminDashboard({ companyId: lagoon, timezone: LA, now })
    const owner = await loadOwnerDashboard({ companyId: lagoon, timezone: LA, now })
    expect({ today: admin.today, overdue: admin.overdue, skipped: admin.skippedThisWeek, open: admin.open }).toEqual({
      today: 2,
      overdue: 2,
      skipped: 3,
      open: 4,
    })
    expect({ overdue: owner.overdue, skipped: owner.skippedThisWeek }).toEqual({ overdue: 2, skipped: 3 })

    for (const html of [render(AdminDashboard, admin), render(OwnerDashboard, owner)]) {
      expect(html).toMatch(/<dt[^>]*>Overdue<\/dt><dd[^>]*>2<\/dd>/)
      expect(html).toMatch(/<dt[^>]*>Skipped this week<\/dt><dd[^>]*>3<\/dd>/)
    }
    expect(render(AdminDashboard, admin)).toMatch(/<dt[^>]*>Today&#x27;s visits<\/dt><dd[^>]*>2<\/dd>/)
  })
})

describe('emails that could not be delivered', () => {
  it('both dashboards list the company’s emails the outbox gave up on this past week, and no other company’s', async () => {
    const now = new Date('2026-11-22T20:00:00Z')
    const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3_600_000)
    const email = (companyId: string | null, to: string, createdAt: Date, status: 'failed' | 'pending' | 'sent') => ({
      companyId,
      to,
      subject: `Your visit report for ${to}`,
      html: '<p>report</p>',
      text: 'report',
      status,
      createdAt,
      lastError: status === 'failed' ? `550 5.1.1 <${to}>: mailbox unavailable` : null,
    })
    await db()
      .insert(emailOutbox)
      .values([
        email(pacific, 'ana@typo.example', daysAgo(2), 'failed'),
        email(pacific, 'bo@typo.example', daysAgo(3), 'failed'),
        // Given up on more than a week ago: no longer shown.
        email(pacific, 'old@typo.example', daysAgo(10), 'failed'),
        // Still being retried, or delivered: not a failure.
        email(pacific, 'later@example.com', daysAgo(0.5), 'pending'),
        email(pacific, 'fine@example.com', daysAgo(2), 'sent'),
        // Another company's, and an account email of no company.
        email(other, 'theirs@typo.example', daysAgo(2), 'failed'),
        email(null, 'signup@typo.example', daysAgo(2), 'failed'),
      ])
    const expected = {
      total: 2,
      emails: [
        {
          id: expect.any(String),
          to: 'ana@typo.example',
          subject: 'Your visit report for ana@typo.example',
          lastError: '550 5.1.1 <ana@typo.example>: mailbox unavailable',
        },
        {
          id: expect.any(String),
          to: 'bo@typo.example',
          subject: 'Your visit report for bo@typo.example',
          lastError: '550 5.1.1 <bo@typo.example>: mailbox unavailable',
        },
      ],
    }
    const owner = await loadOwnerDashboard({ companyId: pacific, timezone: LA, now })
    const admin = await loadAdminDashboard({ companyId: pacific, timezone: LA, now })
    expect(owner.undeliveredEmails).toEqual(expected)
    expect(admin.undeliveredEmails).toEqual(expected)
    const theirs = await loadOwnerDashboard({ companyId: other, timezone: 'UTC', now })
    expect(theirs.undeliveredEmails.emails.map((e) => e.to)).toEqual(['theirs@typo.example'])

    // The notice: how many, and for each the recipient, the subject and the last error.
    for (const html of [render(OwnerDashboard, owner), render(AdminDashboard, admin)]) {
      expect(html).toContain('2 emails could not be delivered')
      for (const to of ['ana@typo.example', 'bo@typo.example']) {
        expect(html).toContain(`>${to}</span>: “Your visit report for ${to}”`)
        expect(html).toContain(`Last error: 550 5.1.1 &lt;${to}&gt;: mailbox unavailable`)
      }
      expect(html).not.toContain('theirs@typo.example')
    }
    expect(render(OwnerDashboard, theirs)).toContain('1 email could not be delivered')
    const nothingFailed = await loadOwnerDashboard({ companyId: pacific, timezone: LA, now: daysAgo(-30) })
    expect(render(OwnerDashboard, nothingFailed)).not.toContain('could not be delivered')
  })
})

// The dashboards use forms and fetchers, which need a data router around them; the page and its data reach the
// stub's route through context so the stub itself is defined once.
const PageContext = createContext<{ Page: FunctionComponent<{ data: never }>; data: unknown } | null>(null)

function DashboardRoute() {
  const page = useContext(PageContext)
  return page ? createElement(page.Page, { data: page.data as never }) : null
}

const Stub = createRoutesStub([{ path: '/app', Component: DashboardRoute }])

/** The page's HTML, without the comments React puts between adjacent text parts. */
function render<T>(Page: FunctionComponent<{ data: T }>, data: T) {
  return renderToString(
    createElement(
      PageContext.Provider,
      { value: { Page: Page as FunctionComponent<{ data: never }>, data } },
      createElement(Stub, { initialEntries: ['/app'] }),
    ),
  ).replaceAll('<!-- -->', '')
}
