// The company's brand (docs/decisions/044-company-brand.md): the logo file (PNG or JPEG by its bytes, at most 1 MB,
// resized), its public address (the current logo only), the letterhead of the PDF, and customer emails over real
// SMTP (smtp-server on 127.0.0.1) from the company's name, with its Reply-To and its logo inline; staff emails stay
// Pool Bud's.
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, emailOutbox, profiles } from '~/db/schema'
import { sendEmail } from '~/outbox/email.server'
import { deliverDueEmails } from '~/outbox/worker.server'
import { loader as logoLoader } from '~/routes/resources/company-logo'
import { db } from '~/utils/db.server'
import { getObject } from '~/utils/storage.server'
import { findTestCustomer } from '../../tests/helpers/customers'
import { readPdf } from '../../tests/helpers/pdf'
import { useDemoData } from '../../tests/helpers/test-database'
import { invoicePdf } from '../billing/invoice-pdf.server'
import { companyLogoPath, LOGO_MESSAGES, MAX_LOGO_BYTES } from './company-brand'
import { getPublicLogo, LOGO_BOX, processLogo, removeCompanyLogo, saveCompanyLogo } from './company-brand.server'
import { getCompanyLetterhead } from './company-letterhead.server'
import { queueVisitNotice } from './notice.server'
import { createVisit } from './visit-changes.server'

const received: string[] = []
let smtp: SMTPServer
let blue: string
let sunset: string

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: '#0891b2' } })
    .png()
    .toBuffer()
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#f59e0b' } })
    .jpeg()
    .toBuffer()

async function logoOf(companyId: string) {
  const [row] = await db().select({ logoKey: companies.logoKey }).from(companies).where(eq(companies.id, companyId))
  return row?.logoKey ?? null
}

