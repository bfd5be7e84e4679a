// A change the technician makes to a visit (docs/product.md "The visit"), as the phone queues it and the server applies
// it. The same shape travels online and offline: the page queues every change, the queue sends it (now, or when the
// connection returns) to POST /app/field/changes, and the server applies it once per `key` (idempotency_keys).
// Readings, chemicals and skips carry the fields of their forms as typed, so the server parses them with the very
// schemas the forms use (chem-reading.ts, chemicals.ts, SkipVisitSchema): one set of rules online and offline.
import { z } from 'zod'

const FormFields = z.record(z.string().max(64), z.string().max(2000))

export const NOTE_MAX = 2000

/** A note's text, as the phone queues it and as the plain "Save notes" form posts it. */
const NoteText = z.string().max(NOTE_MAX, `Keep the note under ${NOTE_MAX} characters.`)

/** "Save notes" without JavaScript: both notes at once, each as it now reads. */
export const VisitNotesSchema = z.object({ officeNote: NoteText.default(''), customerNote: NoteText.default('') })

export const VisitChangeSchema = z.discriminatedUnion('type', [
  /** A checklist tick (checked) or untick. */
  z.object({ type: z.literal('check'), itemId: z.uuid(), checked: z.boolean() }),
  /** The Chemical Test form's fields. */
  z.object({ type: z.literal('reading'), fields: FormFields }),
  /** The chemicals-added form's fields. */
  z.object({ type: z.literal('chemical'), fields: FormFields }),
  /** "Note for office" or "Note for customer": the whole note as it now reads (the last one sent wins). */
  z.object({
    type: z.literal('note'),
    audience: z.enum(['office', 'customer']),
    text: NoteText,
  }),
  /** "Mark Complete" (sent after its 10 seconds of "Undo" have passed). */
  z.object({ type: z.literal('complete') }),
  /** "On my way": the customer is told, with an arrival estimate from the route (once per visit). */
  z.object({ type: z.literal('on-my-way') }),
  /** "Skip visit": the skip form's fields (reason, otherReason). */
  z.object({ type: z.literal('skip'), fields: FormFields }),
])
export type VisitChange = z.infer<typeof VisitChangeSchema>

/** What the phone sends: one change of one visit, with its idempotency key and when it was made on the phone. */
export const FieldChangeSchema = z.object({
  key: z.uuid(),
  visitId: z.uuid(),
  /** When the technician made the change (the phone's clock): a reading taken offline keeps its time. */
  madeAt: z.iso.datetime({ offset: true }),
  change: VisitChangeSchema,
})
export type FieldChange = z.infer<typeof FieldChangeSchema>

/**
 * The server's answer. `refused` is final (the visit was reassigned, canceled or completed by someone else, or the
 * change is invalid): the phone shows it with what was not applied and never sends it again. Anything else (a
 * network error, 5xx, 429) is retried; 401 waits for the technician to sign in again.
 */
export type FieldChangeAnswer =
  | { ok: true; replayed?: boolean }
  | {
      ok: false
      refused: true
      /** 'key-reused' (422): the key was already used for another change, visit or user. */
      code: 'not-found' | 'conflict' | 'invalid' | 'forbidden' | 'key-reused'
      message: string
      /** The form field the refusal belongs at (the chemical's quantity), for a plain form to show it there. */
      field?: string
    }

export const FIELD_CHANGES_PATH = '/app/field/changes'

/**
 * Whose change the phone is sending (the user id recorded when it was queued, decision 030). The server refuses it
 * under anyone else's session (FIELD_NOT_YOURS), and the phone keeps it for the person who made it.
 */
export const FIELD_OWNER_HEADER = 'X-Pool-Bud-Owner'

/** The answer to a change sent under another person's session: it is never applied, and waits on the phone. */
export const FIELD_NOT_YOURS = {
  ok: false,
  otherPerson: true,
  message: 'This change was made by someone else on this phone. It waits for them to sign in.',
} as const

// ---- The technician's clock (docs/time.md) ------------------------------------------------------------------

/** "Start day", "Break", "Back", "End day": the time events the phone queues (the same as the database's kinds). */
export const CLOCK_KINDS = ['start', 'break-start', 'break-end', 'end'] as const
export type ClockKind = (typeof CLOCK_KINDS)[number]

/**
 * One tap of the clock as the phone sends it: `id` is the queue's key and the event's id in the database, so the
 * same tap sent twice (or twice at once) is one event; `madeAt` is the phone's clock when it was tapped.
 */
export const ClockChangeSchema = z.object({
  id: z.uuid(),
  kind: z.enum(CLOCK_KINDS),
  madeAt: z.iso.datetime({ offset: true }),
})
export type ClockChange = z.infer<typeof ClockChangeSchema>

export const FIELD_CLOCK_PATH = '/app/field/clock'

/** The queue keeps clock taps beside visit changes; they belong to no visit, and are grouped under this name. */
export const CLOCK_QUEUE_ID = 'clock'
