// Invoices (docs/billing.md, issue #21): "Create invoices" for a month previews the drafts (nothing written), then
// writes them; "Send invoices" sends the drafts. The arithmetic is app/billing/invoice-draft.ts; this module reads
// what it needs in a fixed number of statements (whatever the number of customers), and writes in one transaction
// that first locks the company's row: two requests creating the same month run one after the other, the second
// finds every invoice made, and numbers are taken from the company's counter in that transaction — no gaps, no
// duplicates (the unique keys would refuse both anyway).
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm'
import { invoiceNumberLabel, invoiceSubjectLabel } from '~/billing/billing-fields'
import {
  type BillingPeriod,
  type ChemicalUse,
  type DraftLine,
  draftInvoice,
  type InvoiceDraft,
  type LateVisit,
  type PlanToBill,
  periodLabel,
  planActiveIn,
  type RateChange,
} from '~/billing/invoice-draft'
import { type InvoiceStatus, invoiceStatus, outstandingCents } from '~/billing/invoice-status'
import type { TaxRule } from '~/billing/tax'
import {
  billedVisits,
  companies,
  customers,
  invoiceLines,
  invoices,
  jobChemicalAdditions,
  jobs,
  payments,
  paymentVoids,
  planRateChanges,
  profiles,
  serviceLocations,
  servicePlans,
} from '~/db/schema'
import type { IsoWeekday } from '~/schedule/local-date'
import { addDays, type LocalDate, localDateAt } from '~/schedule/local-date'
import type { FrequencyWeeks } from '~/schedule/recurrence'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { refundedCentsOf } from './balance.server'
import { queueInvoiceNotice } from './invoice-notice.server'
import { rateInForceSql } from './plan-rate.server'
import { taxRuleOf } from './tax-rate.server'
import { recordEvent } from './webhook-event.server'

/** Rows per insert statement when writing a month's invoices (well under PostgreSQL's 65,535 parameters). */
const INSERT_CHUNK = 1000

/**
 * Each customer's unapplied credit: overpayments on invoices (a void invoice's payments all become credit) and
 * payments recorded to no invoice, less the credit already applied to live invoices. One grouped statement. A quote's
 * deposit waits for its work order's invoice (docs/work-orders.md, decision 062), so it is never applied to another one.
 */
export async function creditsByCustomer(executor: Database, companyId: string, customerIds?: string[]) {
  const only = customerIds
    ? sql`and customer_id in ${customerIds.length ? sql`(${sql.join(customerIds, sql`, `)})` : sql`(null)`}`
    : sql``
  const result = await executor.execute(sql`
    select customer_id, sum(credit)::bigint as credit from (
      select customer_id,
        case when state = 'void' then paid_cents
             else greatest(0, paid_cents + credit_applied_cents - total_cents) - credit_applied_cents end as credit
      from invoices where company_id = ${companyId} ${only}
      union all
      select customer_id, amount_cents - (select coalesce(sum(r.amount_cents), 0) from refunds r
        where r.payment_id = payments.id) from payments
      where company_id = ${companyId} and invoice_id is null ${only}
        and not exists (select 1 from payment_voids pv where pv.payment_id = payments.id)
        -- A quote's deposit waits for its work order's invoice (decision 062): never the month's service invoice.
        and not exists (select 1 from quote_deposits qd
          where qd.company_id = payments.company_id and qd.payment_id = payments.id)
    ) c group by customer_id having sum(credit) > 0`)
  return new Map(
    rowsOf<{ customer_id: string; credit: string }>(result).map((row) => [row.customer_id, Number(row.credit)]),
  )
}

/** drizzle's `execute` answers node-postgres's result on PostgreSQL and PGlite's on PGlite: both carry `rows`. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
}

type MonthBillables = {
  itemiseChemicals: boolean
  tax: TaxRule
  customers: {
    id: string
    name: string
    plans: PlanToBill[]
    chemicals: ChemicalUse[]
    lateVisits: LateVisit[]
    creditCents: number
  }[]
  /** Customers who already have a live invoice for the month. */
  invoiced: Set<string>
}

/**
 * What a month's invoices are made from, for every active customer with a plan active in the month: four
 * statements, whatever the number of customers.
 */
