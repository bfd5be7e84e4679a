// The dispatcher dashboard's "Create a job" card as the page draws it, fresh and after each kind of answer.
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { CreateJobReply } from './create-job.server'
import { CreateJobCard } from './create-job-form'
import { CREATE_JOB_MESSAGES } from './create-job-schema'

const KEY = '6f1c2b3a-4d5e-4f60-8a9b-0c1d2e3f4a5b'
const TECHNICIANS = [
  { id: 'tech-1', name: 'Tyler Brooks' },
  { id: 'tech-2', name: 'Maya Flores' },
]

function Card() {
  return createElement(CreateJobCard, {
    createJobKey: KEY,
    defaultSchedule: '2026-12-01T10:00',
    technicians: TECHNICIANS,
  })
}

/** The card on a page whose last post answered `reply`. */
function draw(reply?: CreateJobReply) {
  const Stub = createRoutesStub([{ id: 'dashboard', path: '/', Component: Card }])
  const hydrationData = reply ? { actionData: { dashboard: reply } } : undefined
  return renderToString(createElement(Stub, { initialEntries: ['/'], hydrationData })).replaceAll('<!-- -->', '')
}

function refused(error: string, result: CreateJobReply['result']): CreateJobReply {
  return { intent: 'create-job', ok: null, error, result }
}

/** How many times `text` is on the page. */
const count = (html: string, text: string) => html.split(text).length - 1

describe('CreateJobCard', () => {
  it('draws the labelled fields, the suggested time, the technicians and the idempotency key', () => {
    const html = draw()
    expect(html).toContain('name="intent" value="create-job"')
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
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Create job<\/button>/)
    expect(html).not.toContain('role="alert"')
    expect(html).not.toContain('role="status"')
  })

  it('shows each refused field’s message once, at its field', () => {
    const html = draw(
      refused(CREATE_JOB_MESSAGES.customer, {
        status: 'error',
        error: { customerId: [CREATE_JOB_MESSAGES.customer], scheduledAt: [CREATE_JOB_MESSAGES.required] },
      }),
    )
    expect(html).toMatch(new RegExp(`<p id="create-job-customerId-error"[^>]*>${CREATE_JOB_MESSAGES.customer}</p>`))
    expect(html).toMatch(new RegExp(`<p id="create-job-scheduledAt-error"[^>]*>${CREATE_JOB_MESSAGES.required}</p>`))
    expect(count(html, CREATE_JOB_MESSAGES.customer)).toBe(1)
    expect(count(html, CREATE_JOB_MESSAGES.required)).toBe(1)
    expect(html).toMatch(/aria-invalid="true"[^>]*aria-describedby="create-job-scheduledAt-error"/)
    expect(html).not.toContain('role="alert"')
  })

  it('shows a refusal of the whole save in the alert, and a success with a link to the new job', () => {
    const failed = draw(
      refused(CREATE_JOB_MESSAGES.refused, { status: 'error', error: { '': [CREATE_JOB_MESSAGES.refused] } }),
    )
    expect(failed).toMatch(/role="alert"[^>]*>Unable to create job\.<\/div>/)
    expect(count(failed, CREATE_JOB_MESSAGES.refused)).toBe(1)
    const created = draw({
      intent: 'create-job',
      jobId: 'job-9',
      ok: CREATE_JOB_MESSAGES.created,
      error: null,
      result: { initialValue: null },
    })
    expect(created).toMatch(
      /role="status"[^>]*>Job created\. <a [^>]*href="\/app\/jobs\/job-9"[^>]*>Open it<\/a><\/div>/,
    )
    // The emptied form suggests the time again.
    expect(created).toContain('value="2026-12-01T10:00"')
  })

  it('ignores the answer to another form of the page', () => {
    const html = draw({
      intent: 'assign',
      ok: null,
      error: 'Unable to save changes to this job.',
    } as unknown as CreateJobReply)
    expect(html).not.toContain('Unable to save changes to this job.')
  })
})
