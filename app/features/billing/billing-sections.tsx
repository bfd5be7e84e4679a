// The pieces of /app/billing: the month (picker, figures, its actions), the preview of "Create invoices", the
// confirmation of "Send invoices", and the list of invoices with its status filter and pager.
import { Form, Link, useNavigation } from 'react-router'
import { INVOICE_STATUSES } from '~/billing/invoice-status'
import { Pager } from '~/components/pager'
import { Alert } from '~/components/ui/alert'
import { Button, ButtonLink, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { inputClass } from '~/components/ui/field'
import { ScrollRegion } from '~/components/ui/scroll-region'
import { rowLinkTarget, textLinkTarget } from '~/components/ui/touch'
import type { loadBillingPage } from './billing-page.server'
import { InvoiceStatusBadge, statusSlug } from './invoice-status-badge'

export type BillingPageData = Awaited<ReturnType<typeof loadBillingPage>>

const linkClass = cn('text-sm font-medium text-brand-700 hover:underline', textLinkTarget)

/** The page's address with these parameters (empty ones left out). */
export function billingHref(params: Record<string, string | null | undefined>) {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value)
  const text = search.toString()
  return `/app/billing${text ? `?${text}` : ''}`
}

/** Which form of the page is on its way (its intent), for the buttons' pending state. */
function usePendingIntent() {
  const navigation = useNavigation()
  return navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
}

export function MonthCard({ data, refusal }: { data: BillingPageData; refusal: string | null }) {
  const { month, figures } = data
  const navigation = useNavigation()
  // "Create invoices" is a GET (the preview writes nothing): pending while that page loads.
  const previewing =
    navigation.state === 'loading' && new URLSearchParams(navigation.location.search).get('preview') === '1'
  return (
    <Card aria-labelledby="month-heading" className="space-y-4">
      {/* On a phone the months either side share a row and the picker has its own; on a wider screen, one row. */}
      <nav aria-label="Months" className="flex flex-wrap items-end justify-between gap-3">
        <Link to={billingHref({ month: month.previous.value })} className={buttonClass('secondary', 'order-1')}>
          <span aria-hidden="true">←</span> <MonthName month={month.previous} />
        </Link>
        <Form method="get" action="/app/billing" className="order-3 flex w-full items-end gap-2 sm:order-2 sm:w-auto">
          <div className="min-w-0 flex-1 space-y-1 sm:flex-none">
            <label htmlFor="billing-month" className="block text-sm font-medium text-slate-800">
              Month
            </label>
            <input
              id="billing-month"
              name="month"
              type="month"
              defaultValue={month.value}
              key={month.value}
              className={cn(inputClass, 'sm:w-52')}
            />
          </div>
          <Button type="submit" variant="secondary">
            Show
          </Button>
        </Form>
        <Link to={billingHref({ month: month.next.value })} className={buttonClass('secondary', 'order-2 sm:order-3')}>
          <MonthName month={month.next} /> <span aria-hidden="true">→</span>
        </Link>
      </nav>
      <h2 id="month-heading" className="text-xl font-semibold">
        {month.label}
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:max-w-md">
        <Figure label="Drafts" count={figures.drafts} total={figures.draftTotal} />
        <Figure label="Sent" count={figures.sent} total={figures.sentTotal} />
      </dl>
      <div className="flex flex-wrap gap-2">
        {data.preview ? null : (
          <Form method="get" action="/app/billing">
            <input type="hidden" name="month" value={month.value} />
            <input type="hidden" name="preview" value="1" />
            <Button type="submit" pending={previewing} pendingLabel="Working out invoices…">
              Create invoices
            </Button>
          </Form>
        )}
        {figures.drafts > 0 && !data.confirmSend ? (
          <ButtonLink to={billingHref({ month: month.value, confirm: 'send' })} variant="secondary">
            Send invoices
          </ButtonLink>
        ) : null}
      </div>
      {refusal ? <Alert tone="error">{refusal}</Alert> : null}
    </Card>
  )
}

function MonthName({ month }: { month: { label: string; short: string } }) {
  return (
    <>
      <span className="sm:hidden">{month.short}</span>
      <span className="hidden sm:inline">{month.label}</span>
    </>
  )
}

function Figure({ label, count, total }: { label: string; count: number; total: string }) {
  return (
    <div className="rounded-lg border border-slate-200 p-3">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-2xl font-bold tabular-nums">{count}</span>
        <span className="text-sm text-slate-600 tabular-nums">{total}</span>
      </dd>
    </div>
  )
}

