import { render } from '@react-email/render'
import { describe, expect, it } from 'vitest'
import { EMAIL_NAME_MAX, emailSafeName, inviteEmail } from './invite-email'

describe('the company name in invitation emails (F7)', () => {
  it('keeps an ordinary name as it is', () => {
    for (const name of [
      'Blue Lagoon Pool Co.',
      'J.R. Pools & Spas',
      "O'Neil Pool Service",
      'Pool 24/7',
      'Piscinas Ñandú',
    ]) {
      expect(emailSafeName(name)).toBe(name)
    }
  })

  it('replaces anything a mail program would turn into a link by a neutral phrase', () => {
    for (const name of [
      'Visit https://evil.example',
      'evil.example',
      'Deals at www.evil',
      'write to sales@evil.example',
      'Pools mailto:me',
      'Call 555 010 9999',
      'Call (555) 010-9999 now',
      'evil。example',
      'evil．example',
      'javascript:alert(1)',
    ]) {
      expect(emailSafeName(name), name).toBe('a pool company')
    }
  })

  it('cuts long names, and drops control and direction-override characters', () => {
    const long = 'Pool '.repeat(30)
    const shown = emailSafeName(long)
    expect(shown.length).toBeLessThanOrEqual(EMAIL_NAME_MAX)
    expect(shown.endsWith('…')).toBe(true)
    expect(emailSafeName('Blue\u202eLagoon\u0007\nPools')).toBe('BlueLagoon Pools')
  })

  it('renders only that name into the subject and the body', async () => {
    const url = 'http://localhost:3999/api/auth/magic-link/verify?token=abc'
    const mail = inviteEmail(url, { kind: 'staff', companyName: 'Buy now at evil.example', roleLabel: 'Technician' })
    const text = await render(mail.react, { plainText: true })
    expect(mail.subject).toBe('Join a pool company on Pool Bud')
    expect(text).not.toContain('evil.example')
    expect(text).toContain(url)
  })
})
