// What became of one message, in the words the customer's "Messages" show (docs/product.md "Notices": queued, sent,
// failed, opted out). A text the worker deferred to the end of quiet hours is pending with no error and its next
// attempt at the company's "Until"; one that failed and will be tried again keeps its error.
import type { CustomerMessage } from '~/models/customer-messages.server'
import { formatTime, zonedParts } from '~/utils/dates'

export type MessageTone = 'sent' | 'waiting' | 'failed' | 'stopped'

export function messageStatus(
  message: Pick<CustomerMessage, 'kind' | 'status' | 'lastError' | 'nextAttemptAt'>,
  { now, timezone, quietHoursUntil }: { now: Date; timezone: string; quietHoursUntil: string },
): { text: string; tone: MessageTone } {
  switch (message.status) {
    case 'sent':
      return { text: 'Sent', tone: 'sent' }
    case 'opted-out':
      return { text: 'Not sent: the customer replied STOP', tone: 'stopped' }
    case 'failed':
      return { text: `Failed: ${message.lastError ?? 'the provider gave no reason'}`, tone: 'failed' }
    case 'pending': {
      if (message.lastError) return { text: 'Waiting to retry', tone: 'waiting' }
      const at = message.nextAttemptAt
      if (message.kind === 'text' && at > now && wallTime(at, timezone) === quietHoursUntil) {
        return { text: `Waiting (quiet hours until ${formatTime(at, timezone)})`, tone: 'waiting' }
      }
      return { text: 'Waiting to send', tone: 'waiting' }
    }
  }
}

function wallTime(at: Date, timezone: string) {
  const { hour, minute } = zonedParts(at, timezone)
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`
}
