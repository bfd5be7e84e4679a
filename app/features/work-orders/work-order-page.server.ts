// The server part of work orders' screens (issue 33 items 4 and 6; docs/work-orders.md): the list, the work order's
// page and its actions ("Complete work order", "Create invoice"), "Create work order" and "Record deposit" on an
// approved quote, and "Record part used" on a visit. The routes check who may; money ("Create invoice", "Record
// deposit") also asks for billing (owners and admins), as every invoice and payment does.
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { type CompanyMember, notFound, refusalStatus, requireMemberCapability } from '~/auth/guards.server'
import { invoiceNumberLabel } from '~/billing/billing-fields'
import { quantityText } from '~/billing/line-math'
import { visitState } from '~/models/visit-state'
import { listTechnicians } from '~/models/week-board.server'
import { completeWorkOrder, createWorkOrder, recordPartUsed, TEMPLATE_LABELS } from '~/models/work-order.server'
import { createWorkOrderInvoice, quoteDepositCents, recordQuoteDeposit } from '~/models/work-order-invoice.server'
import {
  getWorkOrder,
  listWorkOrders,
  stockChoices,
  type WorkOrderDetail,
  workOrderExists,
  workOrderOfQuote,
  workOrderOfVisit,
} from '~/models/work-order-read.server'
import { localDateAt } from '~/schedule/local-date'
import { formatDate, formatDateTime } from '~/utils/dates'
import { equipmentLabel, underWarranty } from '~/utils/equipment'
import { redirectWithFlash } from '~/utils/flash.server'
import { formatCents } from '~/utils/money'
import { readPage } from '~/utils/paging'
import { can } from '~/utils/permissions'
import type { Failure } from '~/utils/result'
import { CreateWorkOrderSchema, PartUsedSchema, RecordDepositSchema, readStateFilter } from './work-order-schemas'

/** What the work-order forms' actions answer: the form's reply, or a refusal with no form. */
export type WorkOrderReply = {
  intent: string
  result?: SubmissionResult<string[]>
  ok?: string
  saved?: string
  error?: string
}

type Member = Pick<CompanyMember, 'id' | 'companyId' | 'timezone' | 'role'>

const todayOf = (member: Member) => localDateAt(new Date(), member.timezone)

export async function loadWorkOrderList(member: Member, url: URL) {
  const page = readPage(url)
  const state = readStateFilter(url.searchParams.get('state'))
  const list = await listWorkOrders({ companyId: member.companyId, state, page })
  return {
    page,
    state: state ?? '',
    hasNext: list.hasNext,
    workOrders: list.workOrders.map((row) => ({
      id: row.id,
      numberLabel: row.numberLabel,
      customerName: row.customerName,
      quoteLabel: row.quoteLabel,
      state: row.state === 'completed' ? 'Completed' : 'Open',
      created: formatDate(row.createdAt, member.timezone),
      progress: `${row.visitsDone} of ${row.visits} visits done`,
    })),
  }
}

function presentLine(line: WorkOrderDetail['lines'][number]) {
  return {
    id: line.id,
    description: line.description,
    quantity: quantityText(line.quantityHundredths).replace(/\.00$/, ''),
    amount: formatCents(line.amountCents),
    optional: line.optional,
  }
}

function presentPartsUsed(parts: WorkOrderDetail['partsUsed'], timezone: string) {
  return parts.map((part) => ({
    id: part.id,
    description: part.description,
    quantity: part.quantity,
    unitPrice: formatCents(part.unitPriceCents),
    recorded: `${part.recordedByName ?? 'A teammate'}, ${formatDateTime(part.recordedAt, timezone)}`,
  }))
}

