// Editing a draft invoice (issue 31 item 1; docs/billing.md, docs/decisions/036-editable-drafts.md): "Add line",
// edit a line, "Remove line", a discount line and "Note for customer". Only a draft changes. Every change runs in one
// transaction that locks the draft's row (FOR UPDATE) and checks it is still a draft — one sent meanwhile is refused
// with "This invoice was sent: void it and issue a new one" — and recomputes the subtotal, the tax line and the total
// from the lines it has then: each line rounded half up to the cent, tax on the subtotal as the draft builder does it,
// the total the sum of the lines. A sent invoice is fixed: "Void invoice", then "Re-issue" copies its lines into a new
// draft with a new number.
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { invoiceNumberLabel } from '~/billing/billing-fields'
import { hundredthsOf, lineAmountCents, quantityText } from '~/billing/line-math'
import { taxLinesFor } from '~/billing/tax'
import { companies, inventoryItems, invoiceLines, invoices } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { creditsByCustomer } from './customer-credit.server'
import { billedLineValues, claimVisits, lateCompletions } from './late-completions.server'
import { taxRuleOf } from './tax-rate.server'

export const DRAFT_MESSAGES = {
  notFound: 'Invoice not found.',
  lineNotFound: 'That line is not on this invoice.',
  sent: 'This invoice was sent: void it and issue a new one.',
  void: 'This invoice is void: re-issue it to bill again.',
  taxLine: 'The tax line follows from the other lines; change those instead.',
  negative: 'A discount cannot make the total less than $0.00.',
  itemNotFound: 'That inventory item was not found.',
  noPrice: 'Enter a unit price.',
  tooLarge: 'That line is too large.',
  notVoid: 'Only a void invoice can be re-issued.',
  periodTaken: 'This customer already has a live invoice for that month.',
  nothingToCopy: 'This invoice has no lines to copy.',
} as const

/** Lines above this (in cents) are refused: an integer column, and no pool service bills a million dollars a line. */
const MAX_LINE_CENTS = 100_000_000

/** 250 → "2.50", as the numeric column stores it. */
const quantityColumn = quantityText

// The one line math (app/billing/line-math.ts), still offered here for the draft editor's callers.
export { hundredthsOf, lineAmountCents }

type Locked = { id: string; customerId: string; number: number; creditAppliedCents: number }

/**
 * Runs `change` on the draft with its row locked, then recomputes its totals. A draft no longer a draft, or another
 * company's invoice, is refused before anything changes.
 */
async function withDraft(
  companyId: string,
  invoiceId: string,
  change: (tx: Database, draft: Locked) => Promise<Result | null>,
): Promise<Result> {
  if (!isUuid(invoiceId)) return failure('not-found', DRAFT_MESSAGES.notFound)
  try {
    return await db().transaction(async (tx) => {
      const [draft] = await tx
        .select({
          id: invoices.id,
          customerId: invoices.customerId,
          number: invoices.number,
          state: invoices.state,
          creditAppliedCents: invoices.creditAppliedCents,
        })
        .from(invoices)
        .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId)))
        .for('update')
      if (!draft) return failure('not-found', DRAFT_MESSAGES.notFound)
      if (draft.state === 'sent') return failure('conflict', DRAFT_MESSAGES.sent)
      if (draft.state === 'void') return failure('conflict', DRAFT_MESSAGES.void)
      const refused = await change(tx, draft)
      if (refused) return refused
      const totals = await recomputeTotals(tx, companyId, draft)
      if (!totals.ok) throw new Refusal(totals)
      return success({})
    })
  } catch (error) {
    if (error instanceof Refusal) return error.result
    throw error
  }
}

/** Thrown to roll a transaction back with a refusal for the office. */
class Refusal extends Error {
  constructor(readonly result: Result) {
    super('refused')
  }
}

/**
 * The draft's subtotal (every line but tax), its tax lines (removed and written again at the end, one per rate in
 * use, as the draft builder does: app/billing/tax.ts; a line not taxable — a work order's from an untaxed quote line,
 * docs/work-orders.md — is left out of them) and total. Credit applied is kept at most the total. Refuses a negative subtotal.
 */