/** What GET /logo/<file> answers for `path` (`/logo/<file>`). */
async function fetchLogo(path: string) {
  const file = path.split('/').at(-1) ?? ''
  const request = new Request(`http://localhost${path}`)
  return (await logoLoader({ request, params: { file }, context: {} } as Parameters<typeof logoLoader>[0])) as Response
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'))
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()))
  // Before anything reads env() in this file (it caches): deliver over this SMTP server.
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`
  await useDemoData()
  const [company] = await db().select().from(companies).where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  const [other] = await db().insert(companies).values({ name: 'Sunset Test Pools' }).returning({ id: companies.id })
  sunset = other?.id ?? ''
})

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
  delete process.env.SMTP_URL
})

describe('processLogo', () => {
  it('keeps a PNG a PNG and a JPEG a JPEG, fitted to the logo box', async () => {
    const wide = await processLogo(await png(1800, 300))
    expect(wide.ok && wide.format).toBe('png')
    if (!wide.ok) return
    const meta = await sharp(wide.bytes).metadata()
    expect(meta.format).toBe('png')
    expect(meta.width).toBe(LOGO_BOX.width)
    expect(meta.height).toBe(100)
    const photo = await processLogo(await jpeg(300, 120))
    expect(photo.ok && photo.format).toBe('jpeg')
    if (photo.ok) expect(await sharp(photo.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 300 })
  })

  it('judges the file by its bytes: a GIF, a text file or a PNG header on garbage is refused', async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer()
    for (const bytes of [
      gif,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]),
    ]) {
      expect(await processLogo(bytes)).toMatchObject({ ok: false, code: 'invalid', message: LOGO_MESSAGES.notImage })
    }
    expect(await processLogo(new Uint8Array())).toMatchObject({ ok: false, message: LOGO_MESSAGES.noFile })
  })

  it('refuses a file over 1 MB before decoding it', async () => {
    const big = Buffer.concat([await png(10, 10), Buffer.alloc(MAX_LOGO_BYTES)])
    expect(await processLogo(big)).toMatchObject({ ok: false, code: 'too-large', message: LOGO_MESSAGES.tooLarge })
  })
})

describe('the stored logo and its address', () => {
  it('serves only the current logo, publicly cached; a replaced or removed one is a 404 and its file is gone', async () => {
    expect(await saveCompanyLogo(sunset, await png(400, 100))).toEqual({ ok: true })
    const first = await logoOf(sunset)
    const firstPath = companyLogoPath(first) ?? ''
    expect(firstPath).toMatch(/^\/logo\/[0-9a-f]{32}\.png$/)
    expect(firstPath).not.toContain(sunset)
    const served = await fetchLogo(firstPath)
    expect(served.status).toBe(200)
    expect(served.headers.get('Content-Type')).toBe('image/png')
    expect(served.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(400)

    expect(await saveCompanyLogo(sunset, await jpeg(200, 100))).toEqual({ ok: true })
    const second = await logoOf(sunset)
    expect(second).toMatch(/\.jpg$/)
    expect((await fetchLogo(firstPath)).status).toBe(404)
    expect(await getObject(first ?? '')).toBeNull()
    expect((await fetchLogo(companyLogoPath(second) ?? '')).status).toBe(200)

    // A guessed token, a path trick, another extension: the same 404.
    for (const file of [`${'0'.repeat(32)}.png`, '..%2F..%2Fetc%2Fpasswd', `${(second ?? '').slice(6, 38)}.png`]) {
      expect(await getPublicLogo(file)).toBeNull()
    }

    expect(await removeCompanyLogo(sunset)).toEqual({ ok: true })
    expect(await logoOf(sunset)).toBeNull()
    expect((await fetchLogo(companyLogoPath(second) ?? '')).status).toBe(404)
    expect(await getObject(second ?? '')).toBeNull()
  })

  it('leaves the company without a logo, and another company untouched, when a file is refused', async () => {
    await saveCompanyLogo(blue, await png(300, 100))
    const blueLogo = await logoOf(blue)
    expect(await saveCompanyLogo(sunset, Buffer.from('not an image'))).toMatchObject({ ok: false })
    expect(await logoOf(sunset)).toBeNull()
    expect(await logoOf(blue)).toBe(blueLogo)
  })
})

describe('the invoice letterhead', () => {
  it('has the address lines, the email and the logo, which the PDF draws', async () => {
    await db()
      .update(companies)
      .set({ email: 'office@bluelagoon.example', mailingAddress: '12 Harbor Way\n\nTampa, FL 33602' })
      .where(eq(companies.id, blue))
    await saveCompanyLogo(blue, await png(300, 100))
    const letterhead = await getCompanyLetterhead(blue)
    expect(letterhead).toMatchObject({
      name: 'Blue Lagoon Pool Co.',
      addressLines: ['12 Harbor Way', 'Tampa, FL 33602'],
      email: 'office@bluelagoon.example',
    })
    expect(letterhead?.logo?.subarray(0, 4).toString('latin1')).toBe('\x89PNG')
    const bytes = await invoicePdf({
      company: letterhead ?? { name: '', addressLines: [], logo: null },
      customer: { name: 'Dana Whitfield', addressLines: [] },
      invoice: { numberLabel: 'INV-7', status: 'Sent', period: null, issuedOn: null, dueOn: null },
      lines: [],
      totals: { subtotal: '$0.00', taxes: [], total: '$0.00', creditApplied: null, paid: '$0.00', amountDue: '$0.00' },
      howToPay: [],
    })
    const pdf = await readPdf(bytes)
    expect(pdf.text).toContain('12 Harbor Way Tampa, FL 33602 office@bluelagoon.example')
    expect(Buffer.from(bytes).toString('latin1')).toContain('/Subtype /Image')
    expect((await getCompanyLetterhead(sunset))?.logo).toBeNull()
  })
})

/** The raw header block of a message, continuation lines unfolded. */
const headersOf = (raw: string) => (raw.split(/\r?\n\r?\n/)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ')

/** The HTML part of a message, quoted-printable decoded. */
function htmlOf(raw: string) {
  const part = raw.split(/\r?\n--/).find((chunk) => /Content-Type: text\/html/i.test(chunk)) ?? ''
  const body = part.slice(part.search(/\r?\n\r?\n/)).replace(/=\r?\n/g, '')
  return body.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
}

describe('customer emails from the company', () => {
  it('come From the company’s name with its Reply-To, and open with its name and its logo inline', async () => {
    await db().delete(emailOutbox)
    received.length = 0
    await db().update(companies).set({ email: 'office@bluelagoon.example' }).where(eq(companies.id, blue))
    await saveCompanyLogo(blue, await png(300, 100))
    const dana = await findTestCustomer('Dana Whitfield', blue)
    await db().update(customers).set({ noticesByText: false }).where(eq(customers.id, dana.id))
    const [tech] = await db().select().from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
    const visit = await createVisit({
      companyId: blue,
      customerId: dana.id,
      customerName: dana.customerName,
      address: dana.address,
      scheduledAt: new Date(),
      technicianId: tech?.id ?? null,
    })
    expect(await queueVisitNotice(db(), { companyId: blue, visitId: visit?.id ?? '', event: 'visit-skipped' })).toBe(1)
    await db().update(customers).set({ noticesByText: true }).where(eq(customers.id, dana.id))
    // A staff email beside it stays Pool Bud's.
    await sendEmail({
      to: 'new.tech@example.com',
      template: 'join-invitation',
      props: { url: 'http://localhost/invitations', companyName: 'Blue Lagoon Pool Co.', roleLabel: 'Technician' },
    })
    expect(await deliverDueEmails()).toEqual({ sent: 2, failed: 0 })

    const notice = received.find((raw) => !/^To: new\.tech/im.test(headersOf(raw))) ?? ''
    const headers = headersOf(notice)
    expect(headers).toMatch(/^From: "Blue Lagoon Pool Co\." <no-reply@localhost>$/m)
    expect(headers).toMatch(/^Reply-To: office@bluelagoon\.example$/m)
    const html = htmlOf(notice)
    expect(html).toContain('src="cid:company-logo"')
    expect(html).toContain('alt="Blue Lagoon Pool Co. logo"')
    expect(html).not.toMatch(/>Pool Bud</)
    // The logo travels with the message as an inline image of that Content-ID.
    expect(notice).toMatch(
      /Content-Type: image\/png[\s\S]*?Content-ID: <company-logo>|Content-ID: <company-logo>[\s\S]*?Content-Type: image\/png/,
    )

    const staff = received.find((raw) => /^To: new\.tech/im.test(headersOf(raw))) ?? ''
    expect(headersOf(staff)).toMatch(/^From: Pool Bud <no-reply@localhost>$/m)
    expect(headersOf(staff)).not.toMatch(/^Reply-To:/im)
    expect(staff).not.toContain('company-logo')
  })
})
