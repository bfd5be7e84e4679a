// The dispatcher's unassigned rows as the server draws them: no technician picker in any row (each listed the whole
// team), and an "Assign" for each that, before the page's script runs, opens the visit's page (which has the form).
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import { DispatcherDashboard } from './dispatcher-dashboard'
import type { DispatcherDashboardData } from './dispatcher-dashboard.server'

const TECHNICIANS = Array.from({ length: 50 }, (_, i) => ({ id: `tech-${i}`, name: `Technician ${i}` }))

function unassigned(i: number): DispatcherDashboardData['unassigned'][number] {
  return {
    id: `visit-${i}`,
    customerName: `Customer ${i}`,
    address: `${i} Palm Ave`,
    scheduled: 'Tue, Dec 1, 9:00 AM',
    scheduledInput: '2026-12-01T09:00',
    version: `@2026-12-01T14:00:00.000Z`,
    status: 'Scheduled',
  } as DispatcherDashboardData['unassigned'][number]
}

let shown: DispatcherDashboardData

function Page() {
  return createElement(DispatcherDashboard, { data: shown })
}

function draw(data: DispatcherDashboardData) {
  shown = data
  const Stub = createRoutesStub([{ path: '/app', Component: Page }])
  return renderToString(createElement(Stub, { initialEntries: ['/app'] })).replaceAll('<!-- -->', '')
}

describe('the dispatcher dashboard, drawn on the server', () => {
  it('gives each unassigned row an "Assign" to its visit page, and draws the team once (the create form)', () => {
    const data = {
      counts: { unassigned: 10, unassignedThisWeek: 10, today: 0, overdue: 0, skippedThisWeek: 0 },
      createVisitKey: '00000000-0000-4000-8000-000000000000',
      defaultSchedule: '2026-12-01T10:00',
      technicians: TECHNICIANS,
      unassignedPage: { page: 1, pageCount: 1, first: 1, last: 10, total: 10 },
      unassigned: Array.from({ length: 10 }, (_, i) => unassigned(i)),
      routes: [],
      recent: [],
    } as unknown as DispatcherDashboardData
    const html = draw(data)
    for (let i = 0; i < 10; i++) {
      expect(html).toMatch(
        new RegExp(
          `<a class="[^"]*btn[^"]*" href="/app/visits/visit-${i}"[^>]*>Assign<span class="sr-only"> Customer ${i}</span></a>`,
        ),
      )
    }
    expect(html).not.toContain('Technician for')
    // One picker on the page (the create form's), not one per row.
    expect(html.match(/<select/g)).toHaveLength(1)
    expect(html.match(/>Technician 49</g)).toHaveLength(1)
  })
})
