// The fields of a photo's upload (the plain form and the phone's queue post the same multipart form) and of the plain
// "Remove" form, as the photo routes (routes/resources/visit-photos.ts, visit-photo.ts) read them. The label and the
// key are checked again by the model (savePhoto), which every caller goes through.
import { z } from 'zod'
import { PHOTO_MESSAGES } from '~/models/visit-photo'

export const PhotoUploadSchema = z.object({
  photo: z.instanceof(File, { error: PHOTO_MESSAGES.noFile }).refine((file) => file.size > 0, PHOTO_MESSAGES.noFile),
  label: z.string({ error: PHOTO_MESSAGES.badLabel }),
  // The phone's idempotency key; a plain form sends none (blank: none).
  clientKey: z
    .string({ error: PHOTO_MESSAGES.failed })
    .optional()
    .transform((key) => key || null),
})

export const PhotoRemoveSchema = z.object({ intent: z.literal('remove') })