export async function recomputeTotals(tx: Database, companyId: string, draft: Locked): Promise<Result> {
  await tx
    .delete(invoiceLines)
    .where(
      and(eq(invoiceLines.companyId, companyId), eq(invoiceLines.invoiceId, draft.id), eq(invoiceLines.kind, 'tax')),
    )
  const [sums] = await tx
    .select({
      subtotal: sql<number>`coalesce(sum(${invoiceLines.amountCents}), 0)`.mapWith(Number),
      last: sql<number>`coalesce(max(${invoiceLines.position}), 0)`.mapWith(Number),
    })
    .from(invoiceLines)
    .where(and(eq(invoiceLines.companyId, companyId), eq(invoiceLines.invoiceId, draft.id)))
  const subtotalCents = sums?.subtotal ?? 0
  if (subtotalCents < 0) return failure('invalid', DRAFT_MESSAGES.negative)
  if (subtotalCents > MAX_LINE_CENTS) return failure('invalid', DRAFT_MESSAGES.tooLarge)
  const taxable = await tx
    .select({ amountCents: invoiceLines.amountCents, locationId: invoiceLines.locationId })
    .from(invoiceLines)
    .where(
      and(eq(invoiceLines.companyId, companyId), eq(invoiceLines.invoiceId, draft.id), eq(invoiceLines.taxable, true)),
    )
    .orderBy(asc(invoiceLines.position))
  const taxes = taxLinesFor(taxable, await taxRuleOf(tx, companyId))
  if (taxes.length > 0) {
    await tx.insert(invoiceLines).values(
      taxes.map((tax, i) => ({
        companyId,
        invoiceId: draft.id,
        position: (sums?.last ?? 0) + 1 + i,
        kind: 'tax' as const,
        description: tax.description,
        quantity: '1.00',
        unitCents: tax.amountCents,
        amountCents: tax.amountCents,
        taxMilliPercent: tax.milliPercent,
      })),
    )
  }
  const taxCents = taxes.reduce((sum, tax) => sum + tax.amountCents, 0)
  const totalCents = subtotalCents + taxCents
  await tx
    .update(invoices)
    .set({
      subtotalCents,
      taxCents,
      totalCents,
      creditAppliedCents: Math.min(draft.creditAppliedCents, totalCents),
    })
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, draft.id)))
  return success({})
}

async function nextPosition(tx: Database, companyId: string, invoiceId: string) {
  const [row] = await tx
    .select({ last: sql<number>`coalesce(max(${invoiceLines.position}), 0)`.mapWith(Number) })
    .from(invoiceLines)
    .where(and(eq(invoiceLines.companyId, companyId), eq(invoiceLines.invoiceId, invoiceId)))
  return (row?.last ?? 0) + 1
}

/** An inventory item's name and price, only within the company. */
async function itemOf(tx: Database, companyId: string, itemId: string) {
  if (!isUuid(itemId)) return null
  const [item] = await tx
    .select({ name: inventoryItems.name, priceCents: inventoryItems.priceCents })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.id, itemId)))
  return item ?? null
}

export type LineFields = {
  description: string | null
  quantity: string
  /** Null: the inventory item's price. */
  unitCents: number | null
  inventoryItemId: string | null
}

/** Description and unit price filled from the inventory item where left blank; a refusal when neither is there. */
async function resolveLine(tx: Database, companyId: string, fields: LineFields) {
  const item = fields.inventoryItemId ? await itemOf(tx, companyId, fields.inventoryItemId) : null
  if (fields.inventoryItemId && !item) return failure('invalid', DRAFT_MESSAGES.itemNotFound, 'inventoryItemId')
  const description = fields.description?.trim() || item?.name || ''
  if (!description) return failure('invalid', 'Enter a description.', 'description')
  const unitCents = fields.unitCents ?? item?.priceCents ?? null
  if (unitCents === null) return failure('invalid', DRAFT_MESSAGES.noPrice, 'unitPrice')
  const hundredths = hundredthsOf(fields.quantity)
  if (hundredths === null || hundredths <= 0) {
    return failure('invalid', 'Enter a quantity above 0, with at most two decimals.', 'quantity')
  }
  const amountCents = lineAmountCents(hundredths, unitCents)
  if (amountCents > MAX_LINE_CENTS) return failure('invalid', DRAFT_MESSAGES.tooLarge, 'unitPrice')
  return success({ description, quantity: quantityColumn(hundredths), unitCents, amountCents })
}

