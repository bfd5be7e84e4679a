// The office's quotes (issue 33 items 2–3; docs/quotes.md): the paged list with its status filter, "New quote" from
// a customer record, and one quote's editor — "Add line" (from the price book or typed), "Remove line", the terms
// ("Deposit", "Valid until", "Note for customer") and "Send quote". The route checks who may.
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { notFound, refusalStatus } from '~/auth/guards.server'
import { hundredthsOf, quantityText } from '~/billing/line-math'
import { depositCents, QUOTE_STATUSES } from '~/billing/quote-math'
import { saveOnce } from '~/features/forms/save-once.server'
import { centsToDollarText } from '~/features/inventory/inventory-schema'
import { priceBookChoices } from '~/models/price-book.server'
import { getQuote, type QuoteView, quoteExists } from '~/models/quote.server'
import { createQuote } from '~/models/quote-create.server'
import { getQuoteDecision } from '~/models/quote-decision.server'
import { getQuoteDepositState } from '~/models/quote-deposit.server'
import { addQuoteLine, removeQuoteLine, setQuoteTerms } from '~/models/quote-edits.server'
import { listQuotes } from '~/models/quote-list.server'
import { sendQuote } from '~/models/quote-send.server'
import { localDateAt } from '~/schedule/local-date'
import type { AddressParts } from '~/utils/address'
import { formatLocalDate } from '~/utils/dates'
import { equipmentLabel, underWarranty } from '~/utils/equipment'
import { redirectWithFlash } from '~/utils/flash.server'
import { formatCents } from '~/utils/money'
import { readPage } from '~/utils/paging'
import type { Failure } from '~/utils/result'
import { markApprovedAction, presentDecision, presentDeposit } from './quote-approval.server'
import {
  NewQuoteSchema,
  QuoteLineRemoveSchema,
  QuoteLineSchema,
  QuoteTermsSchema,
  readStatusFilter,
} from './quote-schemas'

/** What the quote page's actions answer: the form's reply, a saved message, or a refusal with no form. */
export type QuoteReply = { intent: string; result?: SubmissionResult<string[]>; saved?: string; error?: string }

type Member = { id: string; companyId: string; timezone: string }

const todayOf = (member: Member) => localDateAt(new Date(), member.timezone)

export async function loadQuoteList(member: Member, url: URL) {
  const page = readPage(url)
  const status = readStatusFilter(url.searchParams.get('status'))
  const list = await listQuotes({ companyId: member.companyId, status, page, today: todayOf(member) })
  return {
    page,
    status: status ?? '',
    statuses: QUOTE_STATUSES,
    hasNext: list.hasNext,
    quotes: list.quotes.map((q) => ({
      id: q.id,
      numberLabel: q.numberLabel,
      customerName: q.customerName,
      status: q.status,
      total: formatCents(q.totalCents),
      validUntil: q.validUntil,
    })),
  }
}

/**
 * "New quote" from a customer record or one of its equipment items: a draft for the company's own customer (linked to
 * the item, which must be theirs), then its editor. Another company's customer or item is the 404 page.
 */
export async function startQuote(member: Member, formData: FormData) {
  const submission = parseWithZod(formData, { schema: NewQuoteSchema })
  if (submission.status !== 'success') return data<QuoteReply>({ intent: 'create', result: submission.reply() }, 400)
  const created = await saveOnce(
    {
      formData,
      submission,
      companyId: member.companyId,
      userId: member.id,
      target: submission.value.customerId,
      action: 'quote.create',
      failedMessage: 'Unable to start the quote.',
    },
    (tx) =>
      createQuote({
        companyId: member.companyId,
        customerId: submission.value.customerId,
        equipmentId: submission.value.equipmentId,
        today: todayOf(member),
        database: tx,
      }),
  )
  if (!created.ok) {
    if (created.status === 404) notFound()
    return data<QuoteReply>({ intent: 'create', result: created.result }, created.status)
  }
  return redirectWithFlash(`/app/quotes/${created.quote.id}`, 'Quote started: add its lines.')
}

/** What the quote page and the PDF show: plain, formatted values. */
export function presentQuote(quote: QuoteView) {
  const v = quote.version
  const deposit = depositCents(v.deposit, v.totalCents)
  return {
    id: quote.id,
    numberLabel: quote.numberLabel,
    customerId: quote.customerId,
    customerName: quote.customerName,
    customerEmail: quote.customerEmail,
    // The PDF prints the first pool's address under the customer's name: street, then "City, ST 33602".
    customerAddressLines: quote.customerAddress ? addressLinesOf(quote.customerAddress) : [],
    // "For: Pentair IntelliFlo pump (SN …)", and "Under warranty" when the quote's day is on or before its last day.
    equipment: quote.equipment
      ? {
          id: quote.equipment.id,
          label: equipmentLabel(quote.equipment),
          underWarranty: underWarranty(quote.equipment.warrantyUntil, quote.quoteDate),
          warrantyUntil: quote.equipment.warrantyUntil ? formatLocalDate(quote.equipment.warrantyUntil) : null,
        }
      : null,
    status: quote.status,
    state: quote.state,
    version: v.version,
    versionId: v.id,
    sent: v.sentAt !== null,
    validUntil: v.validUntil,
    note: v.customerNote,
    depositKind: v.deposit.kind,
    depositText:
      v.deposit.kind === 'percent'
        ? `${v.deposit.value}% (${formatCents(deposit)})`
        : v.deposit.kind === 'amount'
          ? formatCents(deposit)
          : null,
    depositPercent: v.deposit.kind === 'percent' ? String(v.deposit.value) : '',
    depositAmount: v.deposit.kind === 'amount' ? centsToDollarText(v.deposit.value) : '',
    lines: v.lines.map((line) => ({
      id: line.id,
      position: line.position,
      description: line.description,
      quantity: quantityText(line.quantityHundredths).replace(/\.00$/, ''),
      unitPrice: formatCents(line.unitPriceCents),
      amount: formatCents(line.amountCents),
      optional: line.optional,
      taxable: line.taxable,
    })),
    subtotal: formatCents(v.subtotalCents),
    tax: formatCents(v.taxCents),
    taxLabel: `Tax (${v.taxRateMilliPercent / 1000}%)`,
    total: formatCents(v.totalCents),
    versions: quote.versions.map((x) => ({
      version: x.version,
      sent: x.sentAt !== null,
      total: formatCents(x.totalCents),
    })),
  }
}