export async function loadWorkOrderPage(member: Member, workOrderId: string) {
  const order = await getWorkOrder(member.companyId, workOrderId)
  if (!order) notFound()
  const deposit = await quoteDepositCents(member.companyId, order.quoteId)
  return {
    canInvoice: can(member.role, 'billing:manage'),
    workOrder: {
      id: order.id,
      numberLabel: order.numberLabel,
      state: order.state,
      template: order.template ? TEMPLATE_LABELS[order.template] : null,
      notes: order.notes,
      completed: order.completedAt ? formatDateTime(order.completedAt, member.timezone) : null,
      customerId: order.customerId,
      customerName: order.customerName,
      quoteId: order.quoteId,
      quoteLabel: order.quoteLabel,
      version: order.version,
      approvedTotal: order.approvedTotalCents === null ? null : formatCents(order.approvedTotalCents),
      deposit: deposit > 0 ? formatCents(deposit) : null,
      invoiceId: order.invoiceId,
      invoiceLabel: order.invoiceNumber ? invoiceNumberLabel(order.invoiceNumber) : null,
      // "For: Pentair IntelliFlo pump (SN …)" and "Under warranty" when the work order was made within it.
      equipment:
        order.equipmentId && order.equipmentKind
          ? {
              id: order.equipmentId,
              label: equipmentLabel({
                kind: order.equipmentKind,
                make: order.equipmentMake,
                model: order.equipmentModel,
                serial: order.equipmentSerial,
              }),
              underWarranty: underWarranty(order.warrantyUntil, localDateAt(order.createdAt, member.timezone)),
            }
          : null,
      allVisitsDone: order.allVisitsDone,
      visits: order.visits.map((visit) => ({
        visitId: visit.visitId,
        position: visit.position,
        title: visit.title ?? `Visit ${visit.position}`,
        when: formatDateTime(visit.scheduledAt, member.timezone),
        technician: visit.technicianName ?? 'Unassigned',
        // The badge's word every screen shows for a visit (decision 066): an open one from before today is overdue.
        status: visitState(visit, { now: new Date(), timezone: member.timezone }),
      })),
      parts: order.parts.map(presentLine),
      lines: order.lines.map(presentLine),
      partsUsed: presentPartsUsed(order.partsUsed, member.timezone),
    },
  }
}

function refusedReply(intent: string, failed: Failure) {
  if (failed.code === 'not-found') notFound()
  return data<WorkOrderReply>({ intent, error: failed.message }, refusalStatus(failed))
}

export async function workOrderAction(member: Member, workOrderId: string, intent: string) {
  // Another company's work order is the 404 page before anything else.
  if (!(await workOrderExists(member.companyId, workOrderId))) notFound()
  const back = `/app/work-orders/${workOrderId}`
  if (intent === 'complete') {
    const done = await completeWorkOrder({ companyId: member.companyId, workOrderId })
    if (!done.ok) return refusedReply(intent, done)
    return redirectWithFlash(back, 'Work order completed.')
  }
  if (intent === 'create-invoice') {
    requireMemberCapability(member, 'billing:manage')
    const made = await createWorkOrderInvoice({ companyId: member.companyId, workOrderId })
    if (!made.ok) return refusedReply(intent, made)
    const deposit = made.depositCents > 0 ? ` Deposit received: ${formatCents(made.depositCents)}.` : ''
    return redirectWithFlash(
      `/app/invoices/${made.invoiceId}`,
      made.created ? `Invoice ${made.numberLabel} created.${deposit}` : `Invoice ${made.numberLabel} was already made.`,
    )
  }
  return null
}

/** The approved quote's work-order part of its page: the work order made, or what "Create work order" needs. */
export async function loadQuoteWorkOrder(member: Member, quoteId: string, approved: boolean) {
  if (!approved) return null
  const [workOrder, technicians, deposit] = await Promise.all([
    workOrderOfQuote(member.companyId, quoteId),
    listTechnicians(member.companyId),
    quoteDepositCents(member.companyId, quoteId),
  ])
  return {
    workOrder,
    technicians: technicians.map((t) => ({ value: t.id, label: t.name ?? t.email })),
    today: todayOf(member),
    deposit: deposit > 0 ? formatCents(deposit) : null,
    canRecordDeposit: can(member.role, 'billing:manage'),
  }
}

