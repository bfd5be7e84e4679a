// The lists of quotes (issue 33 item 2; docs/quotes.md): the office's page of the company's quotes or one
// customer's, and the portal's quotes sent, newest first, with a status filter ("Expired" follows from "Valid until").
import { and, desc, eq, gte, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm'
import { type QuoteStatus, quoteNumberLabel, quoteStatus, type StoredQuoteState } from '~/billing/quote-math'
import { customers, quotes, quoteVersions } from '~/db/schema'
import { db } from '~/utils/db.server'

export const QUOTES_PAGE_SIZE = 25

export type QuoteListRow = {
  id: string
  numberLabel: string
  customerId: string
  customerName: string
  status: QuoteStatus
  totalCents: number
  validUntil: string | null
  createdAt: Date
}

/** The filter of a status as stored state and "Valid until" (Expired and Sent/Viewed split on today). */
function statusFilter(status: QuoteStatus | null, today: string): SQL | undefined {
  if (!status) return undefined
  const live = inArray(quotes.state, ['sent', 'viewed'])
  const current = or(sql`${quoteVersions.validUntil} is null`, gte(quoteVersions.validUntil, today))
  switch (status) {
    case 'Expired':
      return and(live, isNotNull(quoteVersions.validUntil), lt(quoteVersions.validUntil, today))
    case 'Sent':
      return and(eq(quotes.state, 'sent'), current)
    case 'Viewed':
      return and(eq(quotes.state, 'viewed'), current)
    default:
      return eq(quotes.state, status.toLowerCase() as StoredQuoteState)
  }
}

/** One page of the company's quotes (or one customer's), newest first, with a status filter. */
export async function listQuotes({
  companyId,
  customerId,
  status = null,
  page = 1,
  today,
  sentOnly = false,
}: {
  companyId: string
  customerId?: string
  status?: QuoteStatus | null
  page?: number
  today: string
  /** The portal: only quotes with a version sent, at their latest sent version. */
  sentOnly?: boolean
}) {
  const versionJoin = sentOnly
    ? sql`${quoteVersions.version} = (select max(v.version) from quote_versions v where v.company_id = ${quotes.companyId} and v.quote_id = ${quotes.id} and v.sent_at is not null)`
    : eq(quoteVersions.version, quotes.currentVersion)
  const where = and(
    eq(quotes.companyId, companyId),
    customerId ? eq(quotes.customerId, customerId) : undefined,
    statusFilter(status, today),
  )
  const base = db()
    .select({
      id: quotes.id,
      number: quotes.number,
      customerId: quotes.customerId,
      customerName: customers.customerName,
      state: quotes.state,
      totalCents: quoteVersions.totalCents,
      validUntil: quoteVersions.validUntil,
      createdAt: quotes.createdAt,
    })
    .from(quotes)
    .innerJoin(customers, and(eq(customers.companyId, quotes.companyId), eq(customers.id, quotes.customerId)))
    .innerJoin(
      quoteVersions,
      and(eq(quoteVersions.companyId, quotes.companyId), eq(quoteVersions.quoteId, quotes.id), versionJoin),
    )
    .where(where)
  const rows = await base
    .orderBy(desc(quotes.createdAt), desc(quotes.number))
    .limit(QUOTES_PAGE_SIZE + 1)
    .offset((page - 1) * QUOTES_PAGE_SIZE)
  return {
    hasNext: rows.length > QUOTES_PAGE_SIZE,
    quotes: rows.slice(0, QUOTES_PAGE_SIZE).map(
      (row): QuoteListRow => ({
        id: row.id,
        numberLabel: quoteNumberLabel(row.number),
        customerId: row.customerId,
        customerName: row.customerName,
        status: quoteStatus(sentOnly && row.state === 'draft' ? 'sent' : row.state, row.validUntil, today),
        totalCents: row.totalCents,
        validUntil: row.validUntil,
        createdAt: row.createdAt,
      }),
    ),
  }
}
