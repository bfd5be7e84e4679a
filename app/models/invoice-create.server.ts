// "Create invoices" (docs/billing.md, issue #21): a month's drafts previewed (nothing written), then written. The
// arithmetic is app/billing/invoice-draft.ts; this module reads what it needs in a fixed number of statements
// (whatever the number of customers), and writes in one transaction that first locks the company's row: two requests
// creating the same month run one after the other, the second finds every invoice made, and numbers are taken from
// the company's counter in that transaction — no gaps, no duplicates (the unique keys would refuse both anyway).
import { and, asc, eq, gte, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm'
import {
  type BillingPeriod,
  type ChemicalUse,
  type DraftLine,
  draftInvoice,
  type InvoiceDraft,
  type LateVisit,
  type PlanToBill,
  planActiveIn,
  type RateChange,
} from '~/billing/invoice-draft'
import type { TaxRule } from '~/billing/tax'
import {
  companies,
  customers,
  invoiceLines,
  invoices,
  planRateChanges,
  serviceLocations,
  servicePlans,
  visitChemicalAdditions,
  visits,
} from '~/db/schema'
import type { IsoWeekday, LocalDate } from '~/schedule/local-date'
import type { FrequencyWeeks } from '~/schedule/recurrence'
import { type Database, db } from '~/utils/db.server'
import { creditsByCustomer } from './customer-credit.server'
import { customerOfLocation, locationOfPlan } from './joins.server'
import { billedLineValues, claimVisits, lateCompletions, notBilledLate } from './late-completions.server'
import { rateInForceSql } from './plan-rate.server'
import { taxRuleOf } from './tax-rate.server'

/** Rows per insert statement when writing a month's invoices (well under PostgreSQL's 65,535 parameters). */
const INSERT_CHUNK = 1000

type MonthBillables = {
  itemizeChemicals: boolean
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
    .select({ itemizeChemicals: companies.itemizeChemicals })
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
      completedVisits: sql<number>`(select count(*) from ${visits} j where j.company_id = ${servicePlans.companyId}
        and j.plan_id = ${servicePlans.id} and j.completed_at is not null
        and j.occurrence_date between ${period.start} and ${period.end} and ${notBilledLate(sql`j`)})`.mapWith(Number),
    })
    .from(servicePlans)
    .innerJoin(serviceLocations, locationOfPlan)
    .innerJoin(customers, customerOfLocation)
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
      planId: sql<string>`${visits.planId}`,
      product: visitChemicalAdditions.product,
      unit: visitChemicalAdditions.unit,
      quantityHundredths: sql<number>`round(sum(${visitChemicalAdditions.quantity}) * 100)::integer`.mapWith(Number),
      unitPriceCents: sql<number>`max(inventory_items.price_cents)`.mapWith(Number),
    })
    .from(visitChemicalAdditions)
    .innerJoin(
      visits,
      and(eq(visits.companyId, visitChemicalAdditions.companyId), eq(visits.id, visitChemicalAdditions.visitId)),
    )
    .innerJoin(
      sql`inventory_items`,
      sql`inventory_items.company_id = ${visitChemicalAdditions.companyId} and inventory_items.id = ${visitChemicalAdditions.inventoryItemId}`,
    )
    .where(
      and(
        eq(visitChemicalAdditions.companyId, companyId),
        isNotNull(visits.planId),
        isNotNull(visits.completedAt),
        gte(visits.occurrenceDate, period.start),
        lte(visits.occurrenceDate, period.end),
      ),
    )
    .groupBy(visits.planId, visitChemicalAdditions.product, visitChemicalAdditions.unit, sql`inventory_items.id`)
    .orderBy(visits.planId, visitChemicalAdditions.product, visitChemicalAdditions.unit)
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
        .select({ planId: sql<string>`${visits.planId}`, on: sql<string>`${visits.occurrenceDate}` })
        .from(visits)
        .where(
          and(
            eq(visits.companyId, companyId),
            inArray(visits.planId, [...new Set(changeRows.map((row) => row.planId))]),
            isNotNull(visits.completedAt),
            gte(visits.occurrenceDate, period.start),
            lte(visits.occurrenceDate, period.end),
            notBilledLate(visits),
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
    itemizeChemicals: company?.itemizeChemicals ?? true,
    tax,
    customers: [...byCustomer.values()],
    invoiced: new Set(invoicedRows.map((row) => row.customerId)),
  }
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
      itemizeChemicals: billables.itemizeChemicals,
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
        ...billedLineValues(companyId, rows[i]?.id ?? '', position + 1, line),
        taxMilliPercent: line.taxMilliPercent ?? null,
      })),
    )
    for (let at = 0; at < lines.length; at += INSERT_CHUNK) {
      const written = await tx
        .insert(invoiceLines)
        .values(lines.slice(at, at + INSERT_CHUNK))
        .returning({ id: invoiceLines.id, invoiceId: invoiceLines.invoiceId, visitId: invoiceLines.visitId })
      await claimVisits(tx, companyId, written)
    }
  }
}
