// The outbox delivering over real SMTP (smtp-server on 127.0.0.1), including an SMTP server
// that is down: nothing is lost, retries back off, and nothing is sent twice.
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { companies, emailOutbox } from '~/db/schema'
import { db } from '~/utils/db.server'
import { env, rereadEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { countPendingEmails, listUndeliveredEmails, sendEmail } from './email.server'
import { messageIdFor, type OutgoingMail } from './email-transport.server'
import { deliverDueEmails, GIVE_UP_AFTER_MS, retryDelayMs } from './worker.server'

type Received = { from: string | undefined; to: string[]; raw: string }

const received: Received[] = []
let server: SMTPServer | undefined
let port = 0

/** Starts the test SMTP server (STARTTLS and AUTH off) on `port`, or a free port when 0. */
async function startSmtp(onPort = 0) {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject)
    smtp.listen(onPort, '127.0.0.1', () => resolve())
  })
  server = smtp
  return (smtp.server.address() as AddressInfo).port
}

async function stopSmtp() {
  const smtp = server
  server = undefined
  if (smtp) await new Promise<void>((resolve) => smtp.close(() => resolve()))
}

/** Decodes one MIME body by its Content-Transfer-Encoding. */
function decodeBody(body: string, encoding: string) {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    return Buffer.from(bytes, 'latin1').toString('utf8')
  }
  return body
}

