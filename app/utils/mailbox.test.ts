// With no SMTP_URL, email lands in the built-in mailbox (docs/architecture.md "Stack") and its links are logged.
import { eq } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { emailOutbox, mailboxMessages } from '~/db/schema'
import { countPendingEmails, sendEmail } from '~/outbox/email.server'
import { deliverDueEmails } from '~/outbox/worker.server'
import { db } from './db.server'
import { mailboxListingEnabled } from './dev-mailbox.server'
import { env } from './env.server'

describe('the built-in mailbox', () => {
  it('is used when SMTP_URL is not set', () => {
    expect(env().SMTP_URL).toBeUndefined()
    // Listed at /dev/mailbox outside production (tests run with NODE_ENV=test; dev-mailbox.server.test.ts has the
    // rest)…
    expect(mailboxListingEnabled('127.0.0.1')).toBe(true)
    expect(mailboxListingEnabled('::1')).toBe(true)
    // …and never to a browser on another machine: the reset links in it are keys to accounts.
    expect(mailboxListingEnabled('203.0.113.7')).toBe(false)
    expect(mailboxListingEnabled('10.0.0.2')).toBe(false)
  })

  it('receives a queued email with its link, and logs the link to the console', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    const url = 'http://localhost:3999/accept-invite?token=inv_a1b2c3d4e5f6&callbackURL=%2Fwelcome'
    const queued = await sendEmail({
      to: 'tech2@bluelagoon.test',
      template: 'action-link',
      props: {
        subject: 'Join Blue Lagoon Pool Co. on Pool Bud',
        heading: 'You are invited',
        intro: 'Olivia Marsh invited you to join Blue Lagoon Pool Co.',
        actionLabel: 'Accept the invitation',
        url,
        expiry: 'This link expires in 7 days and works once.',
      },
    })
    if (!queued) throw new Error('sendEmail returned no row')
    expect(await db().select().from(mailboxMessages)).toEqual([])
    expect(await countPendingEmails()).toBe(1)

    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 })

    const messages = await db().select().from(mailboxMessages)
    expect(messages).toHaveLength(1)
    const [message] = messages
    expect(message).toMatchObject({
      to: 'tech2@bluelagoon.test',
      from: 'Pool Bud <no-reply@localhost>',
      subject: 'Join Blue Lagoon Pool Co. on Pool Bud',
    })
    expect(message?.text).toContain(url)
    expect(message?.text).toContain('This link expires in 7 days')
    expect(message?.html).toContain(url.replaceAll('&', '&amp;'))

    const logged = log.mock.calls.map((args) => args.join(' ')).join('\n')
    expect(logged).toContain('tech2@bluelagoon.test')
    expect(logged).toContain(url)

    const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, queued.id))
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null })
    expect(await countPendingEmails()).toBe(0)

    // Delivered once: a later run adds nothing.
    expect(await deliverDueEmails({ now: new Date(Date.now() + 3_600_000) })).toEqual({ sent: 0, failed: 0 })
    expect(await db().select().from(mailboxMessages)).toHaveLength(1)
  })
})