async function loadMonthBillables(
  executor: Database,
  companyId: string,
  period: BillingPeriod,
): Promise<MonthBillables> {
  const [company] = await executor
    .select({ itemiseChemicals: companies.itemiseChemicals })
    .from(companies)
    .where(eq(companies.id, companyId))
  const tax = await taxRuleOf(executor, companyId)
  const planRows = await executor
    .select({
      id: servicePlans.id,
      customerId: customers.id,
      customerName: customers.customerName,
      locationId: servicePlans.locationId,
      place: serviceLocations.street,
      frequencyWeeks: servicePlans.frequencyWeeks,
      weekday: servicePlans.weekday,
      startsOn: servicePlans.startsOn,
      endsOn: servicePlans.endsOn,
      rateType: servicePlans.rateType,
      // The rate in force on the month's first day; changes later in the month cut it into parts (below).
      rateCents: rateInForceSql(servicePlans, period.start),
      completedVisits: sql<number>`(select count(*) from ${jobs} j where j.company_id = ${servicePlans.companyId}
        and j.plan_id = ${servicePlans.id} and j.completed_at is not null
        and j.occurrence_date between ${period.start} and ${period.end} and ${notBilledLate(sql`j`)})`.mapWith(Number),
    })
    .from(servicePlans)
    .innerJoin(
      serviceLocations,
      and(eq(serviceLocations.companyId, servicePlans.companyId), eq(serviceLocations.id, servicePlans.locationId)),
    )
    .innerJoin(
      customers,
      and(eq(customers.companyId, serviceLocations.companyId), eq(customers.id, serviceLocations.customerId)),
    )
    .where(
      and(
        eq(servicePlans.companyId, companyId),
        eq(customers.status, 'active'),
        lte(servicePlans.startsOn, period.end),
        or(isNull(servicePlans.endsOn), gte(servicePlans.endsOn, period.start)),
      ),
    )
    .orderBy(asc(customers.customerName), asc(customers.id), asc(servicePlans.startsOn), asc(servicePlans.id))
  // Chemicals are priced from the stock item they were taken from; one typed by hand has no price and is not billed.
  const chemicalRows = await executor
    .select({
      planId: sql<string>`${jobs.planId}`,
      product: jobChemicalAdditions.product,
      unit: jobChemicalAdditions.unit,
      quantityHundredths: sql<number>`round(sum(${jobChemicalAdditions.quantity}) * 100)::integer`.mapWith(Number),
      unitPriceCents: sql<number>`max(inventory_items.price_cents)`.mapWith(Number),
    })
    .from(jobChemicalAdditions)
    .innerJoin(jobs, and(eq(jobs.companyId, jobChemicalAdditions.companyId), eq(jobs.id, jobChemicalAdditions.jobId)))
    .innerJoin(
      sql`inventory_items`,
      sql`inventory_items.company_id = ${jobChemicalAdditions.companyId} and inventory_items.id = ${jobChemicalAdditions.inventoryItemId}`,
    )
    .where(
      and(
        eq(jobChemicalAdditions.companyId, companyId),
        isNotNull(jobs.planId),
        isNotNull(jobs.completedAt),
        gte(jobs.occurrenceDate, period.start),
        lte(jobs.occurrenceDate, period.end),
      ),
    )
    .groupBy(jobs.planId, jobChemicalAdditions.product, jobChemicalAdditions.unit, sql`inventory_items.id`)
    .orderBy(jobs.planId, jobChemicalAdditions.product, jobChemicalAdditions.unit)
  // Price changes taking effect inside the month (docs/billing.md, "A price change mid-month"), and the dates of the
  // completed visits of the plans they change: each part of the month is billed at its own rate.
  const changeRows = await executor
    .select({
      planId: planRateChanges.planId,
      on: planRateChanges.effectiveOn,
      rateCents: planRateChanges.toRateCents,
    })
    .from(planRateChanges)
    .where(
      and(
        eq(planRateChanges.companyId, companyId),
        sql`${planRateChanges.effectiveOn} > ${period.start}`,
        lte(planRateChanges.effectiveOn, period.end),
      ),
    )
    .orderBy(asc(planRateChanges.effectiveOn), asc(planRateChanges.createdAt), asc(planRateChanges.id))
  const completedRows = changeRows.length
    ? await executor
        .select({ planId: sql<string>`${jobs.planId}`, on: sql<string>`${jobs.occurrenceDate}` })
        .from(jobs)
        .where(
          and(
            eq(jobs.companyId, companyId),
            inArray(jobs.planId, [...new Set(changeRows.map((row) => row.planId))]),
            isNotNull(jobs.completedAt),
            gte(jobs.occurrenceDate, period.start),
            lte(jobs.occurrenceDate, period.end),
            notBilledLate(jobs),
          ),
        )
    : []
  const lateRows = await lateCompletions(executor, companyId, { period })
  const invoicedRows = await executor
    .select({ customerId: invoices.customerId })
    .from(invoices)
    .where(
      and(eq(invoices.companyId, companyId), eq(invoices.periodStart, period.start), sql`${invoices.state} <> 'void'`),
    )
  const credits = await creditsByCustomer(executor, companyId)

  const chemicalsByPlan = new Map<string, ChemicalUse[]>()
  for (const row of chemicalRows) {
    const list = chemicalsByPlan.get(row.planId) ?? []
    list.push(row)
    chemicalsByPlan.set(row.planId, list)
  }
  const changesByPlan = new Map<string, RateChange[]>()
  for (const row of changeRows) {
    const list = changesByPlan.get(row.planId) ?? []
    list.push({ on: row.on, rateCents: row.rateCents })
    changesByPlan.set(row.planId, list)
  }
  const completedByPlan = new Map<string, LocalDate[]>()
  for (const row of completedRows) {
    const list = completedByPlan.get(row.planId) ?? []
    list.push(row.on)
    completedByPlan.set(row.planId, list)
  }
  const byCustomer = new Map<string, MonthBillables['customers'][number]>()
  const customerOf = (id: string, name: string) => {
    let customer = byCustomer.get(id)
    if (!customer) {
      customer = { id, name, plans: [], chemicals: [], lateVisits: [], creditCents: credits.get(id) ?? 0 }
      byCustomer.set(id, customer)
    }
    return customer
  }
  for (const row of planRows) {
    const plan: PlanToBill = {
      id: row.id,
      locationId: row.locationId,
      place: row.place,
      frequencyWeeks: row.frequencyWeeks as FrequencyWeeks,
      weekday: row.weekday as IsoWeekday,
      startsOn: row.startsOn,
      endsOn: row.endsOn,
      rateType: row.rateType,
      rateCents: row.rateCents,
      completedVisits: row.completedVisits,
      rateChanges: changesByPlan.get(row.id) ?? [],
      completedOn: completedByPlan.get(row.id) ?? [],
    }
    if (!planActiveIn(plan, period)) continue
    const customer = customerOf(row.customerId, row.customerName)
    customer.plans.push(plan)
    customer.chemicals.push(...(chemicalsByPlan.get(plan.id) ?? []))
  }
  // A customer with late completions and no plan this month still gets an invoice for them.
  for (const { customerId, customerName, ...visit } of lateRows)
    customerOf(customerId, customerName).lateVisits.push(visit)
  return {
    itemiseChemicals: company?.itemiseChemicals ?? true,
    tax,
    customers: [...byCustomer.values()],
    invoiced: new Set(invoicedRows.map((row) => row.customerId)),
  }
}