/** "Create invoices", step two: what would be written, then "Create N invoices". */
export function PreviewCard({ data }: { data: BillingPageData }) {
  const pending = usePendingIntent()
  const preview = data.preview
  if (!preview) return null
  const cancel = billingHref({ month: data.month.value })
  return (
    <Card aria-labelledby="preview-heading" className="space-y-4">
      <div className="space-y-1">
        <h2 id="preview-heading" className="text-lg font-semibold">
          Invoices to create for {data.month.label}
        </h2>
        <p className="text-lg font-semibold">{preview.summary}</p>
        <p className="text-sm text-slate-600">Nothing is written until you create them; they start as drafts.</p>
        {preview.alreadyInvoiced > 0 ? (
          <p className="text-sm text-slate-600">
            {preview.alreadyInvoiced === 1
              ? '1 customer already has an invoice for this month.'
              : `${preview.alreadyInvoiced} customers already have an invoice for this month.`}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        {preview.count > 0 ? (
          <Form method="post" action={cancel}>
            <input type="hidden" name="intent" value="create" />
            <input type="hidden" name="month" value={data.month.value} />
            <Button type="submit" pending={pending === 'create'} pendingLabel="Creating…">
              {preview.count === 1 ? 'Create 1 invoice' : `Create ${preview.count} invoices`}
            </Button>
          </Form>
        ) : null}
        <Link to={cancel} className={buttonClass('secondary')}>
          {preview.count > 0 ? 'Cancel' : 'Close'}
        </Link>
      </div>
      {preview.count === 0 ? (
        <p className="text-sm text-slate-700">No invoices to create: nobody has billable work left to invoice.</p>
      ) : (
        <ScrollRegion label="Invoices to create">
          <table className="w-full border-collapse text-sm">
            <thead>
              <tr className="border-b border-slate-300 text-left text-slate-600">
                <th scope="col" className="py-2 pr-2 font-semibold">
                  Customer
                </th>
                <th scope="col" className="py-2 pr-2 text-right font-semibold">
                  Lines
                </th>
                <th scope="col" className="py-2 pr-2 text-right font-semibold">
                  Total
                </th>
                <th scope="col" className="py-2 text-right font-semibold">
                  Credit applied
                </th>
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((row) => (
                <tr key={row.customerId} className="border-b border-slate-100">
                  <td className="py-2 pr-2 wrap-anywhere">{row.customerName}</td>
                  <td className="py-2 pr-2 text-right tabular-nums">{row.lines}</td>
                  <td className="py-2 pr-2 text-right tabular-nums">{row.total}</td>
                  <td className="py-2 text-right tabular-nums">{row.creditApplied ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Card>
  )
}

/** "Send invoices", asked first: sending emails every customer with a draft this month. */
export function SendConfirmCard({ data }: { data: BillingPageData }) {
  const pending = usePendingIntent()
  if (!data.confirmSend) return null
  const { drafts } = data.figures
  const back = billingHref({ month: data.month.value })
  return (
    <Card aria-labelledby="send-heading" className="space-y-3 border-brand-100 bg-brand-50">
      <h2 id="send-heading" className="text-lg font-semibold">
        {drafts === 1 ? 'Send 1 invoice?' : `Send ${drafts} invoices?`}
      </h2>
      <p className="text-sm text-slate-700">
        Every draft for {data.month.label} is issued today and emailed to its customer, and shows in their portal. Sent
        invoices cannot be edited; a wrong one is voided.
      </p>
      {data.noEmail ? (
        <div className="space-y-1 text-sm text-slate-700">
          <p className="font-medium">{data.noEmail.message}</p>
          <ul className="list-disc pl-5">
            {data.noEmail.names.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
          <a
            href={`/app/billing/print.pdf?month=${data.month.value}`}
            download
            className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline"
          >
            Download their invoices (PDF)
          </a>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Form method="post" action={back}>
          <input type="hidden" name="intent" value="send" />
          <input type="hidden" name="month" value={data.month.value} />
          <Button type="submit" pending={pending === 'send'} pendingLabel="Sending…">
            Yes, send invoices
          </Button>
        </Form>
        <Link to={back} className={buttonClass('secondary')}>
          Cancel
        </Link>
      </div>
    </Card>
  )
}

/**
 * "Needs attention": Stripe events that were signed but could not be recorded as payments (another currency, an
 * amount out of bounds, no invoice of ours) — acknowledged so Stripe stops retrying, listed here for the office to
 * look up in Stripe's dashboard (decision 032). Nothing shows when there are none.
 */
export function NeedsAttentionCard({ data }: { data: BillingPageData }) {
  if (data.needsAttention.length === 0) return null
  return (
    <Card aria-labelledby="attention-heading" className="space-y-3 border-amber-200 bg-amber-50">
      <h2 id="attention-heading" className="text-lg font-semibold">
        Needs attention
      </h2>
      <p className="text-sm text-slate-700">
        Card payments Stripe reported that were not recorded. Look them up in Stripe by their id and record or refund
        them there.
      </p>
      <ul className="divide-y divide-amber-200">
        {data.needsAttention.map((row) => (
          <li key={row.id} className="py-2 text-sm">
            <p>{row.reason}</p>
            <p className="text-slate-600">
              {row.when}
              {row.stripeObject ? <span className="break-all"> · {row.stripeObject}</span> : null}
            </p>
          </li>
        ))}
      </ul>
    </Card>
  )
}

const STATUS_FILTERS = [
  { value: 'all', label: 'All' },
  ...INVOICE_STATUSES.map((status) => ({ value: statusSlug(status), label: status })),
]

export function InvoiceListCard({ data }: { data: BillingPageData }) {
  const { filter, list } = data
  return (
    <Card aria-labelledby="invoices-heading" className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="invoices-heading" className="text-lg font-semibold">
          {filter.customer ? `Invoices of ${filter.customer.name}` : 'Invoices'}
        </h2>
        {filter.customer ? (
          <div className="flex flex-wrap gap-2">
            <Link to={`/app/customers/${filter.customer.id}`} className={linkClass}>
              Customer record
            </Link>
            <Link to={billingHref({ month: data.month.value })} className={linkClass}>
              All customers
            </Link>
          </div>
        ) : null}
      </div>
      <nav aria-label="Invoice status" className="flex flex-wrap gap-1">
        {STATUS_FILTERS.map(({ value, label }) => {
          const current = filter.status === value
          return (
            <Link
              key={value}
              to={billingHref({
                month: data.month.value,
                customer: filter.customer?.id,
                status: value === 'all' ? null : value,
              })}
              aria-current={current ? 'page' : undefined}
              className={cn(
                'inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg px-3 text-sm font-medium',
                current ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100',
              )}
            >
              {label}
            </Link>
          )
        })}
      </nav>
      {list.rows.length === 0 ? (
        <p className="text-sm text-slate-600">
          {filter.status === 'all' ? 'No invoices yet.' : 'No invoices with this status.'}
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-600" aria-live="polite">
            {list.total === 1 ? '1 invoice' : `${list.total} invoices`}
          </p>
          <div
            aria-hidden="true"
            className="hidden grid-cols-[7rem_minmax(0,2fr)_minmax(0,1.2fr)_7rem_6rem_6rem] gap-3 border-b border-slate-200 pb-2 text-xs font-semibold uppercase tracking-wide text-slate-500 md:grid"
          >
            <span>Number</span>
            <span>Customer</span>
            <span>Period</span>
            <span>Status</span>
            <span className="text-right">Total</span>
            <span className="text-right">Due</span>
          </div>
          <ul className="divide-y divide-slate-100">
            {list.rows.map((invoice) => (
              <li
                key={invoice.id}
                className="relative grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-1 py-3 text-sm hover:bg-slate-50 md:grid-cols-[7rem_minmax(0,2fr)_minmax(0,1.2fr)_7rem_6rem_6rem] md:items-center"
              >
                <Link
                  to={`/app/invoices/${invoice.id}`}
                  className={cn('font-semibold text-brand-700 hover:underline', rowLinkTarget)}
                >
                  {invoice.numberLabel}
                  <span className="sr-only">, {invoice.customerName}</span>
                </Link>
                <span className="text-right md:order-last">
                  <span className="sr-only">Amount due: </span>
                  <span className={cn('tabular-nums', invoice.owes ? 'font-semibold' : 'text-slate-600')}>
                    {invoice.amountDue}
                  </span>
                  <span className="text-slate-600 md:hidden"> due</span>
                </span>
                <span className="min-w-0 wrap-anywhere">
                  {invoice.customerName}
                  {invoice.notEmailed ? (
                    <span className="block text-xs font-medium text-amber-800">Not emailed — print</span>
                  ) : null}
                </span>
                <span className="text-right md:hidden">
                  <InvoiceStatusBadge status={invoice.status} />
                </span>
                <span className="text-slate-600">
                  {invoice.period ?? 'Opening balance'}
                  {invoice.dueOn ? <span className="md:hidden"> · due {invoice.dueOn}</span> : null}
                </span>
                <span className="hidden md:block">
                  <InvoiceStatusBadge status={invoice.status} />
                </span>
                <span className="text-right tabular-nums text-slate-600">
                  <span className="max-md:hidden sr-only">Total: </span>
                  <span className="md:hidden">of </span>
                  {invoice.total}
                </span>
              </li>
            ))}
          </ul>
          <Pager page={list.page} pageCount={list.pageCount} label="Invoice pages" />
        </>
      )}
    </Card>
  )
}
