// What the visit page posts (routes/app/visit.tsx), one intent each. The forms with fields of their own are parsed by
// their own schemas where they are saved (a reading, a chemical, assign, move, skip, the notes; the checklist
// below), so the route reads only the intent here: anything else is a post no form of the page sends.
import { z } from 'zod'

export const VisitIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('complete') }),
  z.object({ intent: z.literal('checklist') }),
  z.object({ intent: z.literal('notes') }),
  z.object({ intent: z.literal('reopen') }),
  z.object({ intent: z.literal('reading') }),
  z.object({ intent: z.literal('chemical') }),
  z.object({ intent: z.literal('assign') }),
  z.object({ intent: z.literal('move-visit') }),
  z.object({ intent: z.literal('skip-visit') }),
  z.object({ intent: z.literal('cancel-visit') }),
  z.object({ intent: z.literal('part-used') }),
])

/** "Save checklist" without JavaScript: the ids of the items ticked (none ticked: none sent). */
export const VisitChecklistSchema = z.object({
  itemId: z.array(z.uuid({ error: 'This checklist item does not exist.' })).default([]),
})
