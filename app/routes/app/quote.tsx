// /app/quotes/:quoteId: one quote in the office (issue 33 items 2–3, docs/quotes.md): the document, "Add line",
// "Remove line" (asked first), the terms, "Send quote", "Download PDF" and the versions. Another company's quote is
// a 404.
import { Link } from 'react-router'
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { ConfirmForm } from '~/components/confirm-buttons'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Card } from '~/components/ui/card'
import { textLinkTarget } from '~/components/ui/touch'
import { MarkApprovedForm, QuoteDecisionCard } from '~/features/quotes/quote-approval'
import { QuoteDocument } from '~/features/quotes/quote-document'
import { AddQuoteLineForm, QuoteTermsForm } from '~/features/quotes/quote-editor'
import { loadQuotePage, quoteAction } from '~/features/quotes/quote-page.server'
import { CreateWorkOrderForm, RecordDepositForm, WorkOrderLinkCard } from '~/features/work-orders/work-order-forms'
import {
  createWorkOrderAction,
  loadQuoteWorkOrder,
  recordDepositAction,
} from '~/features/work-orders/work-order-page.server'
import { quoteExists } from '~/models/quote.server'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import type { Route } from './+types/quote'

export async function loader({ request, params }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'quotes:manage')
  const page = await loadQuotePage(member, params.quoteId, new URL(request.url))
  return { ...page, work: await loadQuoteWorkOrder(member, page.quote.id, page.quote.state === 'approved') }
}

export async function action({ request, params }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'quotes:manage')
  const formData = await readForm(request)
  const intent = String(formData.get('intent') ?? '')
  // The approved quote's work order and deposit (docs/work-orders.md); another company's quote is the 404 page first.
  if (intent === 'create-work-order' || intent === 'record-deposit') {
    if (!(await quoteExists(member.companyId, params.quoteId))) notFound()
    return intent === 'create-work-order'
      ? createWorkOrderAction(member, params.quoteId, formData)
      : recordDepositAction(member, params.quoteId, formData)
  }
  const answer = await quoteAction(member, params.quoteId, intent, formData)
  return answer ?? unknownIntent()
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Quote ${data.quote.numberLabel} · Pool Bud` : 'Quote · Pool Bud' }]
}

export default function QuotePage({ loaderData, actionData }: Route.ComponentProps) {
  const { quote, editable, current, priceBook, decision, work } = loaderData
  const reply = (intent: string) => (actionData?.intent === intent ? actionData : undefined)
  const saved = (intent: string) => reply(intent)?.saved
  const sendError = reply('send')
  const removeError = reply('remove-line')
  return (
    <div className="space-y-5">
      <Link to="/app/quotes" className={`text-sm underline ${textLinkTarget}`}>
        ← Quotes
      </Link>
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">
          Quote {quote.numberLabel}
          {current ? null : <span className="ml-2 text-base font-normal">(version {quote.version})</span>}
        </h1>
        <div className="flex flex-wrap gap-2">
          <a
            href={`/app/quotes/${quote.id}.pdf${current ? '' : `?version=${quote.version}`}`}
            className="btn btn-secondary"
          >
            Download PDF
          </a>
          {editable && quote.state === 'draft' ? (
            <ConfirmForm
              fields={{ intent: 'send' }}
              label="Send quote"
              variant="primary"
              pendingLabel="Sending…"
              question={`Email quote ${quote.numberLabel} to ${quote.customerEmail ?? 'the customer'}?`}
              confirm="Yes, send quote"
              error={sendError?.error ?? null}
            />
          ) : null}
        </div>
      </header>
      {!current ? (
        <Alert tone="info">
          This is version {quote.version}, kept as it was sent.{' '}
          <Link to={`/app/quotes/${quote.id}`}>Open the latest version</Link>.
        </Alert>
      ) : null}
      {removeError?.error ? <Alert tone="error">{removeError.error}</Alert> : null}
      {quote.equipment ? (
        <p className="text-sm">
          <Link to={`/app/equipment/${quote.equipment.id}`} className={`underline ${textLinkTarget}`}>
            History of {quote.equipment.label}
          </Link>
        </p>
      ) : null}
      <QuoteDocument
        quote={quote}
        customer={
          <Link to={`/app/customers/${quote.customerId}`} className="underline">
            {quote.customerName}
          </Link>
        }
        lineAction={
          editable
            ? (line) => (
                <ConfirmForm
                  fields={{ intent: 'remove-line', position: String(line.position) }}
                  label="Remove"
                  buttonClassName="min-h-11"
                  question={`Remove “${line.description}”?`}
                  confirm="Yes, remove"
                />
              )
            : undefined
        }
      />
      {decision ? <QuoteDecisionCard decision={decision} deposit={loaderData.deposit} /> : null}
      {work?.workOrder ? <WorkOrderLinkCard workOrder={work.workOrder} /> : null}
      {work && !work.workOrder ? (
        <CreateWorkOrderForm
          technicians={work.technicians}
          today={work.today}
          lastResult={reply('create-work-order')?.result}
        />
      ) : null}
      {work?.canRecordDeposit ? (
        <RecordDepositForm today={work.today} deposit={work.deposit} lastResult={reply('record-deposit')?.result} />
      ) : null}
      {loaderData.canMarkApproved && current ? (
        <MarkApprovedForm quote={quote} today={loaderData.today} lastResult={reply('mark-approved')?.result} />
      ) : null}
      {editable ? (
        <>
          <AddQuoteLineForm
            priceBook={priceBook}
            itemQuery={loaderData.itemQuery}
            moreItems={loaderData.moreItems}
            lastResult={reply('add-line')?.result}
            saved={saved('add-line')}
            sent={quote.sent}
          />
          <QuoteTermsForm
            key={`${quote.version}`}
            quote={quote}
            lastResult={reply('terms')?.result}
            saved={saved('terms')}
          />
        </>
      ) : null}
      {quote.versions.length > 1 ? (
        <Card className="space-y-2" aria-labelledby="quote-versions-heading">
          <h2 id="quote-versions-heading" className="text-lg font-semibold">
            Versions
          </h2>
          <ul className="space-y-1 text-sm">
            {quote.versions.map((v) => (
              <li key={v.version}>
                <Link to={`/app/quotes/${quote.id}?version=${v.version}`} className={`underline ${textLinkTarget}`}>
                  Version {v.version}
                </Link>{' '}
                · {v.total} · {v.sent ? 'Sent' : 'Not sent'}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