export async function createWorkOrderAction(member: Member, quoteId: string, formData: FormData) {
  const intent = 'create-work-order'
  const submission = parseWithZod(formData, { schema: CreateWorkOrderSchema })
  if (submission.status !== 'success') return data<WorkOrderReply>({ intent, result: submission.reply() }, 400)
  const v = submission.value
  const made = await createWorkOrder({
    companyId: member.companyId,
    quoteId,
    template: v.template === 'none' ? null : v.template,
    startDate: v.startDate,
    visitCount: v.visitCount,
    technicianIds: [v.technician1, v.technician2, v.technician3, v.technician4, v.technician5, v.technician6],
    timezone: member.timezone,
    createdBy: member.id,
  })
  if (!made.ok) {
    if (made.code === 'not-found') notFound()
    return data<WorkOrderReply>(
      { intent, result: submission.reply({ formErrors: [made.message] }), error: made.message },
      refusalStatus(made),
    )
  }
  return redirectWithFlash(
    `/app/work-orders/${made.workOrderId}`,
    made.created ? 'Work order created.' : 'This quote’s work order was already made.',
  )
}

export async function recordDepositAction(member: Member, quoteId: string, formData: FormData) {
  const intent = 'record-deposit'
  requireMemberCapability(member, 'billing:manage')
  const submission = parseWithZod(formData, { schema: RecordDepositSchema })
  if (submission.status !== 'success') return data<WorkOrderReply>({ intent, result: submission.reply() }, 400)
  const v = submission.value
  if (v.receivedOn > todayOf(member)) {
    const message = 'The date cannot be in the future.'
    return data<WorkOrderReply>({ intent, result: submission.reply({ fieldErrors: { receivedOn: [message] } }) }, 400)
  }
  const paid = await recordQuoteDeposit({
    companyId: member.companyId,
    quoteId,
    amountCents: v.amount,
    receivedOn: v.receivedOn,
    method: v.method,
    reference: v.reference,
    recordedBy: member.id,
  })
  if (!paid.ok) {
    if (paid.code === 'not-found') notFound()
    const errors =
      paid.field === 'reference' ? { fieldErrors: { reference: [paid.message] } } : { formErrors: [paid.message] }
    return data<WorkOrderReply>({ intent, result: submission.reply(errors) }, refusalStatus(paid))
  }
  return redirectWithFlash(`/app/quotes/${quoteId}`, `Deposit of ${formatCents(v.amount)} recorded.`)
}

/** The visit page's "Work order WO-0007" section, when the visit belongs to one. */
export async function loadVisitWorkOrder(companyId: string, visitId: string, timezone: string, readOnly: boolean) {
  const order = await workOrderOfVisit(companyId, visitId)
  if (!order) return null
  const stock = readOnly || order.state === 'completed' ? [] : await stockChoices(companyId)
  return {
    numberLabel: order.numberLabel,
    open: order.state === 'open',
    notes: order.notes,
    parts: order.parts.map((line) => ({
      id: line.id,
      description: line.description,
      quantity: quantityText(line.quantityHundredths).replace(/\.00$/, ''),
    })),
    partsUsed: presentPartsUsed(order.partsUsed, timezone),
    stock: stock.map((item) => ({ value: item.id, label: `${item.name} (${item.qty} in stock)` })),
  }
}

/** "Record part used" on a work order's visit; the route has let the member work this visit (a technician: theirs). */
export async function recordPartUsedAction(member: Member, visitId: string, formData: FormData) {
  const intent = 'part-used'
  const submission = parseWithZod(formData, { schema: PartUsedSchema })
  if (submission.status !== 'success') return data<WorkOrderReply>({ intent, result: submission.reply() }, 400)
  const used = await recordPartUsed({
    companyId: member.companyId,
    visitId,
    itemId: submission.value.inventoryItemId,
    quantity: submission.value.quantity,
    recordedBy: member.id,
  })
  if (!used.ok) {
    const errors = used.field
      ? { fieldErrors: { [used.field === 'inventoryItemId' ? 'inventoryItemId' : 'quantity']: [used.message] } }
      : { formErrors: [used.message] }
    return data<WorkOrderReply>({ intent, result: submission.reply(errors) }, refusalStatus(used))
  }
  return data<WorkOrderReply>({
    intent,
    result: submission.reply({ resetForm: true }),
    ok: `Recorded ${used.description}.`,
  })
}
