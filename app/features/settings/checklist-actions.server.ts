// The settings action's checklist intents (docs/product.md "The visit"): each form parsed with its schema, the model
// called for the signed-in member's company, and one answer shape (ChecklistReply) with the status that fits it.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import {
  addChecklistItem,
  moveChecklistItem,
  removeChecklistItem,
  renameChecklistItem,
  restoreChecklistItem,
  setPhotoRequired,
} from '~/models/checklist.server'
import { failureStatus, type Result } from '~/utils/result'
import {
  AddChecklistItemSchema,
  type ChecklistIntent,
  ChecklistPhotoSchema,
  type ChecklistReply,
  checklistMessages,
  MoveChecklistItemSchema,
  RemoveChecklistItemSchema,
  RenameChecklistItemSchema,
  RestoreChecklistItemSchema,
} from './checklist-forms'

type Item = { item: { id: string; label: string } }

function answer(reply: ChecklistReply, status = 200) {
  return data({ checklist: reply }, status)
}

function invalid(intent: ChecklistIntent, formData: FormData, message: string) {
  const itemId = formData.get('itemId')
  return answer({ intent, itemId: typeof itemId === 'string' ? itemId : null, tone: 'error', message }, 400)
}

/** A change of one item (move, Photo required, remove, restore): its outcome as a message for the section. */
function itemAnswer(
  intent: ChecklistIntent,
  itemId: string,
  outcome: Result<Item>,
  message: (item: Item['item']) => string,
) {
  if (!outcome.ok) return answer({ intent, itemId, tone: 'error', message: outcome.message }, failureStatus(outcome))
  return answer({
    intent,
    itemId,
    tone: 'success',
    message: message(outcome.item),
    ...(intent === 'checklist-remove' ? { undo: { itemId, label: outcome.item.label } } : {}),
  })
}

/** Runs a checklist form of `companyId`'s settings page. The caller has checked `settings:save`. */
export async function checklistAction(companyId: string, intent: ChecklistIntent, formData: FormData) {
  switch (intent) {
    case 'checklist-add': {
      const submission = parseWithZod(formData, { schema: AddChecklistItemSchema })
      if (submission.status !== 'success') {
        return answer({ intent, itemId: null, tone: 'error', message: '', result: submission.reply() }, 400)
      }
      const added = await addChecklistItem({ companyId, label: submission.value.label })
      if (!added.ok) {
        const result = submission.reply({ fieldErrors: { label: [added.message] } })
        return answer({ intent, itemId: null, tone: 'error', message: added.message, result }, failureStatus(added))
      }
      return answer({
        intent,
        itemId: added.item.id,
        tone: 'success',
        message: checklistMessages.added(added.item.label),
        result: submission.reply({ resetForm: true }),
      })
    }
    case 'checklist-rename': {
      const submission = parseWithZod(formData, { schema: RenameChecklistItemSchema })
      const itemId = String(formData.get('itemId') ?? '')
      if (submission.status !== 'success') {
        return answer({ intent, itemId, tone: 'error', message: '', result: submission.reply() }, 400)
      }
      const renamed = await renameChecklistItem({ companyId, ...submission.value })
      if (!renamed.ok) {
        const result = submission.reply({ fieldErrors: { label: [renamed.message] } })
        return answer({ intent, itemId, tone: 'error', message: renamed.message, result }, failureStatus(renamed))
      }
      return answer({
        intent,
        itemId,
        tone: 'success',
        message: checklistMessages.renamed(renamed.item.label),
        result: submission.reply(),
      })
    }
    case 'checklist-move': {
      const submission = parseWithZod(formData, { schema: MoveChecklistItemSchema })
      if (submission.status !== 'success') return invalid(intent, formData, 'Choose an item to move up or down.')
      const { itemId, direction } = submission.value
      const moved = await moveChecklistItem({ companyId, itemId, direction })
      return itemAnswer(intent, itemId, moved, (item) => checklistMessages.moved(item.label, direction))
    }
    case 'checklist-photo': {
      const submission = parseWithZod(formData, { schema: ChecklistPhotoSchema })
      if (submission.status !== 'success') return invalid(intent, formData, 'Choose a checklist item.')
      const { itemId, photoRequired } = submission.value
      const saved = await setPhotoRequired({ companyId, itemId, photoRequired })
      return itemAnswer(intent, itemId, saved, (item) => checklistMessages.photo(item.label, photoRequired))
    }
    case 'checklist-remove': {
      const submission = parseWithZod(formData, { schema: RemoveChecklistItemSchema })
      if (submission.status !== 'success') return invalid(intent, formData, 'Choose a checklist item.')
      const { itemId } = submission.value
      const removed = await removeChecklistItem({ companyId, itemId })
      return itemAnswer(intent, itemId, removed, (item) => checklistMessages.removed(item.label))
    }
    case 'checklist-restore': {
      const submission = parseWithZod(formData, { schema: RestoreChecklistItemSchema })
      if (submission.status !== 'success') return invalid(intent, formData, 'Choose a checklist item.')
      const { itemId } = submission.value
      const restored = await restoreChecklistItem({ companyId, itemId })
      return itemAnswer(intent, itemId, restored, (item) => checklistMessages.restored(item.label))
    }
  }
}
