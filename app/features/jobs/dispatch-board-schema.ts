// The dispatch board's posts (dashboards/dispatcher-dashboard.server.ts): "Create a job" (its fields:
// create-job-schema.ts) and a row's "Assign and reschedule" (assign-job-schema.ts), which names its job. Anything
// else is a post no form of the board sends.
import { z } from 'zod'
import { isUuid } from '~/utils/ids'
import { ASSIGN_JOB_INTENT } from './assign-job-schema'
import { CREATE_JOB_INTENT } from './create-job-schema'

export const DispatchBoardIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal(CREATE_JOB_INTENT) }),
  z.object({ intent: z.literal(ASSIGN_JOB_INTENT), jobId: z.string().refine(isUuid) }),
])
