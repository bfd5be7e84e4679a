// The customer record's intents (docs/product.md "Customers"): one list for the action, which answers any other with a
// 400, and for the record's forms and buttons, which post one of them. Each form's fields are checked by the models'
// own schemas (`~/models/customer-schemas`, `~/models/service-plan-schemas`) and the notices'
// (`NoticePreferenceSchema`).
import type { SubmissionResult } from '@conform-to/react'
import { z } from 'zod'

export const RecordIntentSchema = z.enum([
  'contact',
  'add-location',
  'edit-location',
  'remove-location',
  'add-body',
  'edit-body',
  'remove-body',
  'add-equipment',
  'edit-equipment',
  'remove-equipment',
  'add-plan',
  'end-plan',
  'edit-plan',
  'pause-plan',
  'resume-plan',
  'archive',
  'restore',
  'notice-preference',
  'record-payment',
])

export type RecordIntent = z.infer<typeof RecordIntentSchema>

/**
 * What the record's action answered, as far as its forms read it: the intent and the piece (`targetId`) it was
 * about, the model's refusal, and Conform's result for the form's fields.
 */
export type RecordActionData =
  | {
      intent: unknown
      target: string
      message: string | null
      result?: SubmissionResult<string[]>
      /** A change that removes visits asks first: "12 future visits will be removed." (posted again to confirm). */
      confirm?: string
    }
  | undefined