/** SQL: the visit (`jobs` or an alias of it) is not billed by a "Late completions" line. */
function notBilledLate(job: typeof jobs | SQL) {
  return sql`not exists (select 1 from ${billedVisits} bv where bv.company_id = ${job}.company_id
    and bv.job_id = ${job}.id and bv.released_at is null)`
}

/**
 * The late completions an invoice for `period` bills (docs/billing.md, "Late completions"): visits of per-visit plans
 * of active customers, of an earlier month whose invoice for the customer is sent and counted its visits before this
 * one was completed, not yet billed by a late line. Each at the rate in force on its date. One statement.
 */
export async function lateCompletions(
  executor: Database,
  companyId: string,
  which: { period: BillingPeriod } | { jobIds: string[] },
) {
  const only =
    'period' in which
      ? sql`j.occurrence_date < ${which.period.start}`
      : which.jobIds.length
        ? sql`j.id in (${sql.join(which.jobIds, sql`, `)})`
        : sql`false`
  const result = await executor.execute(sql`
    select j.id as job_id, j.plan_id, sp.location_id, j.occurrence_date::text as occurrence_date, sp.frequency_weeks,
      ${rateInForceSql({ companyId: sql`sp.company_id`, id: sql`sp.id`, rateCents: sql`sp.rate_cents` }, sql`j.occurrence_date`)} as rate_cents,
      c.id as customer_id, c.customer_name
    from jobs j
    join service_plans sp on sp.company_id = j.company_id and sp.id = j.plan_id
    join service_locations sl on sl.company_id = sp.company_id and sl.id = sp.location_id
    join customers c on c.company_id = sl.company_id and c.id = sl.customer_id
    where j.company_id = ${companyId} and j.completed_at is not null and ${only}
      and sp.rate_type in ('per-visit', 'per-visit-plus-chemicals') and c.status = 'active'
      and exists (select 1 from invoices i where i.company_id = j.company_id and i.customer_id = c.id
        and i.state = 'sent' and i.period_start = date_trunc('month', j.occurrence_date)::date
        and ((j.completed_at > i.visits_counted_at
            -- a visit reopened and completed again is not late when the invoice counted its earlier completion
            and not (j.reopened_completion_at is not null and j.reopened_completion_at <= i.visits_counted_at
              and j.reopened_at > i.visits_counted_at))
          -- or the month was counted while a late line billed the visit, and that line's invoice was voided since
          or exists (select 1 from billed_visits r where r.company_id = j.company_id and r.job_id = j.id
            and r.billed_at <= i.visits_counted_at and r.released_at > i.visits_counted_at)))
      and ${notBilledLate(sql`j`)}
    order by c.id, j.occurrence_date, j.id`)
  return rowsOf<{
    job_id: string
    plan_id: string
    location_id: string
    occurrence_date: string
    frequency_weeks: number
    rate_cents: number | string
    customer_id: string
    customer_name: string
  }>(result).map((row) => ({
    customerId: row.customer_id,
    customerName: row.customer_name,
    jobId: row.job_id,
    planId: row.plan_id,
    locationId: row.location_id,
    on: row.occurrence_date,
    frequencyWeeks: Number(row.frequency_weeks),
    rateCents: Number(row.rate_cents),
  }))
}

