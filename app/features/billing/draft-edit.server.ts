// The draft editor's posts on the invoice page (issue 31 item 1; docs/billing.md): each parsed with its schema
// (draft-line-form.ts), then done by app/models/invoice-draft-edit.server.ts, which refuses anything but a draft.
// Answers a refusal ({ message, status }) for the page to show next to the form; success redirects with a flash.
import type { CompanyMember } from '~/auth/guards.server'
import {
  addDraftDiscount,
  addDraftLine,
  reissueInvoice,
  removeDraftLine,
  setDraftNote,
  updateDraftLine,
} from '~/models/invoice-draft-edit.server'
import { redirectWithFlash } from '~/utils/flash.server'
import { formatCents } from '~/utils/money'
import type { Failure } from '~/utils/result'
import {
  DraftDiscountSchema,
  DraftLineEditSchema,
  DraftLineRemoveSchema,
  DraftLineSchema,
  DraftNoteSchema,
} from './draft-line-form'

export const DRAFT_INTENTS = ['add-line', 'edit-line', 'remove-line', 'add-discount', 'save-note', 'reissue'] as const
export type DraftIntent = (typeof DRAFT_INTENTS)[number]

type Refused = { refusal: Failure } | { message: string }

function firstIssue(error: { issues: { message: string }[] }) {
  return { message: error.issues[0]?.message ?? 'Check the form.' }
}

/** Does `intent` on the invoice; a redirect (thrown) when done, else what was refused. */
export async function draftEditFromForm({
  member,
  invoice,
  intent,
  formData,
}: {
  member: CompanyMember
  invoice: { id: string; numberLabel: string }
  intent: DraftIntent
  formData: FormData
}): Promise<Refused> {
  const values = Object.fromEntries(formData)
  const at = { companyId: member.companyId, invoiceId: invoice.id }
  const back = `/app/invoices/${invoice.id}`
  const lineFields = (data: {
    description: string | null
    quantity: string
    unitPrice: number | null
    inventoryItemId: string | null
  }) => ({
    description: data.description,
    quantity: data.quantity,
    unitCents: data.unitPrice,
    inventoryItemId: data.inventoryItemId,
  })
  switch (intent) {
    case 'add-line': {
      const form = DraftLineSchema.safeParse(values)
      if (!form.success) return firstIssue(form.error)
      const done = await addDraftLine({ ...at, fields: lineFields(form.data) })
      if (!done.ok) return { refusal: done }
      return redirectWithFlash(back, 'Line added.')
    }
    case 'edit-line': {
      const form = DraftLineEditSchema.safeParse(values)
      if (!form.success) return firstIssue(form.error)
      const done = await updateDraftLine({ ...at, lineId: form.data.lineId, fields: lineFields(form.data) })
      if (!done.ok) return { refusal: done }
      return redirectWithFlash(back, 'Line saved.')
    }
    case 'remove-line': {
      const form = DraftLineRemoveSchema.safeParse(values)
      if (!form.success) return firstIssue(form.error)
      const done = await removeDraftLine({ ...at, lineId: form.data.lineId })
      if (!done.ok) return { refusal: done }
      return redirectWithFlash(back, 'Line removed.')
    }
    case 'add-discount': {
      const form = DraftDiscountSchema.safeParse(values)
      if (!form.success) return firstIssue(form.error)
      const done = await addDraftDiscount({
        ...at,
        description: form.data.description ?? '',
        amountCents: form.data.amount,
      })
      if (!done.ok) return { refusal: done }
      return redirectWithFlash(back, `Discount of ${formatCents(form.data.amount)} added.`)
    }
    case 'save-note': {
      const form = DraftNoteSchema.safeParse(values)
      if (!form.success) return firstIssue(form.error)
      const done = await setDraftNote({ ...at, note: form.data.note })
      if (!done.ok) return { refusal: done }
      return redirectWithFlash(back, 'Note saved.')
    }
    case 'reissue': {
      const done = await reissueInvoice(at)
      if (!done.ok) return { refusal: done }
      return redirectWithFlash(
        `/app/invoices/${done.invoiceId}`,
        `Re-issued ${invoice.numberLabel} as ${done.numberLabel}, a draft.`,
      )
    }
  }
}
