// The "Change prices" route's server part (OPERATIONS §7): the page's data, and its two answers — "Preview"
// (nothing written) and "Apply" (written once per idempotency key, then back to the page with the outcome).
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { monthOf } from '~/billing/invoice-draft'
import { ANY, PRICE_MESSAGES, UNASSIGNED } from '~/billing/price-change'
import { readIdempotencyKey } from '~/models/idempotency.server'
import {
  applyPriceChange,
  listPriceChanges,
  type PriceChangePreview,
  previewPriceChange,
} from '~/models/price-change.server'
import { isCompanyTechnician, listTechnicians } from '~/models/profile.server'
import { addDays, localDateAt } from '~/schedule/local-date'
import { redirectWithFlash } from '~/utils/flash.server'
import { failureStatus } from '~/utils/result'
import { PriceChangeSchema } from './price-change-schema'

export const PRICES_PATH = '/app/billing/prices'

/** The page: the company's technicians for the filter, the latest changes, and a fresh key for "Apply". */
export async function loadPricesPage(companyId: string, timezone: string, now = new Date()) {
  const [technicians, history] = await Promise.all([listTechnicians(companyId), listPriceChanges({ companyId })])
  const today = localDateAt(now, timezone)
  return {
    technicians: technicians.map((tech) => ({ id: tech.id, name: tech.fullName ?? tech.email ?? 'Technician' })),
    history,
    today,
    // The usual choice: the first of next month.
    defaultEffectiveOn: addDays(monthOf(today).end, 1),
    formKey: crypto.randomUUID(),
  }
}

type Reply = { priceChange: { result: SubmissionResult<string[]>; preview: PriceChangePreview | null } }

/** "Preview" or "Apply" (the button pressed is the intent). */
export async function priceChangeAction(
  { companyId, userId }: { companyId: string; userId: string },
  formData: FormData,
) {
  const submission = parseWithZod(formData, { schema: PriceChangeSchema })
  const answer = (body: Reply['priceChange'], status = 200) => data({ priceChange: body } satisfies Reply, status)
  if (submission.status !== 'success') return answer({ result: submission.reply(), preview: null }, 400)
  const { filter, increase, effectiveOn, notify } = submission.value
  if (filter.technician !== ANY && filter.technician !== UNASSIGNED) {
    if (!(await isCompanyTechnician(companyId, filter.technician))) {
      return answer(
        { result: submission.reply({ fieldErrors: { technician: [PRICE_MESSAGES.technician] } }), preview: null },
        400,
      )
    }
  }
  const criteria = { filter, increase, effectiveOn }
  const refused = (failure: { message: string; field?: string }, status: number, preview: PriceChangePreview | null) =>
    answer(
      {
        result: failure.field
          ? submission.reply({ fieldErrors: { [failure.field]: [failure.message] } })
          : submission.reply({ formErrors: [failure.message] }),
        preview,
      },
      status,
    )

  if (formData.get('intent') !== 'apply') {
    const previewed = await previewPriceChange({ companyId, criteria })
    if (!previewed.ok) return refused(previewed, failureStatus(previewed), null)
    return answer({ result: submission.reply(), preview: previewed.preview })
  }

  const idempotency = readIdempotencyKey(formData)
  if (!idempotency.ok) return refused(idempotency, 400, null)
  const fingerprint = String(formData.get('fingerprint') ?? '')
  if (!fingerprint) return refused({ message: 'Preview the change before applying it.' }, 400, null)
  const applied = await applyPriceChange({
    companyId,
    userId,
    criteria,
    fingerprint,
    notify,
    key: idempotency.key,
  })
  if (!applied.ok) {
    const preview = 'preview' in applied ? (applied.preview as PriceChangePreview) : null
    return refused(applied, failureStatus(applied), preview)
  }
  const told =
    applied.customersNotified > 0
      ? ` ${applied.customersNotified === 1 ? '1 customer' : `${applied.customersNotified} customers`} will get an email.`
      : ''
  return redirectWithFlash(PRICES_PATH, `${PRICE_MESSAGES.applied(applied.planCount, applied.firstMonthLabel)}${told}`)
}