export type InvoicePreview = {
  period: BillingPeriod
  invoices: { customerId: string; customerName: string; draft: InvoiceDraft }[]
  count: number
  totalCents: number
  /** Customers left out because their invoice for the month exists already. */
  alreadyInvoiced: number
}

function draftsOf(billables: MonthBillables, period: BillingPeriod): InvoicePreview {
  const drafts: InvoicePreview['invoices'] = []
  for (const customer of billables.customers) {
    if (billables.invoiced.has(customer.id)) continue
    const draft = draftInvoice({
      period,
      plans: customer.plans,
      chemicals: customer.chemicals,
      lateVisits: customer.lateVisits,
      itemiseChemicals: billables.itemiseChemicals,
      tax: billables.tax,
      creditCents: customer.creditCents,
    })
    if (draft) drafts.push({ customerId: customer.id, customerName: customer.name, draft })
  }
  return {
    period,
    invoices: drafts,
    count: drafts.length,
    totalCents: drafts.reduce((sum, { draft }) => sum + draft.totalCents, 0),
    alreadyInvoiced: billables.invoiced.size,
  }
}

/** "Create invoices" before anything is written: the drafts the month would get ("N invoices, $X"). */
export async function previewInvoices({ companyId, period }: { companyId: string; period: BillingPeriod }) {
  return draftsOf(await loadMonthBillables(db(), companyId, period), period)
}

/**
 * "Create N invoices": writes the month's drafts, once. Safe to run twice or from two requests at once (the company
 * row's lock orders them; the second finds nothing left to create).
 */
export async function createInvoices({ companyId, period }: { companyId: string; period: BillingPeriod }) {
  return db().transaction(async (tx) => {
    const [company] = await tx
      .select({ next: companies.nextInvoiceNumber })
      .from(companies)
      .where(eq(companies.id, companyId))
      .for('update')
    if (!company) return { created: 0, totalCents: 0, firstNumber: null as number | null }
    const preview = draftsOf(await loadMonthBillables(tx, companyId, period), period)
    if (preview.count === 0) return { created: 0, totalCents: 0, firstNumber: null }
    await insertInvoices(tx, companyId, company.next, period, preview.invoices)
    await tx
      .update(companies)
      .set({ nextInvoiceNumber: company.next + preview.count })
      .where(eq(companies.id, companyId))
    return { created: preview.count, totalCents: preview.totalCents, firstNumber: company.next }
  })
}

