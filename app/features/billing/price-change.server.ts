// The "Change prices" route's server part (docs/billing.md): the page's data, and its answers — "Preview" (nothing
// written), "Apply" (written once per preview's change id and per idempotency key, then the page shows what changed)
// and "Undo" (a change not yet in effect).
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { monthOf } from '~/billing/invoice-draft'
import { ANY, PRICE_MESSAGES, UNASSIGNED } from '~/billing/price-change'
import { readIdempotencyKey } from '~/models/idempotency.server'
import { applyPriceChange, undoPriceChange } from '~/models/price-change.server'
import { listPriceChanges, priceChangePlans } from '~/models/price-change-history.server'
import { type PriceChangePreview, previewPriceChange } from '~/models/price-change-preview.server'
import { isCompanyTechnician, listTechnicians } from '~/models/profile.server'
import { addDays, localDateAt } from '~/schedule/local-date'
import { redirectWithFlash } from '~/utils/flash.server'
import { isUuid } from '~/utils/ids'
import { failureStatus } from '~/utils/result'
import { PriceChangeSchema } from './price-change-schema'

export const PRICES_PATH = '/app/billing/prices'

/** How many plans of each listed change the page spells out (old → new); the rest are counted. */
const PLANS_SHOWN = 50

/**
 * The page: the company's technicians for the filter, the latest changes (each with its plans, old → new, and
 * whether "Undo" is offered), and a fresh key for "Apply". `?change=<id>` — where "Apply" lands — also shows what
 * that change did; another company's id, or one not a UUID, is a 404.
 */
export async function loadPricesPage(companyId: string, timezone: string, url?: URL, now = new Date()) {
  const today = localDateAt(now, timezone)
  const changeParam = url?.searchParams.get('change') ?? null
  if (changeParam !== null && !isUuid(changeParam)) throw data('Price change not found.', { status: 404 })
  const [technicians, history, shown] = await Promise.all([
    listTechnicians(companyId),
    listPriceChanges({ companyId, today }),
    changeParam ? listPriceChanges({ companyId, today, id: changeParam, limit: 1 }) : Promise.resolve([]),
  ])
  if (changeParam && shown.length === 0) throw data('Price change not found.', { status: 404 })
  const plans = await priceChangePlans({
    companyId,
    priceChangeIds: [...new Set([...shown, ...history].map((change) => change.id))],
  })
  const withPlans = <T extends { id: string }>(change: T) => {
    const own = plans.filter((plan) => plan.priceChangeId === change.id)
    return { ...change, plans: own.slice(0, PLANS_SHOWN), morePlans: Math.max(0, own.length - PLANS_SHOWN) }
  }
  return {
    technicians: technicians.map((tech) => ({ id: tech.id, name: tech.fullName ?? tech.email ?? 'Technician' })),
    history: history.map(withPlans),
    applied: shown[0] ? withPlans(shown[0]) : null,
    timezone,
    today,
    // The usual choice: the first of next month.
    defaultEffectiveOn: addDays(monthOf(today).end, 1),
    formKey: crypto.randomUUID(),
  }
}

type Reply = { priceChange: { result: SubmissionResult<string[]>; preview: PriceChangePreview | null } }

/**
 * "Undo" a change (its id in `changeId`): back to the page with what happened, or the reason it cannot be undone. A
 * change undone after its emails went out says so: the office tells the customers (docs/decisions/038-…).
 */
async function undoAction({ companyId, userId }: { companyId: string; userId: string }, formData: FormData) {
  const changeId = String(formData.get('changeId') ?? '')
  // No change named (a form posted empty): bad input, answered on the page; an unknown one is a 404 below.
  if (!isUuid(changeId)) return data({ undo: { changeId, message: PRICE_MESSAGES.undoWhich } }, 400)
  const undone = await undoPriceChange({ companyId, userId, priceChangeId: changeId })
  if (!undone.ok) {
    if (undone.code === 'not-found') throw data(undone.message, { status: 404 })
    return data({ undo: { changeId, message: undone.message } }, failureStatus(undone))
  }
  const told = undone.customersNotified - undone.noticesWithdrawn
  const parts = [PRICE_MESSAGES.undone(undone.planCount)]
  if (undone.noticesWithdrawn > 0) parts.push(PRICE_MESSAGES.undoneWithdrawn(undone.noticesWithdrawn))
  if (told > 0) parts.push(PRICE_MESSAGES.undoneTold)
  return redirectWithFlash(PRICES_PATH, parts.join(' '))
}

/** "Preview", "Apply" or "Undo" (the button pressed is the intent). */
export async function priceChangeAction(
  { companyId, userId }: { companyId: string; userId: string },
  formData: FormData,
) {
  if (formData.get('intent') === 'undo') return undoAction({ companyId, userId }, formData)
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
  const changeId = String(formData.get('changeId') ?? '')
  if (!fingerprint || !isUuid(changeId))
    return refused({ message: 'Preview the change before applying it.' }, 400, null)
  const applied = await applyPriceChange({
    companyId,
    userId,
    criteria,
    fingerprint,
    changeId: changeId.toLowerCase(),
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
  // The page then shows what the change did (its plans, old → new); a second "Apply" of the same preview lands there
  // too, told it was already applied.
  const shown = `${PRICES_PATH}?change=${applied.priceChangeId}`
  if (applied.alreadyApplied) return redirectWithFlash(shown, PRICE_MESSAGES.alreadyApplied)
  return redirectWithFlash(shown, `${PRICE_MESSAGES.applied(applied.planCount, applied.firstMonthLabel)}${told}`)
}
