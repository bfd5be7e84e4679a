// "Notices by email" / "Notices by text" on the customer record: each switch posts its channel and the state it
// asks for (not a toggle), so a double tap or a replayed post leaves the choice the person saw. The switch writes
// these fields itself; the record's action reads them with this schema.
import { z } from 'zod'

export const NOTICE_PREFERENCE_INTENT = 'notice-preference'

export const NoticePreferenceSchema = z.object({
  channel: z.enum(['email', 'text'], { error: 'Choose email or text.' }),
  enabled: z.enum(['on', 'off'], { error: 'Choose on or off.' }),
})

export type NoticePreference = z.output<typeof NoticePreferenceSchema>