async function insertInvoices(
  tx: Database,
  companyId: string,
  firstNumber: number,
  period: BillingPeriod,
  drafts: InvoicePreview['invoices'],
) {
  for (let from = 0; from < drafts.length; from += INSERT_CHUNK) {
    const chunk = drafts.slice(from, from + INSERT_CHUNK)
    const rows = await tx
      .insert(invoices)
      .values(
        chunk.map(({ customerId, draft }, i) => ({
          companyId,
          customerId,
          number: firstNumber + from + i,
          periodStart: period.start,
          periodEnd: period.end,
          subtotalCents: draft.subtotalCents,
          taxCents: draft.taxCents,
          totalCents: draft.totalCents,
          creditAppliedCents: draft.creditAppliedCents,
        })),
      )
      .returning({ id: invoices.id })
    const lines = chunk.flatMap(({ draft }, i) =>
      draft.lines.map((line: DraftLine, position) => ({
        companyId,
        invoiceId: rows[i]?.id ?? '',
        position: position + 1,
        kind: line.kind,
        description: line.description,
        quantity: line.quantity,
        unitCents: line.unitCents,
        amountCents: line.amountCents,
        locationId: line.locationId,
        planId: line.planId,
        jobId: line.jobId ?? null,
        taxMilliPercent: line.taxMilliPercent ?? null,
      })),
    )
    for (let at = 0; at < lines.length; at += INSERT_CHUNK) {
      const written = await tx
        .insert(invoiceLines)
        .values(lines.slice(at, at + INSERT_CHUNK))
        .returning({ id: invoiceLines.id, invoiceId: invoiceLines.invoiceId, jobId: invoiceLines.jobId })
      await claimVisits(tx, companyId, written)
    }
  }
}

/**
 * Records the visits that "Late completions" lines bill: the key (company, visit) among live rows refuses a second
 * claim, so a visit is never billed twice however the requests interleave (docs/decisions/042-late-completions.md).
 */
export async function claimVisits(
  tx: Database,
  companyId: string,
  lines: { id: string; invoiceId: string; jobId: string | null }[],
) {
  const rows = lines.flatMap((line) =>
    line.jobId ? [{ companyId, jobId: line.jobId, invoiceId: line.invoiceId, lineId: line.id }] : [],
  )
  if (rows.length) await tx.insert(billedVisits).values(rows)
}

/**
 * "Send invoices": the drafts of the month (or the ones named) become sent, issued today and due after the company's
 * terms, and each customer gets "Invoice sent" (email, and text when the company turns it on) — queued in the same
 * transaction, once per invoice by the notice's key. An invoice whose customer saved a card is due for autopay.
 */
export async function sendInvoices({
  companyId,
  period,
  invoiceIds,
  now = new Date(),
}: {
  companyId: string
  period?: BillingPeriod
  invoiceIds?: string[]
  now?: Date
}) {
  if (!period && !invoiceIds?.length) return { sent: 0, emailed: 0, toPrint: 0 }
  return db().transaction(async (tx) => {
    const [company] = await tx
      .select({ timezone: companies.timezone, terms: companies.paymentTermsDays })
      .from(companies)
      .where(eq(companies.id, companyId))
    if (!company) return { sent: 0, emailed: 0, toPrint: 0 }
    const today = localDateAt(now, company.timezone)
    const which = invoiceIds?.length
      ? inArray(invoices.id, invoiceIds.filter(isUuid))
      : eq(invoices.periodStart, period?.start ?? '')
    const sent = await tx
      .update(invoices)
      .set({
        state: 'sent',
        issuedOn: today,
        dueOn: addDays(today, company.terms),
        sentAt: now,
        // A customer with no email address gets the invoice on paper: "Not emailed — print" (decision 039).
        delivery: sql`case when exists (select 1 from customers c where c.company_id = ${invoices.companyId}
          and c.id = ${invoices.customerId} and coalesce(trim(c.email), '') <> '') then 'email' else 'print' end`,
        autopayNextAt: sql`case when exists (select 1 from customers c where c.company_id = ${invoices.companyId}
          and c.id = ${invoices.customerId} and c.autopay_payment_method_id is not null)
          and ${invoices.totalCents} > ${invoices.creditAppliedCents} then ${now.toISOString()}::timestamptz end`,
      })
      .where(and(eq(invoices.companyId, companyId), eq(invoices.state, 'draft'), which))
      .returning({ id: invoices.id, delivery: invoices.delivery })
    for (const { id } of sent) await queueInvoiceNotice(tx, { companyId, invoiceId: id, event: 'invoice-sent' })
    for (const { id } of sent) await recordEvent(tx, companyId, 'invoice.sent', { invoiceId: id })
    const toPrint = sent.filter((invoice) => invoice.delivery === 'print').length
    return { sent: sent.length, emailed: sent.length - toPrint, toPrint }
  })
}

