// The dispatcher dashboard's "Create a visit" card as the page draws it, fresh and after each kind of answer.
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { CreateVisitReply } from './create-visit.server'
import { CreateVisitCard } from './create-visit-form'
import { CREATE_VISIT_MESSAGES } from './create-visit-schema'

const KEY = '6f1c2b3a-4d5e-4f60-8a9b-0c1d2e3f4a5b'
const TECHNICIANS = [
  { id: 'tech-1', name: 'Tyler Brooks' },
  { id: 'tech-2', name: 'Maya Flores' },
]

function Card() {
  return createElement(CreateVisitCard, {
    createVisitKey: KEY,
    defaultSchedule: '2026-12-01T10:00',
    technicians: TECHNICIANS,
  })
}

/** The card on a page whose last post answered `reply`. */
function draw(reply?: CreateVisitReply) {
  const Stub = createRoutesStub([{ id: 'dashboard', path: '/', Component: Card }])
  const hydrationData = reply ? { actionData: { dashboard: reply } } : undefined
  return renderToString(createElement(Stub, { initialEntries: ['/'], hydrationData })).replaceAll('<!-- -->', '')
}

function refused(error: string, result: CreateVisitReply['result']): CreateVisitReply {
  return { intent: 'create-visit', ok: null, error, result }
}

/** How many times `text` is on the page. */
const count = (html: string, text: string) => html.split(text).length - 1

describe('CreateVisitCard', () => {
  it('draws the labeled fields, the suggested time, the technicians and the idempotency key', () => {
    const html = draw()
    expect(html).toContain('name="intent" value="create-visit"')
    expect(html).toContain(`name="idempotencyKey" value="${KEY}"`)
    expect(html).toMatch(/<label[^>]*>Customer<\/label>/)
    expect(html).toContain('name="customerQuery"')
    expect(html).toContain('name="customerId"')
    expect(html).toContain('name="locationId"')
    expect(html).toMatch(/<label[^>]*>Customer name<\/label><input[^>]*name="customerName"/)
    expect(html).toMatch(/<label[^>]*>Service address<\/label><input[^>]*name="address"/)
    expect(html).toMatch(/<label[^>]*>Scheduled for<\/label><input[^>]*type="datetime-local"/)
    expect(html).toContain('value="2026-12-01T10:00"')
    expect(html).toMatch(/<label[^>]*>Technician \(optional\)<\/label>/)
    expect(html).toMatch(/<option value="">Unassigned<\/option><option value="tech-1">Tyler Brooks/)
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Create visit<\/button>/)
    expect(html).not.toContain('role="alert"')
    expect(html).not.toContain('role="status"')
  })

  it('shows each refused field’s message once, at its field', () => {
    const html = draw(
      refused(CREATE_VISIT_MESSAGES.customer, {
        status: 'error',
        error: { customerId: [CREATE_VISIT_MESSAGES.customer], scheduledAt: [CREATE_VISIT_MESSAGES.required] },
      }),
    )
    expect(html).toMatch(new RegExp(`<p id="create-visit-customerId-error"[^>]*>${CREATE_VISIT_MESSAGES.customer}</p>`))
    expect(html).toMatch(
      new RegExp(`<p id="create-visit-scheduledAt-error"[^>]*>${CREATE_VISIT_MESSAGES.required}</p>`),
    )
    expect(count(html, CREATE_VISIT_MESSAGES.customer)).toBe(1)
    expect(count(html, CREATE_VISIT_MESSAGES.required)).toBe(1)
    expect(html).toMatch(/aria-invalid="true"[^>]*aria-describedby="create-visit-scheduledAt-error"/)
    expect(html).not.toContain('role="alert"')
  })

  it('shows a refusal of the whole save in the alert, and a success with a link to the new visit', () => {
    const failed = draw(
      refused(CREATE_VISIT_MESSAGES.refused, { status: 'error', error: { '': [CREATE_VISIT_MESSAGES.refused] } }),
    )
    expect(failed).toMatch(/role="alert"[^>]*>Unable to create visit\.<\/div>/)
    expect(count(failed, CREATE_VISIT_MESSAGES.refused)).toBe(1)
    const created = draw({
      intent: 'create-visit',
      visitId: 'visit-9',
      ok: CREATE_VISIT_MESSAGES.created,
      error: null,
      result: { initialValue: null },
    })
    expect(created).toMatch(
      /role="status"[^>]*>Visit created\. <a [^>]*href="\/app\/visits\/visit-9"[^>]*>Open it<\/a><\/div>/,
    )
    // The emptied form suggests the time again.
    expect(created).toContain('value="2026-12-01T10:00"')
  })

  it('ignores the answer to another form of the page', () => {
    const html = draw({
      intent: 'assign',
      ok: null,
      error: 'Unable to save changes to this visit.',
    } as unknown as CreateVisitReply)
    expect(html).not.toContain('Unable to save changes to this visit.')
  })
})