/** "Add line": a custom line (a repair part, a labor charge) at the end of the draft, before its tax. */
export async function addDraftLine({
  companyId,
  invoiceId,
  fields,
}: {
  companyId: string
  invoiceId: string
  fields: LineFields
}): Promise<Result> {
  return withDraft(companyId, invoiceId, async (tx, draft) => {
    const line = await resolveLine(tx, companyId, fields)
    if (!line.ok) return line
    const { ok: _ok, ...values } = line
    await tx.insert(invoiceLines).values({
      companyId,
      invoiceId: draft.id,
      position: await nextPosition(tx, companyId, draft.id),
      kind: 'custom',
      ...values,
    })
    return null
  })
}

/** Edits a line of the draft (not its tax, which follows from the others); its kind and place stay. */
export async function updateDraftLine({
  companyId,
  invoiceId,
  lineId,
  fields,
}: {
  companyId: string
  invoiceId: string
  lineId: string
  fields: LineFields
}): Promise<Result> {
  return withDraft(companyId, invoiceId, async (tx, draft) => {
    const existing = await lineOf(tx, companyId, draft.id, lineId)
    if (!existing.ok) return existing
    const line = await resolveLine(tx, companyId, fields)
    if (!line.ok) return line
    if (existing.kind === 'discount' && line.unitCents > 0) {
      line.unitCents = -line.unitCents
      line.amountCents = -line.amountCents
    }
    if (existing.kind !== 'discount' && line.unitCents < 0) return failure('invalid', 'Enter a price of $0.00 or more.')
    const { ok: _ok, ...values } = line
    await tx.update(invoiceLines).set(values).where(eq(invoiceLines.id, existing.id))
    return null
  })
}

async function lineOf(tx: Database, companyId: string, invoiceId: string, lineId: string) {
  if (!isUuid(lineId)) return failure('not-found', DRAFT_MESSAGES.lineNotFound)
  const [line] = await tx
    .select({ id: invoiceLines.id, kind: invoiceLines.kind })
    .from(invoiceLines)
    .where(
      and(eq(invoiceLines.companyId, companyId), eq(invoiceLines.invoiceId, invoiceId), eq(invoiceLines.id, lineId)),
    )
  if (!line) return failure('not-found', DRAFT_MESSAGES.lineNotFound)
  if (line.kind === 'tax') return failure('conflict', DRAFT_MESSAGES.taxLine)
  return success(line)
}

/** "Remove line" (asked first on the page). */
export async function removeDraftLine({
  companyId,
  invoiceId,
  lineId,
}: {
  companyId: string
  invoiceId: string
  lineId: string
}): Promise<Result> {
  return withDraft(companyId, invoiceId, async (tx, draft) => {
    const existing = await lineOf(tx, companyId, draft.id, lineId)
    if (!existing.ok) return existing
    await tx.delete(invoiceLines).where(eq(invoiceLines.id, existing.id))
    return null
  })
}

/** "Add discount": a line of minus `amountCents`, refused when it would make the total negative. */
export async function addDraftDiscount({
  companyId,
  invoiceId,
  description,
  amountCents,
}: {
  companyId: string
  invoiceId: string
  description: string
  amountCents: number
}): Promise<Result> {
  if (!Number.isInteger(amountCents) || amountCents <= 0) {
    return failure('invalid', 'Enter a discount above $0.00.', 'amount')
  }
  return withDraft(companyId, invoiceId, async (tx, draft) => {
    await tx.insert(invoiceLines).values({
      companyId,
      invoiceId: draft.id,
      position: await nextPosition(tx, companyId, draft.id),
      kind: 'discount',
      description: description.trim() || 'Discount',
      quantity: '1.00',
      unitCents: -amountCents,
      amountCents: -amountCents,
    })
    return null
  })
}

/** "Note for customer": saved on the draft (blank clears it); shown on the invoice wherever the customer reads it. */
export async function setDraftNote({
  companyId,
  invoiceId,
  note,
}: {
  companyId: string
  invoiceId: string
  note: string
}): Promise<Result> {
  return withDraft(companyId, invoiceId, async (tx, draft) => {
    await tx
      .update(invoices)
      .set({ customerNote: note.trim() || null })
      .where(and(eq(invoices.companyId, companyId), eq(invoices.id, draft.id)))
    return null
  })
}