export type QuoteDocument = ReturnType<typeof presentQuote>

function addressLinesOf(address: AddressParts) {
  const region = [address.state, address.postalCode].filter(Boolean).join(' ')
  const place = [address.city, region].filter(Boolean).join(', ')
  return [address.street, ...(place ? [place] : [])]
}

export async function loadQuotePage(member: Member, quoteId: string, url: URL) {
  const versionParam = Number(url.searchParams.get('version'))
  const quote = await getQuote({
    companyId: member.companyId,
    quoteId,
    today: todayOf(member),
    version: Number.isInteger(versionParam) && versionParam > 0 ? versionParam : undefined,
  })
  if (!quote) notFound()
  // "Find in price book": the editor lists at most 100 items, those whose name contains the text when given.
  const itemQuery = (url.searchParams.get('item') ?? '').trim().slice(0, 100)
  const [choices, decision, deposit] = await Promise.all([
    priceBookChoices(member.companyId, itemQuery),
    getQuoteDecision(member.companyId, quote.id),
    quote.state === 'approved' ? getQuoteDepositState(member.companyId, quote.id) : null,
  ])
  return {
    today: todayOf(member),
    decision: decision ? presentDecision(decision, member.timezone) : null,
    // "Deposit paid $X on DATE (card)" / "Deposit due $X" (decision 062).
    deposit: presentDeposit(deposit),
    canMarkApproved: quote.state === 'sent' || quote.state === 'viewed',
    quote: presentQuote(quote),
    current: quote.version.version === quote.currentVersion,
    editable: quote.version.version === quote.currentVersion && !['approved', 'declined'].includes(quote.state),
    itemQuery,
    moreItems: choices.more,
    priceBook: choices.items.map((item) => ({
      value: item.id,
      label: `${item.name} — ${formatCents(item.priceCents)} (${item.kind === 'part' ? 'Part' : 'Labor'})`,
    })),
  }
}

function refused(
  intent: string,
  failed: Failure,
  reply: (o: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>,
) {
  const errors = failed.field ? { fieldErrors: { [failed.field]: [failed.message] } } : { formErrors: [failed.message] }
  return data<QuoteReply>({ intent, result: reply(errors) }, refusalStatus(failed))
}

export async function quoteAction(member: Member, quoteId: string, intent: string, formData: FormData) {
  const { companyId } = member
  // Another company's quote is the 404 page before any form is read.
  if (!(await quoteExists(companyId, quoteId))) notFound()
  if (intent === 'add-line') {
    const submission = parseWithZod(formData, { schema: QuoteLineSchema })
    if (submission.status !== 'success') return data<QuoteReply>({ intent, result: submission.reply() }, 400)
    const { description, quantity, unitPrice, priceBookItemId, optional } = submission.value
    const result = await addQuoteLine(companyId, quoteId, {
      description,
      quantityHundredths: hundredthsOf(quantity) ?? 0,
      unitPriceCents: unitPrice,
      priceBookItemId,
      optional,
      taxable: null,
    })
    if (!result.ok) return refused(intent, result, submission.reply)
    return data<QuoteReply>({ intent, result: submission.reply({ resetForm: true }), saved: 'Line added.' })
  }
  if (intent === 'remove-line') {
    const submission = parseWithZod(formData, { schema: QuoteLineRemoveSchema })
    if (submission.status !== 'success') return data<QuoteReply>({ intent, result: submission.reply() }, 400)
    const result = await removeQuoteLine(companyId, quoteId, submission.value.position)
    if (!result.ok) return data<QuoteReply>({ intent, error: result.message }, refusalStatus(result))
    return data<QuoteReply>({ intent, result: submission.reply(), saved: 'Line removed.' })
  }
  if (intent === 'terms') {
    const submission = parseWithZod(formData, { schema: QuoteTermsSchema })
    if (submission.status !== 'success') return data<QuoteReply>({ intent, result: submission.reply() }, 400)
    const result = await setQuoteTerms(companyId, quoteId, submission.value)
    if (!result.ok) return refused(intent, result, submission.reply)
    return data<QuoteReply>({ intent, result: submission.reply(), saved: 'Quote saved.' })
  }
  if (intent === 'mark-approved') return markApprovedAction(member, quoteId, formData)
  if (intent === 'send') {
    const result = await sendQuote(companyId, quoteId)
    if (!result.ok) {
      return data<QuoteReply>({ intent, error: result.message }, refusalStatus(result))
    }
    return redirectWithFlash(`/app/quotes/${quoteId}`, `Quote sent to ${result.email}.`)
  }
  return null
}
