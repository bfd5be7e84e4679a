// Approving or declining a quote (issue 33 item 3; docs/quotes.md, docs/decisions/054): the customer in the portal —
// optional lines ticked, typed name, the signature drawn (or the typed name alone, from the keyboard), time, IP
// address — or the office's "Mark as approved" (who, how, when). Each decision is tied to the exact version decided
// on: approving a version that is no longer the one sent is refused, so what was signed is what was shown. One
// decision per quote (a unique key), made under the quote's row lock, with its webhook event (quote.approved or
// quote.declined, docs/api.md) in the same transaction.
import { and, eq, inArray, isNull } from 'drizzle-orm'
import { depositCents, quoteNumberLabel, quoteTotals } from '~/billing/quote-math'
import { companies, customers, profiles, quoteDecisions, quotes, quoteVersions } from '~/db/schema'
import { renderEmail } from '~/outbox/email-render.server'
import { enqueue } from '~/outbox/enqueue.server'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { isUuid } from '~/utils/ids'
import { formatCents } from '~/utils/money'
import { failure, type Result, success } from '~/utils/result'
import { putObject } from '~/utils/storage.server'
import { linesForTotals } from './quote-edits.server'

export const DECISION_MESSAGES = {
  notFound: 'Quote not found.',
  stale: 'This quote has changed: review the new version.',
  decided: 'This quote was already approved or declined.',
  expired: 'This quote has expired: ask the company for a new one.',
  notSent: 'This quote has not been sent yet.',
  signature: 'The signature could not be read: sign again, or leave it blank to sign with your typed name.',
} as const

/** The largest signature image kept (a drawn PNG is a few KB). */
const MAX_SIGNATURE_BYTES = 200_000
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A canvas's `data:image/png;base64,…` as PNG bytes; null when it is not a PNG of a sensible size. */
export function signaturePngOf(dataUrl: string): Buffer | null {
  const match = /^data:image\/png;base64,([A-Za-z0-9+/]+=*)$/.exec(dataUrl)
  if (!match?.[1]) return null
  const bytes = Buffer.from(match[1], 'base64')
  if (bytes.length < PNG_MAGIC.length || bytes.length > MAX_SIGNATURE_BYTES) return null
  return bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC) ? bytes : null
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

/** The quote locked, with the version the customer sees (the current one, if sent and the quote is not a draft). */
async function lockForDecision(tx: Tx, companyId: string, quoteId: string, customerId?: string) {
  if (!isUuid(quoteId)) return null
  const [quote] = await tx
    .select({
      id: quotes.id,
      number: quotes.number,
      customerId: quotes.customerId,
      state: quotes.state,
      currentVersion: quotes.currentVersion,
    })
    .from(quotes)
    .where(
      and(
        eq(quotes.companyId, companyId),
        eq(quotes.id, quoteId),
        customerId ? eq(quotes.customerId, customerId) : undefined,
      ),
    )
    .for('update')
  if (!quote) return null
  const [version] = await tx
    .select()
    .from(quoteVersions)
    .where(
      and(
        eq(quoteVersions.companyId, companyId),
        eq(quoteVersions.quoteId, quote.id),
        eq(quoteVersions.version, quote.currentVersion),
      ),
    )
  return version ? { quote, version } : null
}

type Checked = NonNullable<Awaited<ReturnType<typeof lockForDecision>>>

/** Why `versionId` may not be decided on today, if it may not. */
function refusal(found: Checked, versionId: string | null, today: string) {
  const { quote, version } = found
  if (quote.state === 'approved' || quote.state === 'declined') return failure('conflict', DECISION_MESSAGES.decided)
  // The office is preparing a new version (a draft again), or the page showed an older one.
  if (versionId !== null && (version.id !== versionId || quote.state === 'draft')) {
    return failure('conflict', DECISION_MESSAGES.stale)
  }
  if (quote.state === 'draft' || !version.sentAt) return failure('conflict', DECISION_MESSAGES.notSent)
  if (version.validUntil !== null && version.validUntil < today) return failure('conflict', DECISION_MESSAGES.expired)
  return null
}

async function amountsFor(tx: Tx, companyId: string, version: Checked['version'], ticked: string[]) {
  const lines = await linesForTotals(tx, companyId, version.id)
  // Only this version's optional lines can be chosen; anything else posted is ignored.
  const chosen = lines.filter((line) => line.optional && ticked.includes(line.id)).map((line) => line.id)
  const totals = quoteTotals(lines, version.taxRateMilliPercent, new Set(chosen))
  const deposit = depositCents({ kind: version.depositKind, value: version.depositValue }, totals.totalCents)
  return { chosen, totals, deposit }
}

