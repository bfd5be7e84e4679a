// The server part of approving a quote (issue 33 item 3, docs/quotes.md): the portal's "Approve" and "Decline", the
// office's "Mark as approved", and the decision as the office reads it. The routes check who may.
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { CLIENT_IP_HEADER } from '~/auth/better-auth.server'
import { notFound } from '~/auth/guards.server'
import { PAYMENT_METHOD_LABELS } from '~/billing/billing-fields'
import { onlinePaymentsEnabled } from '~/billing/online-payments.server'
import {
  approveQuote,
  DECISION_MESSAGES,
  declineQuote,
  markQuoteApproved,
  type QuoteDecisionView,
  signaturePngOf,
} from '~/models/quote-decision.server'
import { type QuoteDepositState, startQuoteDepositCheckout } from '~/models/quote-deposit.server'
import { localDateAt } from '~/schedule/local-date'
import { formatDateTime, formatLocalDate, zonedTimeToUtc } from '~/utils/dates'
import { redirectWithFlash } from '~/utils/flash.server'
import { formatCents } from '~/utils/money'
import { portalQuotePath } from '~/utils/portal-paths'
import type { Failure } from '~/utils/result'
import type { DecisionData } from './quote-approval'
import type { QuoteReply } from './quote-page.server'
import { ApproveQuoteSchema, DeclineQuoteSchema, MarkApprovedSchema } from './quote-schemas'

const METHOD_LABELS = { phone: 'Phone', paper: 'Paper', 'in-person': 'In person' } as const

export function presentDecision(decision: QuoteDecisionView, timezone: string): DecisionData {
  const when = formatDateTime(decision.decidedAt, timezone)
  if (decision.decision === 'declined') {
    return {
      heading: 'Declined',
      lines: [
        `Declined by ${decision.signerName} on ${when} (version ${decision.version}).`,
        `Reason: ${decision.declineReason ?? ''}`,
      ],
      total: null,
      deposit: null,
    }
  }
  const lines =
    decision.source === 'customer'
      ? [
          `Approved and signed by ${decision.signerName} in the portal on ${when} (version ${decision.version}).`,
          decision.signed ? 'Signature drawn and kept.' : 'Signed with their typed name.',
          ...(decision.ipAddress ? [`IP address: ${decision.ipAddress}`] : []),
        ]
      : [
          `Marked as approved: ${decision.signerName}, by ${METHOD_LABELS[decision.officeMethod ?? 'phone']}, on ${formatDateTime(decision.decidedAt, timezone)} (version ${decision.version}).`,
          `Recorded by ${decision.recordedByName ?? 'a teammate'}. No customer signature.`,
        ]
  return {
    heading: 'Approved',
    lines,
    total: formatCents(decision.totalCents),
    deposit: decision.depositCents > 0 ? formatCents(decision.depositCents) : null,
  }
}

/**
 * The deposit as the office's quote page and the portal say it (decision 062): each payment ("Deposit paid $X on
 * DATE (card)", with what was refunded of it) and what is still due ("Deposit due $X").
 */
export function presentDeposit(state: QuoteDepositState | null) {
  if (!state) return null
  return {
    paidLines: state.payments.map(
      (p) =>
        `Deposit paid ${formatCents(p.amountCents)} on ${formatLocalDate(p.receivedOn)} (${PAYMENT_METHOD_LABELS[p.method].toLowerCase()})${p.refundedCents > 0 ? `, ${formatCents(p.refundedCents)} refunded` : ''}`,
    ),
    paid: state.paidCents > 0 ? formatCents(state.paidCents) : null,
    due: state.dueCents > 0 ? formatCents(state.dueCents) : null,
  }
}

export type DepositData = NonNullable<ReturnType<typeof presentDeposit>>

/**
 * Sends the customer to Stripe's page for the deposit still due (303: the browser follows with a GET). `approved` is
 * the flash for when it cannot start: the approval is kept either way, and the page offers "Pay deposit" again.
 */
async function toDepositCheckout(access: PortalMember, quoteId: string, approved: string | null) {
  const back = portalQuotePath(access.customerId, quoteId)
  const started = await startQuoteDepositCheckout({ ...access, quoteId })
  if (started.ok) throw redirect(started.url, 303)
  // Another customer's quote, or none, is the 404 page.
  if (started.code === 'not-found') notFound()
  return redirectWithFlash(back, { tone: 'error', text: approved ? `${approved} ${started.message}` : started.message })
}