/**
 * "Send invoice" for one invoice (the invoice page): sent as `sendInvoices` sends it, or refused — one the company
 * does not have is not found; one that is no longer a draft (sent meanwhile, or void) a conflict that says what it is.
 */
export async function sendInvoice({
  companyId,
  invoiceId,
  now = new Date(),
}: {
  companyId: string
  invoiceId: string
  now?: Date
}): Promise<Result> {
  if (!isUuid(invoiceId)) return failure('not-found', 'Invoice not found.')
  const { sent } = await sendInvoices({ companyId, invoiceIds: [invoiceId], now })
  if (sent === 1) return success({})
  const [invoice] = await db()
    .select({
      state: invoices.state,
      totalCents: invoices.totalCents,
      paidCents: invoices.paidCents,
      creditAppliedCents: invoices.creditAppliedCents,
      dueOn: invoices.dueOn,
      timezone: companies.timezone,
    })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId)))
  if (!invoice) return failure('not-found', 'Invoice not found.')
  const status = invoiceStatus(invoice, localDateAt(now, invoice.timezone))
  return failure('conflict', `Only a draft can be sent: this invoice is ${status}.`)
}

export type InvoiceListFilter = 'all' | InvoiceStatus

/** SQL for "still owed on this invoice", matching `outstandingCents`. */
export const outstandingSql = sql<number>`(case when ${invoices.state} = 'sent'
  then greatest(0, ${invoices.totalCents} - ${invoices.paidCents} - ${invoices.creditAppliedCents}) else 0 end)`

function statusWhere(status: InvoiceListFilter, today: LocalDate): SQL | undefined {
  const owed = sql`${invoices.totalCents} - ${invoices.paidCents} - ${invoices.creditAppliedCents}`
  switch (status) {
    case 'all':
      return undefined
    case 'Draft':
      return eq(invoices.state, 'draft')
    case 'Void':
      return eq(invoices.state, 'void')
    case 'Paid':
      return and(eq(invoices.state, 'sent'), sql`${owed} <= 0`)
    case 'Past due':
      return and(eq(invoices.state, 'sent'), sql`${owed} > 0`, sql`${invoices.dueOn} < ${today}`)
    case 'Partially paid':
      return and(
        eq(invoices.state, 'sent'),
        sql`${owed} > 0`,
        sql`${invoices.dueOn} >= ${today}`,
        sql`${invoices.paidCents} + ${invoices.creditAppliedCents} > 0`,
      )
    case 'Sent':
      return and(
        eq(invoices.state, 'sent'),
        sql`${owed} > 0`,
        sql`${invoices.dueOn} >= ${today}`,
        sql`${invoices.paidCents} + ${invoices.creditAppliedCents} = 0`,
      )
  }
}

export const INVOICES_PER_PAGE = 50

/**
 * The invoices a billing month lists: those billing the month, and a work order's invoice (no period: the month's
 * own invoice may be live beside it, docs/work-orders.md) issued in it — or, while a draft, created in it.
 */
/** The number of the work order an invoice bills (docs/work-orders.md), or null: read on the unique invoice key. */
const workOrderNumberSql = sql<number | null>`(select w.number from work_orders w
  where w.company_id = ${invoices.companyId} and w.invoice_id = ${invoices.id})`

export function invoicesOfPeriod(period: BillingPeriod) {
  return or(
    eq(invoices.periodStart, period.start),
    sql`(${invoices.periodStart} is null and coalesce(${invoices.issuedOn},
      (${invoices.createdAt} at time zone (select c.timezone from companies c where c.id = ${invoices.companyId}))::date) between ${period.start} and ${period.end}
      and exists (select 1 from work_orders w where w.company_id = ${invoices.companyId} and w.invoice_id = ${invoices.id}))`,
  )
}