/** Tells the company's owners and admins, once per quote (the outbox's notice key). */
async function notifyOffice(tx: Tx, companyId: string, found: Checked, heading: string, lines: string[]) {
  const office = await tx
    .select({ email: profiles.email })
    .from(profiles)
    .where(
      and(
        eq(profiles.companyId, companyId),
        inArray(profiles.role, ['owner', 'admin']),
        isNull(profiles.deactivatedAt),
      ),
    )
  const [company] = await tx.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId))
  if (!office.length) return
  const email = await renderEmail({
    template: 'card',
    props: {
      subject: `${heading}: ${quoteNumberLabel(found.quote.number)}`,
      heading,
      lines,
      actionLabel: 'Open the quote',
      url: `${env().APP_URL}/app/quotes/${found.quote.id}`,
      footer: `You receive this email as an owner or admin of ${company?.name ?? 'the company'} on Pool Bud.`,
    },
  })
  await enqueue(
    tx,
    office.map((member) => ({
      kind: 'email' as const,
      companyId,
      to: member.email,
      notice: { event: 'quote-decided', subject: found.quote.id },
      ...email,
    })),
  )
}

/**
 * The `quote.approved` webhook event (docs/api.md "Webhooks"), in the decision's transaction: the quote's row lock
 * and the one-decision key make the decision — and so its event — happen once, however often "Approve" is pressed.
 */
async function recordApproved(
  tx: Tx,
  companyId: string,
  found: Checked,
  source: 'customer' | 'office',
  totalCents: number,
  depositCents: number,
) {
  await enqueue(tx, {
    kind: 'webhook',
    companyId,
    type: 'quote.approved',
    data: {
      quoteId: found.quote.id,
      number: quoteNumberLabel(found.quote.number),
      customerId: found.quote.customerId,
      version: found.version.version,
      source,
      totalCents,
      depositCents,
    },
  })
}

async function customerName(tx: Tx, companyId: string, customerId: string) {
  const [row] = await tx
    .select({ name: customers.customerName })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
  return row?.name ?? 'The customer'
}

export type CustomerApproval = {
  companyId: string
  customerId: string
  quoteId: string
  /** The version the customer's page showed. */
  versionId: string
  signerName: string
  /** The drawn signature; null when the customer signed with their typed name (keyboard). */
  signaturePng: Buffer | null
  ipAddress: string | null
  tickedLineIds: string[]
  today: string
  now?: Date
}

/** "Approve" in the portal. */
export async function approveQuote(
  input: CustomerApproval,
  database: Database = db(),
): Promise<Result<{ totalCents: number; depositCents: number }>> {
  const { companyId, quoteId } = input
  return database.transaction(async (tx) => {
    const found = await lockForDecision(tx, companyId, quoteId, input.customerId)
    if (!found) return failure('not-found', DECISION_MESSAGES.notFound)
    const refused = refusal(found, input.versionId, input.today)
    if (refused) return refused
    const { chosen, totals, deposit } = await amountsFor(tx, companyId, found.version, input.tickedLineIds)
    const now = input.now ?? new Date()
    let signatureKey: string | null = null
    if (input.signaturePng) {
      signatureKey = `quote-signatures/${companyId}/${quoteId}/${found.version.id}.png`
      await putObject(signatureKey, input.signaturePng, 'image/png')
    }
    await tx.insert(quoteDecisions).values({
      companyId,
      quoteId,
      versionId: found.version.id,
      decision: 'approved',
      source: 'customer',
      signerName: input.signerName,
      signatureKey,
      ipAddress: input.ipAddress,
      chosenLineIds: chosen,
      ...totals,
      depositCents: deposit,
      decidedAt: now,
    })
    await tx
      .update(quotes)
      .set({ state: 'approved' })
      .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quoteId)))
    await recordApproved(tx, companyId, found, 'customer', totals.totalCents, deposit)
    const name = await customerName(tx, companyId, found.quote.customerId)
    await notifyOffice(tx, companyId, found, 'Quote approved', [
      `${name} approved quote ${quoteNumberLabel(found.quote.number)} (version ${found.version.version}) for ${formatCents(totals.totalCents)}, signed by ${input.signerName}.`,
      ...(deposit > 0 ? [`Deposit: ${formatCents(deposit)}.`] : []),
    ])
    return success({ totalCents: totals.totalCents, depositCents: deposit })
  })
}

