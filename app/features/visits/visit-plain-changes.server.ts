// The visit page's plain forms (no JavaScript; docs/product.md "The visit"): the checklist, a reading, a chemical,
// the notes, "Mark Complete" and "Skip visit", as the visit route's action calls them for the technician or the office.
// Each builds the FieldChange the phone's queue sends and hands it to applyFieldChange
// (app/models/visit-work.server.ts), so who may change the visit, the refusals of a visit reassigned, completed or
// canceled, and their messages are the phone's, whichever way the change came. The form's own schema first checks what
// was typed, as the phone does in the browser before it queues.
import { createHash } from 'node:crypto'
import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { type CompanyMember, refusalStatus } from '~/auth/guards.server'
import { FieldChangeSchema, type VisitChange, VisitNotesSchema } from '~/field/changes'
import { listChecklist, listVisitChecks } from '~/models/checklist.server'
import { readIdempotencyKey } from '~/models/idempotency.server'
import { SkipVisitSchema } from '~/models/service-plan-schemas'
import { applyFieldChange } from '~/models/visit-work.server'
import { CHEMICAL_MESSAGES, ChemicalAdditionSchema } from '~/utils/chemicals'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { redirectWithFlash } from '~/utils/flash.server'
import { type Failure, failure } from '~/utils/result'
import { formFields } from './form-fields'
import { VisitChecklistSchema } from './visit-page-schema'
import { READING_SAVED, ReadingFormSchema } from './visit-reading'

export const VISIT_MESSAGES = {
  checklistSaved: 'Checklist saved.',
  notesSaved: 'Notes saved.',
  skipped: 'Visit skipped.',
} as const

/**
 * The key of one change a plain form makes. A form that is one change (a reading, a chemical, a skip, "Mark
 * Complete") is keyed by the form's own key, so the idempotency table settles its double submit as for any other
 * form; a form of several changes (the checklist, the notes) derives a key for each from the form's key and what the
 * change is, so the same form posted again makes each of its changes once. A form without a key ("Mark Complete",
 * "Skip visit", a page from before keys) gets fresh ones.
 */
