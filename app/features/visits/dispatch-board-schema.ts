// The dispatch board's posts (dashboards/dispatcher-dashboard.server.ts): "Create a visit" (its fields:
// create-visit-schema.ts) and a row's "Assign and reschedule" (assign-visit-schema.ts), which names its visit. Anything
// else is a post no form of the board sends.
import { z } from 'zod'
import { isUuid } from '~/utils/ids'
import { ASSIGN_VISIT_INTENT } from './assign-visit-schema'
import { CREATE_VISIT_INTENT } from './create-visit-schema'

export const DispatchBoardIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal(CREATE_VISIT_INTENT) }),
  z.object({ intent: z.literal(ASSIGN_VISIT_INTENT), visitId: z.string().refine(isUuid) }),
])