/** The subject and the decoded text of every part of a raw message. */
function parseMessage(raw: string) {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/)
  const headers = head.replace(/\r?\n[ \t]+/g, ' ')
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1]?.trim()
  const messageId = /^Message-ID: (.*)$/im.exec(headers)?.[1]?.trim()
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1]
  const body = rest.join('\r\n\r\n')
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [`${head}\r\n\r\n${body}`]
  const texts = parts.map((part) => {
    const split = part.search(/\r?\n\r?\n/)
    const partHeaders = part.slice(0, split)
    const encoding = /Content-Transfer-Encoding: *([\w-]+)/i.exec(partHeaders)?.[1]?.toLowerCase() ?? '7bit'
    const type = /Content-Type: *([\w/-]+)/i.exec(partHeaders)?.[1]?.toLowerCase() ?? 'text/plain'
    return { type, content: decodeBody(part.slice(split).trim(), encoding) }
  })
  const links = texts.flatMap(({ content }) =>
    [...content.matchAll(/https?:\/\/[^\s"'<>)\]]+/g)].map((m) => m[0].replaceAll('&amp;', '&')),
  )
  return { subject, messageId, texts, links }
}

async function outboxRow(id: string) {
  const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
  if (!row) throw new Error(`outbox row ${id} is gone`)
  return row
}

/** A one-link email with this subject, as every test here queues. */
function resetEmail(subject: string, url: string) {
  return {
    template: 'action-link' as const,
    props: {
      subject,
      heading: 'Reset your password',
      intro: 'Someone asked to reset the password of your Pool Bud account.',
      actionLabel: 'Choose a new password',
      url,
      expiry: 'This link expires in 1 hour and works once.',
    },
  }
}

beforeAll(async () => {
  port = await startSmtp()
  // Deliver over this SMTP server. env() caches, and a timer of the file before this one in the worker may have read
  // it since the setup file reset it: read it again.
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`
  rereadEnv()
})

afterAll(async () => {
  await stopSmtp()
  delete process.env.SMTP_URL
})

describe('email over SMTP', () => {
  // Each test starts with an empty queue: an email a slower earlier test left due must not be the one a worker
  // picks up here (on a loaded machine a retry time can pass before the next test starts).
  beforeEach(async () => {
    await db().delete(emailOutbox)
  })

  it('uses the SMTP server of SMTP_URL', () => {
    expect(env().SMTP_URL).toBe(`smtp://127.0.0.1:${port}`)
  })

  it('queues an email in the outbox, then delivers it once over SMTP with its link intact', async () => {
    const url =
      'http://localhost:3999/reset-password/tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0?callbackURL=%2Fapp&source=email'
    const to = 'dana.whitfield@example.com'
    const queued = await sendEmail({ to, ...resetEmail('Reset your Pool Bud password', url) })
    if (!queued) throw new Error('sendEmail returned no row')

    const pending = await outboxRow(queued.id)
    expect(pending).toMatchObject({ to, subject: 'Reset your Pool Bud password', status: 'pending', attempts: 0 })
    expect(pending.text).toContain(url)
    expect(pending.html).toContain('<html')
    // Queued, not sent: nothing has reached the SMTP server yet.
    expect(received).toHaveLength(0)
    expect(await countPendingEmails()).toBe(1)

    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 })
    expect(received).toHaveLength(1)
    const message = received[0] as Received
    expect(message.to).toEqual([to])
    expect(message.from).toBe('no-reply@localhost')
    const parsed = parseMessage(message.raw)
    expect(parsed.subject).toBe('Reset your Pool Bud password')
    expect(parsed.texts.map((t) => t.type).sort()).toEqual(['text/html', 'text/plain'])
    expect(parsed.links).toContain(url)
    expect(parsed.texts.find((t) => t.type === 'text/plain')?.content).toContain('This link expires in 1 hour')

    const sent = await outboxRow(queued.id)
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, lastError: null })
    expect(sent.sentAt).toBeInstanceOf(Date)
    expect(await countPendingEmails()).toBe(0)

    // A later run does not send it again.
    expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 0 })
    expect(await deliverDueEmails({ now: new Date(Date.now() + 24 * 3_600_000) })).toEqual({ sent: 0, failed: 0 })
    expect(received).toHaveLength(1)
  })

  it('keeps an email when SMTP is down, backs off, and delivers it exactly once when SMTP is back', async () => {
    received.length = 0
    await stopSmtp()
    const url = 'http://localhost:3999/accept-invite?token=inv_0123456789abcdef'
    const queued = await sendEmail({
      to: 'newtech@bluelagoon.test',
      ...resetEmail('You are invited to Blue Lagoon Pool Co.', url),
    })
    if (!queued) throw new Error('sendEmail returned no row')

    const attemptedAt = new Date()
    expect(await deliverDueEmails({ now: attemptedAt })).toEqual({ sent: 0, failed: 1 })
    const failed = await outboxRow(queued.id)
    expect(failed.status).toBe('pending')
    expect(failed.attempts).toBe(1)
    expect(failed.lastError).toBeTruthy()
    expect(failed.sentAt).toBeNull()
    expect(failed.nextAttemptAt.getTime()).toBe(attemptedAt.getTime() + retryDelayMs(1))
    expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now())
    expect(await countPendingEmails()).toBe(1)

    // Not due yet: an immediate second run leaves it alone.
    expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 0 })
    expect((await outboxRow(queued.id)).attempts).toBe(1)

    // SMTP comes back on the same port; once the back-off has passed the email goes out.
    await startSmtp(port)
    const later = new Date(failed.nextAttemptAt.getTime() + 1_000)
    expect(await deliverDueEmails({ now: later })).toEqual({ sent: 1, failed: 0 })
    expect(await deliverDueEmails({ now: new Date(later.getTime() + 3_600_000) })).toEqual({ sent: 0, failed: 0 })
    expect(received).toHaveLength(1)
    expect(received[0]?.to).toEqual(['newtech@bluelagoon.test'])
    expect(parseMessage(received[0]?.raw ?? '').links).toContain(url)
    const sent = await outboxRow(queued.id)
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
  })

  it('keeps retrying for a day (back-off capped at an hour), then marks the email failed, logs an error and lists it for the office', async () => {
    received.length = 0
    await stopSmtp()
    const [company] = await db().insert(companies).values({ name: 'Blue Lagoon Pool Co.' }).returning()
    const [otherCompany] = await db().insert(companies).values({ name: 'Sunset Pools' }).returning()
    if (!company || !otherCompany) throw new Error('no company')
    const queued = await sendEmail({
      to: 'owner@bluelagoon.test',
      ...resetEmail('Your weekly summary', 'http://localhost:3999/app'),
      companyId: company.id,
    })
    if (!queued) throw new Error('sendEmail returned no row')
    const createdAt = (await outboxRow(queued.id)).createdAt.getTime()
    const errors = vi.spyOn(logger, 'error')

    let now = new Date()
    const delays: number[] = []
    for (let attempt = 1; ; attempt++) {
      expect(await deliverDueEmails({ now })).toEqual({ sent: 0, failed: 1 })
      const row = await outboxRow(queued.id)
      expect(row.attempts).toBe(attempt)
      expect(row.lastError).toBeTruthy()
      delays.push(row.nextAttemptAt.getTime() - now.getTime())
      if (row.status === 'failed') {
        // Failed only once a day has gone by since it was queued; every earlier attempt left it pending.
        expect(now.getTime() - createdAt).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS)
        break
      }
      expect(row.status).toBe('pending')
      expect(now.getTime() - createdAt).toBeLessThan(GIVE_UP_AFTER_MS)
      // No error log while it is still being retried.
      expect(errors).not.toHaveBeenCalled()
      now = new Date(row.nextAttemptAt.getTime() + 1_000)
    }
    // 30 s, then doubling, never more than an hour: a day of retries is a couple of dozen attempts.
    expect(delays[0]).toBe(30_000)
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] ?? 0)
    expect(Math.max(...delays)).toBe(3_600_000)
    expect(delays.length).toBeGreaterThan(24)

    // Logged once, as an error, with what the office needs to find it.
    expect(errors).toHaveBeenCalledTimes(1)
    expect(errors.mock.calls[0]?.[0]).toMatchObject({
      emailId: queued.id,
      companyId: company.id,
      to: 'owner@bluelagoon.test',
      subject: 'Your weekly summary',
    })
    expect(errors.mock.calls[0]?.[1]).toBe('email could not be delivered for a day; marked failed')
    errors.mockRestore()

    // A failed email is not retried, even when SMTP is back.
    await startSmtp(port)
    expect(await deliverDueEmails({ now: new Date(now.getTime() + 7 * 24 * 3_600_000) })).toEqual({
      sent: 0,
      failed: 0,
    })
    expect(received).toHaveLength(0)
    const row = await outboxRow(queued.id)
    expect(row).toMatchObject({ status: 'failed', sentAt: null })
    expect(await countPendingEmails()).toBe(0)

    // Its company's office sees it (recipient, subject, last error); another company does not.
    const undelivered = await listUndeliveredEmails({ companyId: company.id, now })
    expect(undelivered).toEqual({
      total: 1,
      emails: [
        { id: queued.id, to: 'owner@bluelagoon.test', subject: 'Your weekly summary', lastError: row.lastError },
      ],
    })
    expect(await listUndeliveredEmails({ companyId: otherCompany.id, now })).toEqual({ total: 0, emails: [] })
  })

  it('gives every attempt of an email the same Message-ID, derived from the row and the APP_URL host', async () => {
    received.length = 0
    const queued = await sendEmail({
      to: 'dana.whitfield@example.com',
      ...resetEmail('Your service report', 'http://localhost:3999/customer'),
    })
    if (!queued) throw new Error('sendEmail returned no row')
    expect(messageIdFor(queued.id)).toBe(`<${queued.id}@localhost>`)

    // The process "dies" after the SMTP server took the message but before the row was marked sent.
    const handedOver: OutgoingMail[] = []
    const dying = {
      async send(mail: OutgoingMail) {
        handedOver.push(mail)
        throw new Error('the process died before marking the email sent')
      },
    }
    const attemptedAt = new Date()
    expect(await deliverDueEmails({ now: attemptedAt, transport: dying })).toEqual({ sent: 0, failed: 1 })
    expect(handedOver.map((mail) => mail.messageId)).toEqual([`<${queued.id}@localhost>`])

    // The retry goes out over SMTP with that same Message-ID.
    const retryAt = new Date(attemptedAt.getTime() + retryDelayMs(1) + 1_000)
    expect(await deliverDueEmails({ now: retryAt })).toEqual({ sent: 1, failed: 0 })
    expect(received).toHaveLength(1)
    expect(parseMessage(received[0]?.raw ?? '').messageId).toBe(`<${queued.id}@localhost>`)
  })

  it('renews the claim while an email is being sent, so no other worker takes it meanwhile', async () => {
    received.length = 0
    const queued = await sendEmail({
      to: 'slow@example.com',
      ...resetEmail('Slow SMTP', 'http://x.test/'),
    })
    if (!queued) throw new Error('sendEmail returned no row')
    const lease = { ms: 2_000, renewEveryMs: 50 }
    const now = new Date()

    // A transport that holds the send until the test lets it go.
    let finishSend: () => void = () => {}
    let sendStarted: () => void = () => {}
    const started = new Promise<void>((resolve) => {
      sendStarted = resolve
    })
    const calls: string[] = []
    const holding = {
      async send(mail: OutgoingMail) {
        calls.push(mail.to)
        sendStarted()
        await new Promise<void>((resolve) => {
          finishSend = resolve
        })
      },
    }
    const first = deliverDueEmails({ now, transport: holding, lease })
    await started
    expect(calls).toEqual(['slow@example.com'])
    const claimedUntil = (await outboxRow(queued.id)).nextAttemptAt.getTime()
    expect(claimedUntil).toBeGreaterThanOrEqual(now.getTime() + lease.ms)

    // The worker renews its claim while the send is still in progress …
    let renewedUntil = claimedUntil
    while (renewedUntil <= claimedUntil + 100) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      renewedUntil = (await outboxRow(queued.id)).nextAttemptAt.getTime()
    }
    // … so a worker looking after the first lease would have run out finds nothing due.
    const second = await deliverDueEmails({ now: new Date(claimedUntil + 1), transport: holding, lease })
    expect(second).toEqual({ sent: 0, failed: 0 })

    finishSend()
    expect(await first).toEqual({ sent: 1, failed: 0 })
    expect(calls).toEqual(['slow@example.com'])
    expect((await outboxRow(queued.id)).status).toBe('sent')
  })

  it('sends each email once when two workers run at the same time', async () => {
    received.length = 0
    const recipients = ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']
    for (const to of recipients) {
      await sendEmail({ to, ...resetEmail(`Hello ${to}`, 'http://localhost:3999/login') })
    }
    const results = await Promise.all([deliverDueEmails(), deliverDueEmails(), deliverDueEmails()])
    expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(recipients.length)
    expect(results.reduce((sum, r) => sum + r.failed, 0)).toBe(0)
    expect(received.flatMap((m) => m.to).sort()).toEqual(recipients)
    expect(await countPendingEmails()).toBe(0)
  })

  it('writes the outbox row in the caller’s transaction: a rolled-back action sends nothing', async () => {
    received.length = 0
    await db()
      .transaction(async (tx) => {
        await sendEmail({ to: 'ghost@example.com', ...resetEmail('Never sent', 'http://x.test/') }, tx)
        throw new Error('the action failed after queuing its email')
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.message.startsWith('the action failed'))) throw error
      })
    expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 0 })
    expect(received).toHaveLength(0)
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.to, 'ghost@example.com'))).toEqual([])
  })
})

