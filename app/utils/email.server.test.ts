// The outbox delivering over real SMTP (smtp-server on 127.0.0.1), including an SMTP server
// that is down: nothing is lost, retries back off, and nothing is sent twice.
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emailOutbox } from '~/db/schema'
import { ActionLinkEmail } from '~/emails/action-link-email'
import { db } from './db.server'
import { countPendingEmails, deliverDueEmails, MAX_EMAIL_ATTEMPTS, retryDelayMs, sendEmail } from './email.server'
import { env } from './env.server'

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
  return { subject, texts, links }
}

async function outboxRow(id: string) {
  const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
  if (!row) throw new Error(`outbox row ${id} is gone`)
  return row
}

function resetEmail(url: string) {
  return createElement(ActionLinkEmail, {
    heading: 'Reset your password',
    intro: 'Someone asked to reset the password of your Pool Bud account.',
    actionLabel: 'Choose a new password',
    url,
    expiry: 'This link expires in 1 hour and works once.',
  })
}

beforeAll(async () => {
  port = await startSmtp()
  // Before anything reads env() in this file (it caches): deliver over this SMTP server.
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`
})

afterAll(async () => {
  await stopSmtp()
  delete process.env.SMTP_URL
})

describe('email over SMTP', () => {
  it('uses the SMTP server of SMTP_URL', () => {
    expect(env().SMTP_URL).toBe(`smtp://127.0.0.1:${port}`)
  })

  it('queues an email in the outbox, then delivers it once over SMTP with its link intact', async () => {
    const url =
      'http://localhost:3999/reset-password/tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0?callbackURL=%2Fapp&source=email'
    const to = 'dana.whitfield@example.com'
    const queued = await sendEmail({ to, subject: 'Reset your Pool Bud password', react: resetEmail(url) })
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
      subject: 'You are invited to Blue Lagoon Pool Co.',
      react: resetEmail(url),
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

  it(`gives up after ${MAX_EMAIL_ATTEMPTS} failed attempts, with growing back-off`, async () => {
    received.length = 0
    await stopSmtp()
    const queued = await sendEmail({
      to: 'owner@bluelagoon.test',
      subject: 'Your weekly summary',
      react: resetEmail('http://localhost:3999/app'),
    })
    if (!queued) throw new Error('sendEmail returned no row')

    let now = new Date()
    const delays: number[] = []
    for (let attempt = 1; attempt <= MAX_EMAIL_ATTEMPTS; attempt++) {
      expect(await deliverDueEmails({ now })).toEqual({ sent: 0, failed: 1 })
      const row = await outboxRow(queued.id)
      expect(row.attempts).toBe(attempt)
      expect(row.status).toBe(attempt < MAX_EMAIL_ATTEMPTS ? 'pending' : 'failed')
      delays.push(row.nextAttemptAt.getTime() - now.getTime())
      now = new Date(row.nextAttemptAt.getTime() + 1_000)
    }
    // 30 s, then doubling, never more than an hour.
    expect(delays[0]).toBe(30_000)
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] ?? 0)
    expect(Math.max(...delays)).toBeLessThanOrEqual(3_600_000)

    // A failed email is not retried, even when SMTP is back.
    await startSmtp(port)
    expect(await deliverDueEmails({ now: new Date(now.getTime() + 7 * 24 * 3_600_000) })).toEqual({
      sent: 0,
      failed: 0,
    })
    expect(received).toHaveLength(0)
    const row = await outboxRow(queued.id)
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_EMAIL_ATTEMPTS, sentAt: null })
    expect(row.lastError).toBeTruthy()
    expect(await countPendingEmails()).toBe(0)
  })

  it('sends each email once when two workers run at the same time', async () => {
    received.length = 0
    const recipients = ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']
    for (const to of recipients) {
      await sendEmail({ to, subject: `Hello ${to}`, react: resetEmail('http://localhost:3999/login') })
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
        await sendEmail({ to: 'ghost@example.com', subject: 'Never sent', react: resetEmail('http://x.test/') }, tx)
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