/**
 * "Re-issue" a void invoice: a new draft with the next number, the same customer and period, and copies of its lines
 * (tax recomputed; the note kept). The company's row is locked for the number, as "Create invoices" does; the month's
 * one-live-invoice key refuses a second live invoice for the period.
 */
export async function reissueInvoice({
  companyId,
  invoiceId,
}: {
  companyId: string
  invoiceId: string
}): Promise<Result<{ invoiceId: string; numberLabel: string }>> {
  if (!isUuid(invoiceId)) return failure('not-found', DRAFT_MESSAGES.notFound)
  try {
    return await db().transaction(async (tx) => {
      const [company] = await tx
        .select({ next: companies.nextInvoiceNumber })
        .from(companies)
        .where(eq(companies.id, companyId))
        .for('update')
      const [old] = await tx
        .select()
        .from(invoices)
        .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId)))
      if (!company || !old) return failure('not-found', DRAFT_MESSAGES.notFound)
      if (old.state !== 'void') return failure('conflict', DRAFT_MESSAGES.notVoid)
      if (old.periodStart) {
        const [live] = await tx
          .select({ id: invoices.id })
          .from(invoices)
          .where(
            and(
              eq(invoices.companyId, companyId),
              eq(invoices.customerId, old.customerId),
              eq(invoices.periodStart, old.periodStart),
              inArray(invoices.state, ['draft', 'sent']),
            ),
          )
        if (live) return failure('conflict', DRAFT_MESSAGES.periodTaken)
      }
      const lines = await tx
        .select()
        .from(invoiceLines)
        .where(and(eq(invoiceLines.companyId, companyId), eq(invoiceLines.invoiceId, old.id)))
        .orderBy(asc(invoiceLines.position))
      // A late completion is copied only while it is still one: not billed meanwhile by another invoice (after the
      // void released it), nor counted since by its month's invoice made again (docs/billing.md, "Late completions").
      const visitIds = lines.flatMap((line) => (line.visitId ? [line.visitId] : []))
      const stillLate = new Set((await lateCompletions(tx, companyId, { visitIds })).map((visit) => visit.visitId))
      const copied = lines.filter((line) => line.kind !== 'tax' && (!line.visitId || stillLate.has(line.visitId)))
      if (copied.length === 0) return failure('conflict', DRAFT_MESSAGES.nothingToCopy)
      const [fresh] = await tx
        .insert(invoices)
        .values({
          companyId,
          customerId: old.customerId,
          number: company.next,
          periodStart: old.periodStart,
          periodEnd: old.periodEnd,
          subtotalCents: 0,
          taxCents: 0,
          totalCents: 0,
          customerNote: old.customerNote,
          // The month's visits were counted when the original was made: one completed since is still late.
          visitsCountedAt: old.visitsCountedAt,
        })
        .returning({ id: invoices.id })
      if (!fresh) throw new Error('no invoice inserted')
      await tx
        .update(companies)
        .set({ nextInvoiceNumber: company.next + 1 })
        .where(eq(companies.id, companyId))
      const written = await tx
        .insert(invoiceLines)
        .values(
          copied.map((line, i) => ({ ...billedLineValues(companyId, fresh.id, i + 1, line), taxable: line.taxable })),
        )
        .returning({ id: invoiceLines.id, invoiceId: invoiceLines.invoiceId, visitId: invoiceLines.visitId })
      await claimVisits(tx, companyId, written)
      // The customer's credit (the void invoice's payments among it) is applied as "Create invoices" applies it.
      const credit = (await creditsByCustomer(tx, companyId, [old.customerId])).get(old.customerId) ?? 0
      const draft = { id: fresh.id, customerId: old.customerId, number: company.next, creditAppliedCents: credit }
      const totals = await recomputeTotals(tx, companyId, draft)
      if (!totals.ok) throw new Refusal(totals)
      return success({ invoiceId: fresh.id, numberLabel: invoiceNumberLabel(company.next) })
    })
  } catch (error) {
    if (error instanceof Refusal) return error.result as Result<never>
    throw error
  }
}
