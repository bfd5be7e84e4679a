import { describe, expect, it } from 'vitest'
import { messageStatus } from './message-status'

const timezone = 'America/New_York'
const now = new Date('2026-11-24T03:00:00Z') // 10:00 PM in New York: inside quiet hours
const context = { now, timezone, quietHoursUntil: '08:00' }
const pending = { kind: 'text', status: 'pending' as const, lastError: null, nextAttemptAt: now }

describe('message status in words', () => {
  it('names sent, failed and opted-out messages', () => {
    expect(messageStatus({ ...pending, status: 'sent' }, context)).toEqual({ text: 'Sent', tone: 'sent' })
    expect(messageStatus({ ...pending, status: 'failed', lastError: 'Invalid number' }, context).text).toBe(
      'Failed: Invalid number',
    )
    expect(messageStatus({ ...pending, status: 'opted-out' }, context).text).toBe('Not sent: the customer replied STOP')
  })

  it('says a text held for quiet hours waits until their end, on the company clock', () => {
    const morning = new Date('2026-11-24T13:00:00Z') // 8:00 AM in New York
    expect(messageStatus({ ...pending, nextAttemptAt: morning }, context).text).toBe(
      'Waiting (quiet hours until 8:00 AM)',
    )
    // The same instant for a company whose quiet hours end at 07:00 is not a quiet-hours wait.
    expect(messageStatus({ ...pending, nextAttemptAt: morning }, { ...context, quietHoursUntil: '07:00' }).text).toBe(
      'Waiting to send',
    )
  })

  it('tells a retry from a first attempt', () => {
    const later = new Date(now.getTime() + 5 * 60_000)
    expect(messageStatus({ ...pending, lastError: 'HTTP 500', nextAttemptAt: later }, context).text).toBe(
      'Waiting to retry',
    )
    expect(messageStatus({ ...pending, kind: 'email' }, context).text).toBe('Waiting to send')
  })
})
