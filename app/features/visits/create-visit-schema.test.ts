import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { browserCreateVisitSchema, CREATE_VISIT_MESSAGES, CreateVisitSchema } from './create-visit-schema'

const CUSTOMER = '0b7c6f9e-3c1a-4d2b-9e8f-1a2b3c4d5e6f'
const FILLED = {
  customerId: CUSTOMER,
  customerName: 'Dana Whitfield',
  address: '12 Palm Ave, Tampa, FL',
  scheduledAt: '2026-12-01T09:00',
}

function formDataOf(fields: Record<string, string>) {
  const formData = new FormData()
  for (const [name, value] of Object.entries(fields)) formData.set(name, value)
  return formData
}

/** The messages a refused form gets, by field (null when accepted). */
function errorsOf(
  fields: Record<string, string>,
  schema: ReturnType<typeof browserCreateVisitSchema> = CreateVisitSchema,
) {
  const submission = parseWithZod(formDataOf(fields), { schema })
  return submission.status === 'success' ? null : submission.error
}

describe('CreateVisitSchema', () => {
  it('takes the fields trimmed, a blank location and technician as none, the time as typed', () => {
    const submission = parseWithZod(
      formDataOf({ ...FILLED, customerName: '  Dana  ', locationId: '', technicianId: '', idempotencyKey: 'x' }),
      { schema: CreateVisitSchema },
    )
    expect(submission.status === 'success' && submission.value).toEqual({
      ...FILLED,
      customerName: 'Dana',
      locationId: null,
      technicianId: null,
      appointment: false,
    })
  })

  it('takes "Fixed appointment" checked as an appointment at the scheduled time', () => {
    const submission = parseWithZod(formDataOf({ ...FILLED, appointment: 'on' }), { schema: CreateVisitSchema })
    expect(submission.status === 'success' && submission.value.appointment).toBe(true)
  })

  it("answers each missing field with the spec's message, at its field", () => {
    expect(errorsOf({ ...FILLED, customerId: '' })).toEqual({ customerId: [CREATE_VISIT_MESSAGES.customer] })
    expect(errorsOf({ ...FILLED, customerId: '   ' })).toEqual({ customerId: [CREATE_VISIT_MESSAGES.customer] })
    for (const field of ['customerName', 'address', 'scheduledAt']) {
      for (const blank of ['', '   ']) {
        expect(errorsOf({ ...FILLED, [field]: blank })).toEqual({ [field]: [CREATE_VISIT_MESSAGES.required] })
      }
    }
  })

  it('refuses a schedule that is not a date and time, and overlong text', () => {
    expect(errorsOf({ ...FILLED, scheduledAt: 'tomorrow' })).toEqual({ scheduledAt: [CREATE_VISIT_MESSAGES.required] })
    expect(errorsOf({ ...FILLED, customerName: 'x'.repeat(201) })).toEqual({
      customerName: ['Use at most 200 characters.'],
    })
    expect(errorsOf({ ...FILLED, address: 'x'.repeat(301) })).toEqual({ address: ['Use at most 300 characters.'] })
  })
})

describe('browserCreateVisitSchema', () => {
  it('lets a typed name not chosen from the list through: the server looks it up', () => {
    const typed = { ...FILLED, customerId: '', customerQuery: 'dana' }
    expect(errorsOf(typed, browserCreateVisitSchema(formDataOf(typed)))).toBeNull()
  })

  it('asks to select a customer when nothing is typed or chosen, and checks the other fields as the server does', () => {
    const empty = { ...FILLED, customerId: '', customerQuery: '  ', address: '' }
    expect(errorsOf(empty, browserCreateVisitSchema(formDataOf(empty)))).toEqual({
      customerId: [CREATE_VISIT_MESSAGES.customer],
      address: [CREATE_VISIT_MESSAGES.required],
    })
    const typed = { ...FILLED, customerId: '', customerQuery: 'dana', scheduledAt: '' }
    expect(errorsOf(typed, browserCreateVisitSchema(formDataOf(typed)))).toEqual({
      scheduledAt: [CREATE_VISIT_MESSAGES.required],
    })
  })
})
