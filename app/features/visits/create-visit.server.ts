// The save of "Create a visit" (CreateVisitSchema) from the dispatcher dashboard. The caller has already let the member
// in as one who manages visits. A customer typed but not chosen from the list (a browser without JavaScript posts only
// the text) is looked up here; the typed time is read in the company's timezone; and a retry of the same form (same
// idempotency key) gets the visit the first one created instead of a second one.
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { firstError } from '~/features/forms/first-error'
import { saveOnce } from '~/features/forms/save-once.server'
import { pickCustomers } from '~/models/customer-search.server'
import { createVisit } from '~/models/visit-changes.server'
import { fromZonedInputValue } from '~/utils/dates'
import { failure, success } from '~/utils/result'
import { CREATE_VISIT_INTENT, CREATE_VISIT_MESSAGES, CreateVisitSchema } from './create-visit-schema'

/** `error` is the first message, for callers that read one line; the form shows `result` at its fields. */
export type CreateVisitReply = {
  intent: typeof CREATE_VISIT_INTENT
  visitId?: string
  result: SubmissionResult<string[]>
  ok: string | null
  error: string | null
}

/**
 * The customer a typed name stands for when no match was chosen from the list: the one active customer the text
 * finds, or the one whose name it is exactly. Else none, and the form asks to select a customer.
 */
async function customerFromText(companyId: string, text: string) {
  const query = text.trim()
  if (!query) return null
  const found = await pickCustomers({ companyId, query, limit: 5 })
  if (found.length === 1) return found[0]?.id ?? null
  const exact = found.filter((customer) => customer.customerName.toLowerCase() === query.toLowerCase())
  return exact.length === 1 ? (exact[0]?.id ?? null) : null
}

/** Creates a visit from the dashboard form, once per the form's key; answers with the spec's messages. */
export async function createVisitFromForm(
  { companyId, userId, timezone }: { companyId: string; userId: string; timezone: string },
  formData: FormData,
) {
  const reply = (fields: Omit<CreateVisitReply, 'intent'>, status = 200) =>
    data<CreateVisitReply>({ intent: CREATE_VISIT_INTENT, ...fields }, status)
  const typed = formData.get('customerQuery')
  if (!String(formData.get('customerId') ?? '').trim() && typeof typed === 'string') {
    formData.set('customerId', (await customerFromText(companyId, typed)) ?? '')
  }
  const submission = parseWithZod(formData, { schema: CreateVisitSchema })
  if (submission.status !== 'success') {
    const error = firstError(submission.error, CREATE_VISIT_MESSAGES.refused)
    return reply({ result: submission.reply(), ok: null, error }, 400)
  }
  const scheduledAt = fromZonedInputValue(submission.value.scheduledAt, timezone)
  if (!scheduledAt) {
    const error = CREATE_VISIT_MESSAGES.required
    return reply({ result: submission.reply({ fieldErrors: { scheduledAt: [error] } }), ok: null, error }, 400)
  }
  const created = await saveOnce(
    {
      formData,
      submission,
      companyId,
      userId,
      // A create is about the company; the visit's content (customer, time, technician…) is the body.
      target: companyId,
      action: 'visit.create',
      failedMessage: CREATE_VISIT_MESSAGES.refused,
    },
    async (tx) => {
      const visit = await createVisit({ ...submission.value, companyId, scheduledAt }, tx)
      return visit ? success({ visitId: visit.id }) : failure('invalid', CREATE_VISIT_MESSAGES.refused)
    },
  )
  if (!created.ok) {
    const error = firstError(created.result.error, CREATE_VISIT_MESSAGES.refused)
    return reply({ result: created.result, ok: null, error }, created.status)
  }
  // The form empties for the next visit.
  return reply({
    result: submission.reply({ resetForm: true }),
    visitId: created.visitId,
    ok: CREATE_VISIT_MESSAGES.created,
    error: null,
  })
}
