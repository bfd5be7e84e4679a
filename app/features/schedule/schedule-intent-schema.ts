// What the week board posts (routes/app/schedule.tsx): a visit moved by drag and drop or "Move visit", naming the
// visit (its new date, technician and scope: MoveVisitSchema). Anything else is a post no part of the board sends.
import { z } from 'zod'
import { isUuid } from '~/utils/ids'

export const ScheduleIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('move-visit'), visitId: z.string().refine(isUuid) }),
])
