// One quote in the customer's portal (issue 33 items 2–3, docs/quotes.md): the latest version sent, as the office
// drew it, with "Download PDF". The customer's own first view records Viewed (staff previewing record nothing). A
// quote never sent, another customer's or another company's is a 404.
// With a deposit and Stripe set, "Approve" goes on to pay it on Stripe's Checkout, and "Pay deposit" does the same
// later; the page says "Deposit due", "Payment processing" or "received" (docs/quotes.md "Deposit", decision 062).
import { Link } from 'react-router'
import { notFound, requireOwnPortal, requirePortalAccess } from '~/auth/guards.server'
import { onlinePaymentsEnabled } from '~/billing/online-payments.server'
import { RouteError } from '~/components/route-error'
import {
  ApprovalRefusal,
  ApproveQuoteForm,
  DeclineQuoteForm,
  DepositStatus,
  PayDepositForm,
} from '~/features/quotes/quote-approval'
import { portalDecisionAction, presentDeposit } from '~/features/quotes/quote-approval.server'
import { QuoteDocument } from '~/features/quotes/quote-document'
import { presentQuote } from '~/features/quotes/quote-page.server'
import { getQuote, recordQuoteViewed } from '~/models/quote.server'
import { getQuoteDecision } from '~/models/quote-decision.server'
import { getQuoteDepositState } from '~/models/quote-deposit.server'
import { localDateAt } from '~/schedule/local-date'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import { formatCents } from '~/utils/money'
import type { Route } from './+types/quote'

export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await requirePortalAccess(request, params.customerId)
  const today = localDateAt(new Date(), access.timezone)
  const read = () =>
    getQuote({
      companyId: access.companyId,
      customerId: access.customerId,
      quoteId: params.quoteId,
      today,
      latestSent: true,
    })
  let quote = await read()
  if (!quote) notFound()
  if (!access.preview && quote.state === 'sent' && (await recordQuoteViewed(access.companyId, quote.id))) {
    quote = (await read()) ?? quote
  }
  const approved = quote.state === 'approved'
  const [decision, deposit] = approved
    ? await Promise.all([
        getQuoteDecision(access.companyId, quote.id),
        getQuoteDepositState(access.companyId, quote.id),
      ])
    : [null, null]
  const cardPayments = onlinePaymentsEnabled()
  return {
    preview: access.preview,
    customerId: access.customerId,
    companyName: access.companyName,
    quote: presentQuote(quote),
    // What was approved, with the options chosen: the amounts kept with the approval.
    approvedTotal: decision ? formatCents(decision.totalCents) : null,
    // The deposit (decision 062): paid, or due — and whether the customer can pay it here by card.
    deposit: presentDeposit(deposit),
    canPayDeposit: cardPayments && !access.preview && (deposit?.dueCents ?? 0) > 0,
    // Back from Stripe's page: until the webhook lands the deposit still shows as due, so say it is on its way.
    depositReturned: new URL(request.url).searchParams.get('deposit') === 'done',
    // "Approve" takes the customer on to pay the deposit by card when Stripe is set and the quote asks for one.
    approveWithDeposit: cardPayments && quote.version.deposit.kind !== 'none' && quote.version.deposit.value > 0,
  }
}

// "Approve" and "Decline": only the customer's own login (staff previewing the portal get the 403 card).
export async function action({ request, params }: Route.ActionArgs) {
  const access = await requireOwnPortal(request, params.customerId)
  const formData = await readForm(request)
  const answer = await portalDecisionAction(
    access,
    params.quoteId,
    String(formData.get('intent') ?? ''),
    formData,
    request,
  )
  return answer ?? unknownIntent()
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Quote ${data.quote.numberLabel} · Pool Bud` : 'Quote · Pool Bud' }]
}

export default function PortalQuote({ loaderData, actionData }: Route.ComponentProps) {
  const { quote, customerId, companyName, preview } = loaderData
  const open = quote.status === 'Sent' || quote.status === 'Viewed'
  const reply = (intent: string) => (actionData?.intent === intent ? actionData : undefined)
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-5 px-4 py-6 sm:py-8">
      {preview ? (
        <aside
          aria-label="Staff preview"
          className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <strong>Staff preview.</strong> This is the quote as {quote.customerName} sees it.
        </aside>
      ) : null}
      <Link
        to={`/customer/${customerId}#quotes`}
        className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700"
      >
        ← Back to your account
      </Link>
      <header className="space-y-1">
        {companyName ? <p className="text-sm font-medium text-brand-700">{companyName}</p> : null}
        <h1 className="text-2xl font-bold sm:text-3xl">Quote {quote.numberLabel}</h1>
        <p className="text-lg">
          Total <span className="font-semibold tabular-nums">{quote.total}</span>
          {quote.validUntil ? <span className="text-slate-600"> · valid until {quote.validUntil}</span> : null}
        </p>
        <a
          href={`/customer/${customerId}/quotes/${quote.id}.pdf`}
          download
          className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 hover:underline"
        >
          Download PDF
        </a>
      </header>
      <ApprovalRefusal message={actionData?.error} />
      <QuoteDocument quote={quote} customer={quote.customerName} />
      {quote.status === 'Approved' ? (
        <p role="status">
          You approved this quote
          {loaderData.approvedTotal ? ` for ${loaderData.approvedTotal}, with the options you chose` : ''}. Thank you!
        </p>
      ) : null}
      {quote.status === 'Approved' && loaderData.deposit ? (
        <DepositStatus
          deposit={loaderData.deposit}
          returned={loaderData.depositReturned}
          companyName={companyName}
          pay={loaderData.canPayDeposit ? <PayDepositForm due={loaderData.deposit.due ?? ''} /> : null}
        />
      ) : null}
      {quote.status === 'Declined' ? <p role="status">You declined this quote.</p> : null}
      {quote.status === 'Expired' ? (
        <p role="status">This quote has expired: ask {companyName || 'the company'} for a new one.</p>
      ) : null}
      {open ? (
        <>
          {preview ? <p className="text-sm text-slate-700">Only the customer can approve or decline.</p> : null}
          <ApproveQuoteForm
            quote={quote}
            lastResult={reply('approve')?.result}
            disabled={preview}
            withDeposit={loaderData.approveWithDeposit}
          />
          <DeclineQuoteForm quote={quote} lastResult={reply('decline')?.result} disabled={preview} />
        </>
      ) : null}
    </main>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
