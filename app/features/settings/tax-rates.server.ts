// The action of Settings → "Tax rates" (issue 31 item 9): each intent's form parsed with the page's own schema, the
// model asked, and the answer keyed `taxRates` for the page (errors at their fields, the form's input kept).
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import {
  addTaxRate,
  makeDefaultTaxRate,
  removeTaxRate,
  TAX_RATE_MESSAGES,
  updateTaxRate,
} from '~/models/tax-rate.server'
import { failureStatus } from '~/utils/result'
import {
  AddTaxRateSchema,
  DefaultTaxRateSchema,
  RemoveTaxRateSchema,
  type TaxRateIntent,
  type TaxRateReply,
  UpdateTaxRateSchema,
} from './tax-rate-forms'

const reply = (taxRates: TaxRateReply, status = 200) => data({ taxRates }, status)

export async function taxRatesAction(companyId: string, intent: TaxRateIntent, formData: FormData) {
  if (intent === 'tax-rate-add' || intent === 'tax-rate-update') {
    const submission = parseWithZod(formData, {
      schema: intent === 'tax-rate-add' ? AddTaxRateSchema : UpdateTaxRateSchema,
    })
    const rateId = String(formData.get('rateId') ?? '') || undefined
    if (submission.status !== 'success') {
      return reply({ intent, rateId, result: submission.reply(), message: '', tone: 'error' }, 400)
    }
    const fields = { name: submission.value.name, milliPercent: submission.value.percent }
    const saved =
      submission.value.intent === 'tax-rate-add'
        ? await addTaxRate(companyId, fields)
        : await updateTaxRate(companyId, submission.value.rateId, fields)
    if (!saved.ok) {
      const result = submission.reply(
        saved.field ? { fieldErrors: { [saved.field]: [saved.message] } } : { formErrors: [saved.message] },
      )
      return reply({ intent, rateId, result, message: saved.message, tone: 'error' }, failureStatus(saved))
    }
    const message = intent === 'tax-rate-add' ? TAX_RATE_MESSAGES.added : TAX_RATE_MESSAGES.saved
    return reply({ intent, rateId, result: submission.reply({ resetForm: true }), message, tone: 'success' })
  }
  const submission = parseWithZod(formData, {
    schema: intent === 'tax-rate-remove' ? RemoveTaxRateSchema : DefaultTaxRateSchema,
  })
  if (submission.status !== 'success') {
    return reply({ intent, message: TAX_RATE_MESSAGES.notFound, tone: 'error' }, 404)
  }
  const { rateId } = submission.value
  const done =
    intent === 'tax-rate-remove' ? await removeTaxRate(companyId, rateId) : await makeDefaultTaxRate(companyId, rateId)
  if (!done.ok) return reply({ intent, rateId, message: done.message, tone: 'error' }, failureStatus(done))
  const message = intent === 'tax-rate-remove' ? TAX_RATE_MESSAGES.removed : TAX_RATE_MESSAGES.madeDefault
  return reply({ intent, rateId, message, tone: 'success' })
}
