// The forms of Settings → "Checklist" (docs/product.md "The visit") and what the page answers them. Shared by the
// section, the settings route's action and their tests; safe in the browser (no database here).
import type { SubmissionResult } from '@conform-to/react'
import { z } from 'zod'
import { CHECKLIST_LABEL_MAX, CHECKLIST_MESSAGES } from '~/models/checklist-rules'

export const CHECKLIST_INTENTS = [
  'checklist-add',
  'checklist-rename',
  'checklist-move',
  'checklist-photo',
  'checklist-remove',
  'checklist-restore',
] as const
export type ChecklistIntent = (typeof CHECKLIST_INTENTS)[number]

const itemId = z.uuid({ error: 'Unknown checklist item.' })
const label = z
  .string({ error: CHECKLIST_MESSAGES.blank })
  .trim()
  .min(1, CHECKLIST_MESSAGES.blank)
  .max(CHECKLIST_LABEL_MAX, CHECKLIST_MESSAGES.tooLong)

/** "Add item". */
export const AddChecklistItemSchema = z.object({ intent: z.literal('checklist-add'), label })

/** The inline rename of an item. */
export const RenameChecklistItemSchema = z.object({ intent: z.literal('checklist-rename'), itemId, label })

/** "Move up" / "Move down": the button pressed is the direction. */
export const MoveChecklistItemSchema = z.object({
  intent: z.literal('checklist-move'),
  itemId,
  direction: z.enum(['up', 'down'], { error: 'Choose up or down.' }),
})

/** "Photo required": an unticked box is absent from the form. */
export const ChecklistPhotoSchema = z.object({
  intent: z.literal('checklist-photo'),
  itemId,
  photoRequired: z.boolean().default(false),
})

/** "Remove" (after its confirmation) and its "Undo". */
export const RemoveChecklistItemSchema = z.object({ intent: z.literal('checklist-remove'), itemId })
export const RestoreChecklistItemSchema = z.object({ intent: z.literal('checklist-restore'), itemId })

/** What the settings action answers a checklist form. */
export type ChecklistReply = {
  intent: ChecklistIntent
  /** The item the form was about (none for "Add item", or a form that named no item). */
  itemId: string | null
  tone: 'success' | 'error'
  message: string
  /** Conform's answer to "Add item" and rename, whose refusals belong to their label field. */
  result?: SubmissionResult<string[]>
  /** After "Remove": the item that "Undo" puts back. */
  undo?: { itemId: string; label: string }
}

export const checklistMessages = {
  added: (label: string) => `Added “${label}”.`,
  renamed: (label: string) => `Renamed to “${label}”.`,
  moved: (label: string, direction: 'up' | 'down') => `Moved “${label}” ${direction}.`,
  photo: (label: string, required: boolean) =>
    required ? `A photo is now required for “${label}”.` : `A photo is no longer required for “${label}”.`,
  removed: (label: string) => `Removed “${label}”.`,
  restored: (label: string) => `“${label}” is back on the checklist.`,
}
