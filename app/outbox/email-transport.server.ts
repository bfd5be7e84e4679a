// How an email leaves (docs/subsystems.md "Email"): over SMTP when SMTP_URL is set, else into the built-in mailbox;
// from whom, with which Message-ID, and with its inline images read from storage.
import nodemailer from 'nodemailer'
import addressparser from 'nodemailer/lib/addressparser'
import { type EmailAttachment, mailboxMessages } from '~/db/schema'
import { db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { getObject } from '~/utils/storage.server'

/**
 * The Message-ID of an outbox row, the same on every attempt: when a process dies after the SMTP server took the
 * message but before the row was marked sent, the retry carries the same id, so mail servers and clients see one
 * message, not two.
 */
export function messageIdFor(emailId: string) {
  return `<${emailId}@${new URL(env().APP_URL).hostname}>`
}

/** An inline image read from storage, ready to send. */
export type LoadedAttachment = { cid: string; filename: string; contentType: string; content: Buffer }

export type OutgoingMail = {
  messageId: string
  /** MAIL_FROM, or the company's name with MAIL_FROM's address (see `senderAddress`). */
  from: string | { name: string; address: string }
  replyTo?: string
  to: string
  subject: string
  html: string
  text: string
  attachments: LoadedAttachment[]
}

export type Transport = { send: (mail: OutgoingMail) => Promise<void> }

function smtpTransport(smtpUrl: string): Transport {
  const transporter = nodemailer.createTransport(smtpUrl)
  return {
    async send(mail) {
      await transporter.sendMail(mail)
    },
  }
}

/**
 * Who an email is from: MAIL_FROM as configured for Pool Bud's own emails; for a company's, its name with MAIL_FROM's
 * address (parsed by nodemailer, so "Pool Bud <no-reply@…>" gives the address alone). The name is handed to
 * nodemailer as a name, never pasted into a header: it quotes or encodes it, and line breaks and control characters
 * are taken out first, so a company named `Evil"\r\nBcc: x@y` adds no header.
 */
export function senderAddress(fromName: string | null | undefined): OutgoingMail['from'] {
  const configured = env().MAIL_FROM
  if (!fromName) return configured
  const [parsed] = addressparser(configured, { flatten: true })
  const address = parsed && 'address' in parsed ? parsed.address : ''
  const name = fromName
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  if (!address || !name) return configured
  return { name, address }
}

/** One bare address (no name, no list, no line breaks): what Reply-To may be set to. */
export function isPlainAddress(value: string) {
  return /^[^\s@<>",;]+@[^\s@<>",;]+$/.test(value)
}

/** The mailbox page shows HTML only, so inline images become data URLs there. */
function inlineImages(html: string, attachments: LoadedAttachment[]) {
  return attachments.reduce(
    (page, image) =>
      page.replaceAll(`cid:${image.cid}`, `data:${image.contentType};base64,${image.content.toString('base64')}`),
    html,
  )
}

/** With no SMTP server the email lands in the built-in mailbox, and its links go to the log. */
const mailboxTransport: Transport = {
  async send({ attachments, messageId: _, replyTo: __, from, ...mail }) {
    const fromText = typeof from === 'string' ? from : `"${from.name.replace(/["\\]/g, '\\$&')}" <${from.address}>`
    await db()
      .insert(mailboxMessages)
      .values({ ...mail, html: inlineImages(mail.html, attachments), from: fromText })
    const links = mail.text.match(/https?:\/\/[^\s)\]]+/g) ?? []
    logger.info({ to: mail.to, subject: mail.subject, links }, 'email delivered to the built-in mailbox')
    console.log(`✉  ${mail.subject} → ${mail.to}${links.map((l) => `\n   ${l}`).join('')}`)
  },
}

export function currentTransport(): Transport {
  const smtpUrl = env().SMTP_URL
  return smtpUrl ? smtpTransport(smtpUrl) : mailboxTransport
}

/**
 * Reads an email's inline images from storage. A photo replaced or deleted since the email was queued is left
 * out (its alt text shows) rather than holding back the rest of the email forever.
 */
export async function loadAttachments(emailId: string, attachments: EmailAttachment[]) {
  const loaded = await Promise.all(
    attachments.map(async (attachment): Promise<LoadedAttachment | null> => {
      const object = await getObject(attachment.storageKey)
      if (!object) {
        logger.warn({ emailId, storageKey: attachment.storageKey }, 'email image missing; sending without it')
        return null
      }
      return {
        cid: attachment.cid,
        filename: attachment.filename,
        contentType: attachment.contentType,
        content: object.bytes,
      }
    }),
  )
  return loaded.filter((attachment) => attachment !== null)
}
