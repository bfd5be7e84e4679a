// The one "Assign and reschedule" form as both places draw it: the visit page's (labels shown, posts to the page)
// and a dispatcher dashboard row's (labels read out with the customer's name, posts the visit's id through a fetcher).
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub, useFetcher } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { AssignVisitReply } from './assign-visit.server'
import { AssignVisitForm } from './assign-visit-form'
import { ASSIGN_MESSAGES } from './assign-visit-schema'

const VISIT = {
  id: 'visit-1',
  version: 'tech-1@2026-12-01T14:00:00.000Z',
  technicianId: 'tech-1',
  scheduledInput: '2026-12-01T09:00',
}
const TECHNICIANS = [
  { id: 'tech-1', name: 'Tyler Brooks' },
  { id: 'tech-2', name: 'Maya Flores' },
]

function draw(Component: () => ReturnType<typeof AssignVisitForm>) {
  const Stub = createRoutesStub([{ path: '/', Component }])
  return renderToString(createElement(Stub, { initialEntries: ['/'] })).replaceAll('<!-- -->', '')
}

function refused(fields: Partial<AssignVisitReply>): AssignVisitReply {
  return { intent: 'assign', visitId: VISIT.id, ok: null, error: null, result: { status: 'error' }, ...fields }
}

/** A dashboard row: its own fetcher, as UnassignedRow makes one. */
function Row() {
  const fetcher = useFetcher<AssignVisitReply>()
  return createElement(AssignVisitForm, {
    visit: { id: 'visit-2', version: '@2026-12-01T14:00:00.000Z', scheduledInput: '2026-12-01T09:00' },
    technicians: TECHNICIANS,
    row: { customerName: 'Dana Whitfield', fetcher },
  })
}

describe('AssignVisitForm', () => {
  it("on the visit page: labeled Technician and Scheduled for, the visit's values, its version", () => {
    const html = draw(() => createElement(AssignVisitForm, { visit: VISIT, technicians: TECHNICIANS }))
    expect(html).toContain('name="intent" value="assign"')
    expect(html).toContain(`name="version" value="${VISIT.version}"`)
    expect(html).not.toContain('name="visitId"')
    expect(html).toMatch(/<label[^>]*>Technician<\/label>/)
    expect(html).toMatch(/<label[^>]*>Scheduled for<\/label>/)
    expect(html).toMatch(/<option value="">Unassigned<\/option>/)
    expect(html).toMatch(/<option value="tech-1" selected="">Tyler Brooks<\/option>/)
    expect(html).toMatch(/type="datetime-local"[^>]*name="scheduledAt"|name="scheduledAt"[^>]*type="datetime-local"/)
    expect(html).toContain('value="2026-12-01T09:00"')
    expect(html).toContain('required')
  })

  it('shows a field error at its field and a refusal of the save in the alert', () => {
    const atField = draw(() =>
      createElement(AssignVisitForm, {
        visit: VISIT,
        technicians: TECHNICIANS,
        reply: refused({
          error: ASSIGN_MESSAGES.schedule,
          result: { status: 'error', error: { scheduledAt: [ASSIGN_MESSAGES.schedule] } },
        }),
      }),
    )
    expect(atField).toMatch(new RegExp(`<p id="[^"]*scheduledAt-error"[^>]*>${ASSIGN_MESSAGES.schedule}</p>`))
    expect(atField).not.toContain('role="alert"')
    const conflict = draw(() =>
      createElement(AssignVisitForm, {
        visit: VISIT,
        technicians: TECHNICIANS,
        reply: refused({
          error: ASSIGN_MESSAGES.conflict,
          result: { status: 'error', error: { '': [ASSIGN_MESSAGES.conflict] } },
        }),
      }),
    )
    expect(conflict).toMatch(/role="alert"[^>]*>Someone else changed this visit just now/)
    const saved = draw(() =>
      createElement(AssignVisitForm, {
        visit: VISIT,
        technicians: TECHNICIANS,
        reply: {
          intent: 'assign',
          visitId: VISIT.id,
          ok: 'Visit updated.',
          error: null,
          result: { status: 'success' },
        },
      }),
    )
    expect(saved).toMatch(/role="status"[^>]*>Visit updated\.<\/div>/)
  })

  it("in a dashboard row: labels read out with the customer's name, the visit's id posted", () => {
    const html = draw(Row)
    expect(html).toContain('name="visitId" value="visit-2"')
    expect(html).toMatch(/<label[^>]*class="sr-only"[^>]*>Technician for Dana Whitfield<\/label>/)
    expect(html).toMatch(/<label[^>]*class="sr-only"[^>]*>Scheduled time for Dana Whitfield<\/label>/)
    expect(html).not.toContain('selected')
  })
})
