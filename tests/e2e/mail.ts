// Reads the emails the app sent over SMTP to the sink of the global setup (one raw message per file).
import fs from 'node:fs'
import path from 'node:path'

export type Email = {
  file: string
  receivedAt: Date
  to: string
  subject: string
  /** The text/plain body, transfer-decoded (quoted-printable or base64). */
  text: string
  /** The text/html body, transfer-decoded. */
  html: string
  /** Inline images and other attachments, by Content-ID (without the angle brackets). */
  attachments: Attachment[]
}

export type Attachment = { contentId: string | null; contentType: string; content: Buffer }

function mailDir() {
  const dir = process.env.E2E_MAIL_DIR
  if (!dir) throw new Error('E2E_MAIL_DIR is not set: the global setup starts the SMTP sink')
  return dir
}

/** Splits a message or MIME part into its (unfolded, lower-cased) headers and its body. */
function splitPart(raw: string) {
  const match = /\r?\n\r?\n/.exec(raw)
  const head = match ? raw.slice(0, match.index) : raw
  const body = match ? raw.slice(match.index + match[0].length) : ''
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim())
  }
  return { headers, body }
}

/** Decodes quoted-printable: soft line breaks (`=\r\n`) vanish, `=XX` becomes that byte (UTF-8 overall). */
export function decodeQuotedPrintable(input: string) {
  const unfolded = input.replace(/=\r?\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < unfolded.length; i++) {
    const hex = unfolded.slice(i + 1, i + 3)
    if (unfolded[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(unfolded[i] ?? '', 'utf8'))
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

function decodeBody(body: string, encoding: string | undefined) {
  switch (encoding?.toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body)
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    default:
      return body
  }
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?…?=` / `=?UTF-8?B?…?=`) in a header value. */
function decodeHeader(value: string) {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    )
}

/** Collects the decoded text/plain and text/html bodies and the attachments of a (possibly nested multipart) part. */
function collectBodies(raw: string, out: { text: string; html: string; attachments: Attachment[] }) {
  const { headers, body } = splitPart(raw)
  const contentType = headers.get('content-type') ?? 'text/plain'
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
  if (/^multipart\//i.test(contentType) && boundary) {
    const sections = body.split(`--${boundary}`).slice(1)
    for (const section of sections) {
      if (section.startsWith('--')) break
      collectBodies(section.replace(/^\r?\n/, ''), out)
    }
    return
  }
  if (!/^text\//i.test(contentType)) {
    const encoding = headers.get('content-transfer-encoding')?.toLowerCase()
    out.attachments.push({
      contentId: headers.get('content-id')?.replace(/^<|>$/g, '') ?? null,
      contentType: contentType.split(';')[0]?.trim().toLowerCase() ?? '',
      content: encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : Buffer.from(body, 'latin1'),
    })
    return
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding'))
  if (/^text\/html/i.test(contentType)) out.html ||= decoded
  else if (/^text\/plain/i.test(contentType)) out.text ||= decoded
}

export function parseEmail(raw: string, file = '', receivedAt = new Date()): Email {
  const { headers } = splitPart(raw)
  const bodies = { text: '', html: '', attachments: [] as Attachment[] }
  collectBodies(raw, bodies)
  return {
    file,
    receivedAt,
    to: decodeHeader(headers.get('to') ?? ''),
    subject: decodeHeader(headers.get('subject') ?? ''),
    text: bodies.text,
    html: bodies.html,
    attachments: bodies.attachments,
  }
}

/** Every message the sink has received, oldest first. */
export function readAllEmails(): Email[] {
  const dir = mailDir()
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.eml') && !name.startsWith('.'))
    .sort()
    .map((name) => {
      const receivedAt = new Date(Number(name.split('-')[0]))
      return parseEmail(fs.readFileSync(path.join(dir, name), 'utf8'), name, receivedAt)
    })
}

/**
 * Waits until an email to `to` (and matching `subject`, received at or after `after`) has arrived,
 * and returns the newest such email.
 */
export async function waitForEmail({
  to,
  subject,
  after,
  timeoutMs = 20_000,
}: {
  to: string
  subject?: RegExp
  after?: Date
  timeoutMs?: number
}): Promise<Email> {
  const deadline = Date.now() + timeoutMs
  const wanted = to.toLowerCase()
  for (;;) {
    const matches = readAllEmails().filter(
      (email) =>
        email.to.toLowerCase().includes(wanted) &&
        (!subject || subject.test(email.subject)) &&
        (!after || email.receivedAt.getTime() >= after.getTime()),
    )
    const newest = matches.at(-1)
    if (newest) return newest
    if (Date.now() > deadline) {
      const seen = readAllEmails().map((email) => `  ${email.to} · ${email.subject}`)
      throw new Error(
        `No email to ${to}${subject ? ` matching ${subject}` : ''} within ${timeoutMs} ms. Received:\n${seen.join('\n') || '  (none)'}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** The first http(s) link in the email (text body first, then HTML) whose URL contains `pathPart`. */
export function extractLink(email: Email, pathPart: string): string {
  const candidates = [
    ...(email.text.match(/https?:\/\/[^\s"'<>)\]]+/g) ?? []),
    ...(email.html.match(/https?:\/\/[^\s"'<>)\]]+/g) ?? []).map((link) => link.replace(/&amp;/g, '&')),
  ]
  const link = candidates.find((candidate) => candidate.includes(pathPart))
  if (!link) throw new Error(`No link containing ${pathPart} in "${email.subject}":\n${email.text || email.html}`)
  return link
}