export function changeKey(formKey: string | null, part: string | null) {
  if (!formKey) return crypto.randomUUID()
  if (part === null) return formKey
  const hex = createHash('sha256').update(`${formKey}:${part}`).digest('hex')
  // A UUID (version 8: made by us) so the idempotency table's uuid column takes it.
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** One change of a plain form, and the part of the form it is (null: the form is this one change). */
type PlainChange = { part: string | null; change: VisitChange }

/**
 * Applies a plain form's changes to the visit in order, through the phone's function; the first refusal stops there
 * and is returned (null when every change was applied).
 */
async function applyPlainChanges(
  member: CompanyMember,
  visitId: string,
  formData: FormData,
  changes: PlainChange[],
): Promise<Failure | null> {
  const formKey = readIdempotencyKey(formData)
  if (!formKey.ok) return formKey
  const madeAt = new Date().toISOString()
  try {
    for (const { part, change } of changes) {
      // Read as the phone's change is (FieldChangeSchema): the same limits whichever way it came.
      const parsed = FieldChangeSchema.safeParse({ key: changeKey(formKey.key, part), visitId, madeAt, change })
      if (!parsed.success)
        return failure('invalid', parsed.error.issues[0]?.message ?? 'This change could not be read.')
      const answer = await applyFieldChange(member, parsed.data)
      if (!answer.ok) return failure(answer.code, answer.message, answer.field)
    }
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    throw error
  }
  return null
}

/** A parsed plain form (only its `reply` is needed here). */
type Parsed = Pick<Submission<unknown>, 'reply'>

/** A plain form's refusal as its Conform reply: at the field the failure names, else above the form. */
function refuse<Intent extends string>(intent: Intent, submission: Parsed, failed: Failure) {
  const result = submission.reply(
    failed.field ? { fieldErrors: { [failed.field]: [failed.message] } } : { formErrors: [failed.message] },
  )
  return data({ intent, result, ok: null }, refusalStatus(failed))
}

/** "Save checklist": the form carries the set of ticked items; each tick or untick that differs is one change. */
export async function saveChecklistAction(member: CompanyMember, visitId: string, formData: FormData) {
  const intent = 'checklist' as const
  const submission = parseWithZod(formData, { schema: VisitChecklistSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply(), ok: null }, 400)
  const wanted = new Set(submission.value.itemId)
  const [items, ticks] = await Promise.all([
    listChecklist(member.companyId),
    listVisitChecks({ companyId: member.companyId, visitId: visitId }),
  ])
  const ticked = new Set(ticks.map((tick) => tick.itemId))
  const changes = items
    .filter((item) => wanted.has(item.id) !== ticked.has(item.id))
    .map((item): PlainChange => {
      const checked = wanted.has(item.id)
      return { part: `check:${item.id}:${checked}`, change: { type: 'check', itemId: item.id, checked } }
    })
  const refused = await applyPlainChanges(member, visitId, formData, changes)
  if (refused) return refuse(intent, submission, refused)
  return redirectWithFlash(`/app/visits/${visitId}`, VISIT_MESSAGES.checklistSaved)
}

/** "Save notes": both notes as they now read, each one change. */
export async function saveNotesAction(member: CompanyMember, visitId: string, formData: FormData) {
  const intent = 'notes' as const
  const submission = parseWithZod(formData, { schema: VisitNotesSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply(), ok: null }, 400)
  const notes = [
    { audience: 'office' as const, text: submission.value.officeNote },
    { audience: 'customer' as const, text: submission.value.customerNote },
  ]
  const refused = await applyPlainChanges(
    member,
    visitId,
    formData,
    notes.map((note) => ({
      // The text is part of the change's key: the same form sent again with an edited note is a new change.
      part: `note:${note.audience}:${note.text}`,
      change: { type: 'note', audience: note.audience, text: note.text },
    })),
  )
  if (refused) return refuse(intent, submission, refused)
  return redirectWithFlash(`/app/visits/${visitId}`, VISIT_MESSAGES.notesSaved)
}

/** "Save Reading": the reading as typed, saved once however often the form is posted. */
export async function saveReadingAction(member: CompanyMember, visitId: string, formData: FormData) {
  const intent = 'reading' as const
  const submission = parseWithZod(formData, { schema: ReadingFormSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply(), ok: null }, 400)
  const refused = await applyPlainChanges(member, visitId, formData, [
    { part: null, change: { type: 'reading', fields: formFields(formData) } },
  ])
  if (refused) return refuse(intent, submission, refused)
  return { intent, result: submission.reply({ resetForm: true }), ok: READING_SAVED }
}

/** A chemical added: recorded, and taken off stock, once however often the form is posted. */
export async function saveChemicalAction(member: CompanyMember, visitId: string, formData: FormData) {
  const intent = 'chemical' as const
  const submission = parseWithZod(formData, { schema: ChemicalAdditionSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply(), ok: null }, 400)
  const refused = await applyPlainChanges(member, visitId, formData, [
    { part: null, change: { type: 'chemical', fields: formFields(formData) } },
  ])
  if (refused) return refuse(intent, submission, refused)
  return { intent, result: submission.reply({ resetForm: true }), ok: CHEMICAL_MESSAGES.saved }
}

/** "Skip visit" with a reason: the visit's own technician, or the office for any technician's visit. */
export async function skipVisitAction(member: CompanyMember, visitId: string, formData: FormData) {
  const intent = 'skip-visit' as const
  const submission = parseWithZod(formData, { schema: SkipVisitSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply(), ok: null }, 400)
  const refused = await applyPlainChanges(member, visitId, formData, [
    { part: null, change: { type: 'skip', fields: formFields(formData) } },
  ])
  if (refused) return refuse(intent, submission, refused)
  return redirectWithFlash(`/app/visits/${visitId}`, VISIT_MESSAGES.skipped)
}

/**
 * "Mark Complete": at once, and back to the dashboard (docs/product.md "Roles"). Posted again by the one who completed
 * it (a second tap, a second tab) it is done, as the first was; a visit completed by someone else, skipped or canceled
 * meanwhile is told why.
 */
export async function completeVisitAction(member: CompanyMember, visitId: string, formData: FormData) {
  const refused = await applyPlainChanges(member, visitId, formData, [{ part: null, change: { type: 'complete' } }])
  if (refused) return data({ intent: 'complete' as const, error: refused.message, ok: null }, refusalStatus(refused))
  throw redirect('/app')
}