function refused(intent: string, failed: Failure, reply: (o: { formErrors: string[] }) => QuoteReply['result']) {
  if (failed.code === 'not-found') notFound()
  return data<QuoteReply>({ intent, result: reply({ formErrors: [failed.message] }), error: failed.message }, 409)
}

type PortalMember = { companyId: string; customerId: string; timezone: string }

/** "Approve" or "Decline" by the customer's own login. */
export async function portalDecisionAction(
  access: PortalMember,
  quoteId: string,
  intent: string,
  formData: FormData,
  request: Request,
) {
  const today = localDateAt(new Date(), access.timezone)
  const ipAddress = request.headers.get(CLIENT_IP_HEADER)
  const back = portalQuotePath(access.customerId, quoteId)
  if (intent === 'approve') {
    const submission = parseWithZod(formData, { schema: ApproveQuoteSchema })
    if (submission.status !== 'success') return data<QuoteReply>({ intent, result: submission.reply() }, 400)
    const { versionId, signerName, signature, optionalLineId } = submission.value
    const png = signature ? signaturePngOf(signature) : null
    if (signature && !png) {
      return data<QuoteReply>(
        {
          intent,
          result: submission.reply({ formErrors: ['The signature could not be read: clear it and sign again.'] }),
        },
        400,
      )
    }
    const result = await approveQuote({
      ...access,
      quoteId,
      versionId,
      signerName,
      signaturePng: png,
      ipAddress,
      tickedLineIds: optionalLineId,
      today,
    })
    if (!result.ok) {
      // The same "Approve" sent twice (a double click without JavaScript): the first one decided; the second takes
      // the customer on to the deposit's one Checkout session, as the first did.
      if (result.message === DECISION_MESSAGES.decided && onlinePaymentsEnabled()) {
        const started = await startQuoteDepositCheckout({ ...access, quoteId })
        if (started.ok) throw redirect(started.url, 303)
      }
      return refused(intent, result, submission.reply)
    }
    const approved = `Thank you: quote approved for ${formatCents(result.totalCents)}.`
    // With a deposit and Stripe set, the customer pays it now (decision 062); otherwise "Deposit due" waits.
    if (result.depositCents > 0 && onlinePaymentsEnabled()) return toDepositCheckout(access, quoteId, approved)
    return redirectWithFlash(back, approved)
  }
  if (intent === 'pay-deposit') return toDepositCheckout(access, quoteId, null)
  if (intent === 'decline') {
    const submission = parseWithZod(formData, { schema: DeclineQuoteSchema })
    if (submission.status !== 'success') return data<QuoteReply>({ intent, result: submission.reply() }, 400)
    const result = await declineQuote({
      ...access,
      quoteId,
      versionId: submission.value.versionId,
      signerName: 'The customer',
      ipAddress,
      reason: submission.value.reason,
      today,
    })
    if (!result.ok) return refused(intent, result, submission.reply)
    return redirectWithFlash(back, 'Quote declined. The company has been told.')
  }
  return null
}

/** The office's "Mark as approved". */
export async function markApprovedAction(
  member: { id: string; companyId: string; timezone: string },
  quoteId: string,
  formData: FormData,
) {
  const submission = parseWithZod(formData, { schema: MarkApprovedSchema })
  if (submission.status !== 'success') {
    return data<QuoteReply>({ intent: 'mark-approved', result: submission.reply() }, 400)
  }
  const { approvedBy, method, approvedOn, optionalLineId } = submission.value
  const result = await markQuoteApproved({
    companyId: member.companyId,
    quoteId,
    approvedBy,
    method,
    // Noon of the day given, in the company's timezone: a date, not an instant, is what the office knows.
    approvedAt: zonedTimeToUtc(
      {
        year: Number(approvedOn.slice(0, 4)),
        month: Number(approvedOn.slice(5, 7)),
        day: Number(approvedOn.slice(8, 10)),
        hour: 12,
      },
      member.timezone,
    ),
    recordedBy: member.id,
    tickedLineIds: optionalLineId,
    today: localDateAt(new Date(), member.timezone),
  })
  if (!result.ok) return refused('mark-approved', result, submission.reply)
  return redirectWithFlash(`/app/quotes/${quoteId}`, 'Quote marked as approved.')
}