/** A page of invoices, newest number first: one statement (the count rides along as a window). */
export async function listInvoices({
  companyId,
  today,
  period,
  customerId,
  status = 'all',
  hideDrafts = false,
  page = 1,
  size = INVOICES_PER_PAGE,
}: {
  companyId: string
  today: LocalDate
  period?: BillingPeriod
  customerId?: string
  status?: InvoiceListFilter
  /** The portal: a draft is the office's work in progress, never the customer's to see. */
  hideDrafts?: boolean
  page?: number
  size?: number
}) {
  const rows = await db()
    .select({
      id: invoices.id,
      number: invoices.number,
      customerId: invoices.customerId,
      customerName: customers.customerName,
      periodStart: invoices.periodStart,
      periodEnd: invoices.periodEnd,
      state: invoices.state,
      issuedOn: invoices.issuedOn,
      dueOn: invoices.dueOn,
      totalCents: invoices.totalCents,
      paidCents: invoices.paidCents,
      creditAppliedCents: invoices.creditAppliedCents,
      delivery: invoices.delivery,
      workOrderNumber: workOrderNumberSql,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
    .where(
      and(
        eq(invoices.companyId, companyId),
        period ? invoicesOfPeriod(period) : undefined,
        customerId ? eq(invoices.customerId, customerId) : undefined,
        hideDrafts ? sql`${invoices.state} <> 'draft'` : undefined,
        statusWhere(status, today),
      ),
    )
    .orderBy(desc(invoices.number))
    .limit(size)
    .offset((Math.max(1, page) - 1) * size)
  return {
    total: rows[0]?.total ?? 0,
    invoices: rows.map(({ total: _total, ...row }) => ({
      ...row,
      numberLabel: invoiceNumberLabel(row.number),
      status: invoiceStatus(row, today),
      outstandingCents: outstandingCents(row),
    })),
  }
}

/** The month's invoices in figures, for the billing page's header: one statement. */
export async function periodSummary({ companyId, period }: { companyId: string; period: BillingPeriod }) {
  const [row] = await db()
    .select({
      drafts: sql<number>`count(*) filter (where ${invoices.state} = 'draft')`.mapWith(Number),
      draftCents:
        sql<number>`coalesce(sum(${invoices.totalCents}) filter (where ${invoices.state} = 'draft'), 0)`.mapWith(
          Number,
        ),
      sent: sql<number>`count(*) filter (where ${invoices.state} = 'sent')`.mapWith(Number),
      sentCents:
        sql<number>`coalesce(sum(${invoices.totalCents}) filter (where ${invoices.state} = 'sent'), 0)`.mapWith(Number),
    })
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), invoicesOfPeriod(period)))
  return row ?? { drafts: 0, draftCents: 0, sent: 0, sentCents: 0 }
}

/** One invoice with its lines and payments, or null when it is not this company's. */
export async function getInvoice({
  companyId,
  invoiceId,
  customerId,
  today,
}: {
  companyId: string
  invoiceId: string
  /** The portal: only this customer's invoice, and never a draft. */
  customerId?: string
  today: LocalDate
}) {
  if (!isUuid(invoiceId)) return null
  const [invoice] = await db()
    .select({
      id: invoices.id,
      number: invoices.number,
      customerId: invoices.customerId,
      customerName: customers.customerName,
      customerEmail: customers.email,
      billingAddress: customers.billingAddress,
      autopayCardLabel: customers.autopayCardLabel,
      periodStart: invoices.periodStart,
      periodEnd: invoices.periodEnd,
      state: invoices.state,
      issuedOn: invoices.issuedOn,
      dueOn: invoices.dueOn,
      subtotalCents: invoices.subtotalCents,
      taxCents: invoices.taxCents,
      totalCents: invoices.totalCents,
      paidCents: invoices.paidCents,
      creditAppliedCents: invoices.creditAppliedCents,
      customerNote: invoices.customerNote,
      sentAt: invoices.sentAt,
      voidedAt: invoices.voidedAt,
      autopayAttempts: invoices.autopayAttempts,
      delivery: invoices.delivery,
      workOrderNumber: workOrderNumberSql,
    })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
    .where(
      and(
        eq(invoices.companyId, companyId),
        eq(invoices.id, invoiceId),
        customerId ? and(eq(invoices.customerId, customerId), sql`${invoices.state} <> 'draft'`) : undefined,
      ),
    )
  if (!invoice) return null
  const [lines, paid] = await Promise.all([
    db()
      .select({
        id: invoiceLines.id,
        kind: invoiceLines.kind,
        description: invoiceLines.description,
        quantity: invoiceLines.quantity,
        unitCents: invoiceLines.unitCents,
        amountCents: invoiceLines.amountCents,
        /** A "Late completions" line (docs/billing.md). */
        late: sql<boolean>`${invoiceLines.jobId} is not null`.mapWith(Boolean),
      })
      .from(invoiceLines)
      .where(and(eq(invoiceLines.companyId, companyId), eq(invoiceLines.invoiceId, invoiceId)))
      .orderBy(asc(invoiceLines.position)),
    db()
      .select({
        id: payments.id,
        amountCents: payments.amountCents,
        refundedCents: refundedCentsOf(payments.id),
        receivedOn: payments.receivedOn,
        method: payments.method,
        reference: payments.reference,
        flag: payments.flag,
        stripePaymentIntentId: payments.stripePaymentIntentId,
        recordedBy: profiles.fullName,
        // "Void payment" (docs/decisions/037-payment-voids.md): a void payment stays listed, with its reason.
        voidedAt: paymentVoids.voidedAt,
        voidReason: paymentVoids.reason,
        // A quote's deposit credited to its work order's invoice ("Deposit received", docs/work-orders.md).
        deposit: sql<boolean>`exists (select 1 from quote_deposits qd where qd.company_id = ${payments.companyId}
          and qd.payment_id = ${payments.id})`.mapWith(Boolean),
      })
      .from(payments)
      .leftJoin(profiles, eq(profiles.id, payments.recordedBy))
      .leftJoin(paymentVoids, eq(paymentVoids.paymentId, payments.id))
      .where(and(eq(payments.companyId, companyId), eq(payments.invoiceId, invoiceId)))
      .orderBy(asc(payments.receivedOn), asc(payments.createdAt)),
  ])
  return {
    ...invoice,
    numberLabel: invoiceNumberLabel(invoice.number),
    periodLabel: invoiceSubjectLabel(
      invoice.periodStart ? periodLabel({ start: invoice.periodStart, end: invoice.periodEnd ?? '' }) : null,
      invoice.workOrderNumber,
    ),
    status: invoiceStatus(invoice, today),
    outstandingCents: outstandingCents(invoice),
    lines,
    payments: paid,
  }
}

