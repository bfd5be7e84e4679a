// /dev/mailbox exists only with no SMTP server, and outside production unless DEV_MAILBOX=1 (decision 003).
import { describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER } from '~/auth/better-auth.server'
import { deliverTextRow } from '~/outbox/text-delivery.server'
import { loader } from '~/routes/resources/dev-mailbox'
import { routeArgs } from '../../tests/helpers/requests'
import { devMailboxEnabled, devMailboxTabs, mailboxListingEnabled } from './dev-mailbox.server'
import { parseEnv } from './env.server'

const SMTP_URL = 'smtp://mail.example.com:587'

/** The validated environment for these variables (the rest as in the test run). */
function config(vars: Record<string, string | undefined>) {
  return parseEnv({ ...process.env, SMTP_URL: undefined, DEV_MAILBOX: undefined, ...vars })
}

describe('the /dev/mailbox page', () => {
  // `texting`: a Twilio account is configured, so texts have somewhere else to go too.
  const cases = [
    { NODE_ENV: 'development', SMTP_URL: undefined, DEV_MAILBOX: undefined, texting: true, enabled: true },
    { NODE_ENV: 'test', SMTP_URL: undefined, DEV_MAILBOX: undefined, texting: true, enabled: true },
    { NODE_ENV: 'production', SMTP_URL: undefined, DEV_MAILBOX: undefined, texting: false, enabled: false },
    { NODE_ENV: 'production', SMTP_URL: undefined, DEV_MAILBOX: '0', texting: false, enabled: false },
    { NODE_ENV: 'production', SMTP_URL: undefined, DEV_MAILBOX: '1', texting: true, enabled: true },
    { NODE_ENV: 'development', SMTP_URL, DEV_MAILBOX: undefined, texting: true, enabled: false },
    { NODE_ENV: 'development', SMTP_URL, DEV_MAILBOX: '1', texting: true, enabled: false },
    { NODE_ENV: 'production', SMTP_URL, DEV_MAILBOX: '1', texting: true, enabled: false },
    // Email goes to the SMTP server, texts have nowhere to go but the mailbox: it shows "Texts" only.
    { NODE_ENV: 'development', SMTP_URL, DEV_MAILBOX: undefined, texting: false, enabled: true },
    { NODE_ENV: 'production', SMTP_URL, DEV_MAILBOX: undefined, texting: false, enabled: false },
  ] as const

  for (const { enabled, texting, ...vars } of cases) {
    it(`${enabled ? 'exists' : 'does not exist'} with ${JSON.stringify({ ...vars, texting })}`, () => {
      const env = config(vars)
      expect(devMailboxEnabled(env, texting)).toBe(enabled)
      // Even where it exists, only a browser on this machine sees it.
      expect(mailboxListingEnabled('127.0.0.1', env, texting)).toBe(enabled)
      expect(mailboxListingEnabled('::1', env, texting)).toBe(enabled)
      expect(mailboxListingEnabled('::ffff:127.0.0.1', env, texting)).toBe(enabled)
      expect(mailboxListingEnabled('203.0.113.7', env, texting)).toBe(false)
      expect(mailboxListingEnabled(null, env, texting)).toBe(false)
    })
  }

  it('shows emails only without an SMTP server, texts only without Twilio', () => {
    expect(devMailboxTabs(config({ NODE_ENV: 'development', SMTP_URL }), false)).toEqual({ emails: false, texts: true })
    expect(devMailboxTabs(config({ NODE_ENV: 'development' }), true)).toEqual({ emails: true, texts: false })
  })

  it('DEV_MAILBOX accepts only 0 or 1', () => {
    expect(() => config({ DEV_MAILBOX: 'yes' })).toThrow(/DEV_MAILBOX/)
  })

  it('answers 404 to another machine, and lists the mail to this one (outside production)', async () => {
    const request = (ip: string) =>
      new Request('http://localhost:3999/dev/mailbox', { headers: { [CLIENT_IP_HEADER]: ip } })
    const args = (ip: string) => ({ request: request(ip), params: {}, context: {} }) as never
    await expect(loader(args('203.0.113.7'))).rejects.toMatchObject({ init: { status: 404 } })
    expect(await loader(args('127.0.0.1'))).toMatchObject({ messages: [] })
  })

  it('lists texts under "Texts" when no Twilio account is configured', async () => {
    const now = new Date()
    const row = { id: crypto.randomUUID(), companyId: null, to: '+18135550199', lastError: null, createdAt: now }
    const text = 'Blue Lagoon Pool Co.: Tyler Brooks is on the way, arriving about 10:40 AM.'
    expect(await deliverTextRow({ ...row, text }, now)).toEqual({ status: 'sent', providerId: null })
    const request = new Request('http://localhost:3999/dev/mailbox?tab=texts', {
      headers: { [CLIENT_IP_HEADER]: '127.0.0.1' },
    })
    const page = await loader(routeArgs(request))
    expect(page).toMatchObject({ tab: 'texts', tabs: { texts: true } })
    expect(page.messages.map((message) => [message.to, message.text])).toContainEqual(['+18135550199', text])
    // The emails tab does not show texts.
    const emails = await loader({
      request: new Request('http://localhost:3999/dev/mailbox', { headers: { [CLIENT_IP_HEADER]: '127.0.0.1' } }),
      params: {},
      context: {},
    } as never)
    expect(emails.messages.some((message) => message.text === text)).toBe(false)
  })
})