// Issue 31 item 5 (docs/decisions/039-invoice-pdf.md): customer emails come from the company — its name on MAIL_FROM's
// address, Reply-To its own address — and a name with quotes or line breaks cannot add a header. Pool Bud's own
// emails keep MAIL_FROM as it is.
describe('who an email is from', () => {
  beforeEach(async () => {
    await db().delete(emailOutbox)
    received.length = 0
  })

  /** The raw header block of the one message received, continuation lines unfolded. */
  function headersOf(message: Received) {
    return (message.raw.split(/\r?\n\r?\n/)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ')
  }

  it('sends a company email From "Blue Lagoon Pool Co." <MAIL_FROM address> with Reply-To the company', async () => {
    await sendEmail({
      to: 'dana.whitfield@example.com',
      ...resetEmail('Invoice INV-0042', 'http://x.test/'),
      fromName: 'Blue Lagoon Pool Co.',
      replyTo: 'office@bluelagoon.example',
    })
    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 })
    const headers = headersOf(received[0] as Received)
    expect(headers).toMatch(/^From: "Blue Lagoon Pool Co\." <no-reply@localhost>$/m)
    expect(headers).toMatch(/^Reply-To: office@bluelagoon\.example$/m)
    expect(received[0]?.from).toBe('no-reply@localhost')
  })

  it('keeps Pool Bud as the sender of staff and account emails, with no Reply-To', async () => {
    await sendEmail({ to: 'new.tech@example.com', ...resetEmail('Reset your Pool Bud password', 'http://x.test/') })
    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 })
    const headers = headersOf(received[0] as Received)
    expect(headers).toMatch(/^From: Pool Bud <no-reply@localhost>$/m)
    expect(headers).not.toMatch(/^Reply-To:/im)
  })

  it('lets no company name or reply address inject a header or a recipient', async () => {
    await sendEmail({
      to: 'dana.whitfield@example.com',
      ...resetEmail('Invoice INV-0043', 'http://x.test/'),
      fromName: 'Evil" <boss@evil.test>\r\nBcc: victim@example.com\r\n',
      replyTo: 'a@b.test\r\nBcc: c@d.test',
    })
    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 })
    const message = received[0] as Received
    expect(message.to).toEqual(['dana.whitfield@example.com'])
    const headers = headersOf(message)
    expect(headers).not.toMatch(/^Bcc:/im)
    expect(headers).not.toMatch(/^Reply-To:/im)
    const from = headers.split(/\r?\n/).filter((line) => /^From:/i.test(line))
    expect(from).toHaveLength(1)
    expect(from[0]).toMatch(/<no-reply@localhost>$/)
    expect(message.from).toBe('no-reply@localhost')
  })
})
