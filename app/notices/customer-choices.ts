// The customer's own choice of notices, per event and channel (the portal's "Notifications",
// docs/decisions/047-customer-times.md). Stored as only what was turned off or on (`customers.notice_choices`);
// absent is on, so a customer who never opened the section gets whatever the company sends. A notice goes out on a
// channel only when the company sends it, the customer's channel switch is on, and this choice is not off; a number
// that replied STOP is never texted, whatever the choice.
import type { NoticeChoices } from '~/db/schema/customers'
import type { NoticeChannel, NoticeEvent } from './templates'

/** Whether the customer left `channel` on for `event`. */
export function customerWants(choices: NoticeChoices | null | undefined, event: NoticeEvent, channel: NoticeChannel) {
  return choices?.[event]?.[channel] !== false
}
