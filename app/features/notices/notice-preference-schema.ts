// "Notices by email" / "Notices by text" on the customer record: each switch posts its channel and the state it
// asks for (not a toggle), so a double tap or a replayed post leaves the choice the person saw.
import { z } from 'zod'

export const NoticePreferenceSchema = z.object({
  channel: z.enum(['email', 'text'], { error: 'Choose email or text.' }),
  enabled: z.enum(['on', 'off'], { error: 'Choose on or off.' }),
})