export type InvoiceDetail = NonNullable<Awaited<ReturnType<typeof getInvoice>>>

/**
 * "Void invoice": the invoice stays with its number and counts for nothing; payments on it become the customer's
 * credit, credit it had applied is released, and so are the late completions it billed.
 */
export async function voidInvoice({
  companyId,
  invoiceId,
  now = new Date(),
}: {
  companyId: string
  invoiceId: string
  now?: Date
}): Promise<Result> {
  if (!isUuid(invoiceId)) return failure('not-found', 'Invoice not found.')
  const row = await db().transaction(async (tx) => {
    const [voided] = await tx
      .update(invoices)
      .set({ state: 'void', voidedAt: now, autopayNextAt: null })
      .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId), sql`${invoices.state} <> 'void'`))
      .returning({ id: invoices.id })
    // Its late completions are billed no more: the next invoice, or its re-issue, bills them (docs/billing.md).
    if (voided) {
      await tx
        .update(billedVisits)
        .set({ releasedAt: now })
        .where(
          and(
            eq(billedVisits.companyId, companyId),
            eq(billedVisits.invoiceId, invoiceId),
            isNull(billedVisits.releasedAt),
          ),
        )
    }
    return voided
  })
  if (row) return success({})
  const [exists] = await db()
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId)))
  return exists ? failure('conflict', 'This invoice is already void.') : failure('not-found', 'Invoice not found.')
}

/**
 * The customers with a draft invoice this month and no email address (issue 31 item 4): "Send invoices" names them
 * before it sends, since their invoices go on paper.
 */
export async function draftCustomersWithoutEmail({ companyId, period }: { companyId: string; period: BillingPeriod }) {
  const rows = await db()
    .select({ customerName: customers.customerName })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
    .where(
      and(
        eq(invoices.companyId, companyId),
        eq(invoices.state, 'draft'),
        eq(invoices.periodStart, period.start),
        sql`coalesce(trim(${customers.email}), '') = ''`,
      ),
    )
    .orderBy(asc(customers.customerName))
  return rows.map((row) => row.customerName)
}

/**
 * The print batch of a month (issue 31 item 4): its invoices, drafts and sent, whose customer has no email address —
 * the ones "Send invoices" puts on paper — by number. Void invoices are left out.
 */
export async function printBatchInvoiceIds({ companyId, period }: { companyId: string; period: BillingPeriod }) {
  const rows = await db()
    .select({ id: invoices.id })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
    .where(
      and(
        eq(invoices.companyId, companyId),
        eq(invoices.periodStart, period.start),
        sql`${invoices.state} <> 'void'`,
        sql`coalesce(trim(${customers.email}), '') = ''`,
      ),
    )
    .orderBy(asc(invoices.number))
  return rows.map((row) => row.id)
}