/** "Decline" in the portal, with the customer's reason. */
export async function declineQuote(
  input: Omit<CustomerApproval, 'signaturePng' | 'tickedLineIds'> & { reason: string },
  database: Database = db(),
): Promise<Result<object>> {
  const { companyId, quoteId } = input
  return database.transaction(async (tx) => {
    const found = await lockForDecision(tx, companyId, quoteId, input.customerId)
    if (!found) return failure('not-found', DECISION_MESSAGES.notFound)
    const refused = refusal(found, input.versionId, input.today)
    if (refused) return refused
    await tx.insert(quoteDecisions).values({
      companyId,
      quoteId,
      versionId: found.version.id,
      decision: 'declined',
      source: 'customer',
      signerName: input.signerName,
      ipAddress: input.ipAddress,
      declineReason: input.reason,
      decidedAt: input.now ?? new Date(),
    })
    await tx
      .update(quotes)
      .set({ state: 'declined' })
      .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quoteId)))
    await enqueue(tx, {
      kind: 'webhook',
      companyId,
      type: 'quote.declined',
      data: {
        quoteId,
        number: quoteNumberLabel(found.quote.number),
        customerId: found.quote.customerId,
        version: found.version.version,
        reason: input.reason,
      },
    })
    const name = await customerName(tx, companyId, found.quote.customerId)
    await notifyOffice(tx, companyId, found, 'Quote declined', [
      `${name} declined quote ${quoteNumberLabel(found.quote.number)} (version ${found.version.version}).`,
      `Their reason: ${input.reason}`,
    ])
    return success({})
  })
}

/** "Mark as approved" (the office): who approved, how (phone, paper, in person) and when; no signature. */
export async function markQuoteApproved(
  input: {
    companyId: string
    quoteId: string
    approvedBy: string
    method: 'phone' | 'paper' | 'in-person'
    approvedAt: Date
    recordedBy: string
    tickedLineIds: string[]
    today: string
  },
  database: Database = db(),
): Promise<Result<{ totalCents: number }>> {
  const { companyId, quoteId } = input
  return database.transaction(async (tx) => {
    const found = await lockForDecision(tx, companyId, quoteId)
    if (!found) return failure('not-found', DECISION_MESSAGES.notFound)
    const refused = refusal(found, null, '0000-00-00')
    if (refused) return refused
    const { chosen, totals, deposit } = await amountsFor(tx, companyId, found.version, input.tickedLineIds)
    await tx.insert(quoteDecisions).values({
      companyId,
      quoteId,
      versionId: found.version.id,
      decision: 'approved',
      source: 'office',
      signerName: input.approvedBy,
      officeMethod: input.method,
      recordedBy: input.recordedBy,
      chosenLineIds: chosen,
      ...totals,
      depositCents: deposit,
      decidedAt: input.approvedAt,
    })
    await tx
      .update(quotes)
      .set({ state: 'approved' })
      .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quoteId)))
    await recordApproved(tx, companyId, found, 'office', totals.totalCents, deposit)
    return success({ totalCents: totals.totalCents })
  })
}

export type QuoteDecisionView = {
  decision: 'approved' | 'declined'
  source: 'customer' | 'office'
  signerName: string
  signed: boolean
  ipAddress: string | null
  declineReason: string | null
  officeMethod: 'phone' | 'paper' | 'in-person' | null
  recordedByName: string | null
  version: number
  chosenLineIds: string[]
  subtotalCents: number
  taxCents: number
  totalCents: number
  depositCents: number
  decidedAt: Date
}

/** The quote's decision, if any, with the version it was made on. */
export async function getQuoteDecision(companyId: string, quoteId: string): Promise<QuoteDecisionView | null> {
  if (!isUuid(quoteId)) return null
  const [row] = await db()
    .select({
      decision: quoteDecisions.decision,
      source: quoteDecisions.source,
      signerName: quoteDecisions.signerName,
      signatureKey: quoteDecisions.signatureKey,
      ipAddress: quoteDecisions.ipAddress,
      declineReason: quoteDecisions.declineReason,
      officeMethod: quoteDecisions.officeMethod,
      recordedByName: profiles.fullName,
      version: quoteVersions.version,
      chosenLineIds: quoteDecisions.chosenLineIds,
      subtotalCents: quoteDecisions.subtotalCents,
      taxCents: quoteDecisions.taxCents,
      totalCents: quoteDecisions.totalCents,
      depositCents: quoteDecisions.depositCents,
      decidedAt: quoteDecisions.decidedAt,
    })
    .from(quoteDecisions)
    .innerJoin(
      quoteVersions,
      and(eq(quoteVersions.companyId, quoteDecisions.companyId), eq(quoteVersions.id, quoteDecisions.versionId)),
    )
    .leftJoin(profiles, eq(profiles.id, quoteDecisions.recordedBy))
    .where(and(eq(quoteDecisions.companyId, companyId), eq(quoteDecisions.quoteId, quoteId)))
  if (!row) return null
  const { signatureKey, ...rest } = row
  return { ...rest, signed: signatureKey !== null }
}
