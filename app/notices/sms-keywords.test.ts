import { describe, expect, it } from 'vitest'
import { smsKeyword } from './sms-keywords'

describe('STOP and START replies', () => {
  it.each(['STOP', 'stop', ' Stop ', 'STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit', 'STOP.', 'Stop!', 'ＳＴＯＰ'])(
    '%j opts out',
    (body) => expect(smsKeyword(body)).toBe('opt-out'),
  )

  it.each(['REVOKE', 'optout'])('%j opts out (Twilio acts on it too)', (body) => {
    expect(smsKeyword(body)).toBe('opt-out')
  })

  it.each(['START', 'start', 'Yes', 'UNSTOP', '\tunstop\n'])('%j opts back in', (body) => {
    expect(smsKeyword(body)).toBe('opt-in')
  })

  it.each(['', 'Thanks!', 'Stop by at noon', 'please stop', 'STOP STOP', 'YESS', 'HELP', 'S T O P', 'stop-all'])(
    '%j is just a message',
    (body) => expect(smsKeyword(body)).toBe('none'),
  )
})
