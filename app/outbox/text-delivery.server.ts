// How the outbox worker sends a text (docs/product.md "Notices", issue #20): never to a number that replied STOP, never
// inside the company's quiet hours (deferred to their end, on the company's clock), through Twilio when configured and
// to the built-in mailbox's "Texts" otherwise. An attempt whose answer was lost (a timeout after the request went out,
// a 5xx) is marked, and before sending again the worker asks Twilio whether it took the text: a retry never makes a
// customer's phone buzz twice. The worker (app/outbox/worker.server.ts) claims rows with SKIP LOCKED and a lease, so
// several servers never send one row at once.
import { eq } from 'drizzle-orm'
import { companies, inboundTexts, mailboxMessages, textOptOuts } from '~/db/schema'
import { DEFAULT_QUIET_HOURS, type QuietHours, sendableAt } from '~/notices/quiet-hours'
import { findSentText, sendText } from '~/notices/twilio.server'
import { type TwilioConfig, twilioConfig } from '~/notices/twilio-config.server'
import { isWallTime } from '~/schedule/local-date'
import { type Database, db } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import { registerTextSender, type TextDelivery } from './worker.server'

/** Marks a retry whose earlier attempt may have been taken by Twilio (kept in the row's last error). */
export const ANSWER_LOST = 'Answer lost, checking before sending again: '

export const OPTED_OUT_MESSAGE = 'This number replied STOP: no texts are sent to it until it replies START.'

/** Whether `phone` replied STOP to our texting number. */
export async function isOptedOut(phone: string) {
  const [row] = await db().select({ phone: textOptOuts.phone }).from(textOptOuts).where(eq(textOptOuts.phone, phone))
  return Boolean(row)
}

/** Records an opt-out (a STOP reply, or Twilio refusing the number with 21610); a second one changes nothing. */
export async function recordOptOut(phone: string, via: string, executor: Database = db()) {
  await executor.insert(textOptOuts).values({ phone, via }).onConflictDoNothing()
}

/** START: the number may be texted again. */
export async function removeOptOut(phone: string, executor: Database = db()) {
  await executor.delete(textOptOuts).where(eq(textOptOuts.phone, phone))
}

/**
 * An inbound STOP or START, applied once per Twilio MessageSid (decision 032): Twilio's signatures carry no time, so
 * a captured signed START posted again must not undo a later STOP. The MessageSid is stored in the transaction of its
 * effect; a second post of it (or two at once: the second insert waits for the first) finds it and changes nothing.
 */
export async function applyInboundKeyword({
  messageSid,
  phone,
  keyword,
  via,
}: {
  messageSid: string
  phone: string | null
  keyword: 'opt-out' | 'opt-in' | 'none'
  via: string
}): Promise<'applied' | 'duplicate'> {
  return db().transaction(async (tx) => {
    const [fresh] = await tx
      .insert(inboundTexts)
      .values({ messageSid })
      .onConflictDoNothing()
      .returning({ messageSid: inboundTexts.messageSid })
    if (!fresh) return 'duplicate'
    if (phone && keyword === 'opt-out') await recordOptOut(phone, via, tx)
    if (phone && keyword === 'opt-in') await removeOptOut(phone, tx)
    return 'applied'
  })
}

async function quietHoursOf(companyId: string | null): Promise<{ quiet: QuietHours; timeZone: string } | null> {
  if (!companyId) return null
  const [company] = await db()
    .select({ timezone: companies.timezone, from: companies.quietHoursFrom, until: companies.quietHoursUntil })
    .from(companies)
    .where(eq(companies.id, companyId))
  if (!company) return null
  const quiet =
    isWallTime(company.from) && isWallTime(company.until)
      ? { from: company.from, until: company.until }
      : DEFAULT_QUIET_HOURS
  return { quiet, timeZone: company.timezone }
}

type Row = { id: string; companyId: string | null; to: string; text: string; lastError: string | null; createdAt: Date }

/** Sends one text row, or says why not now (see TextDelivery). */
export async function deliverTextRow(
  row: Row,
  now: Date,
  { config = twilioConfig(), timeoutMs }: { config?: TwilioConfig; timeoutMs?: number } = {},
): Promise<TextDelivery> {
  if (await isOptedOut(row.to)) return { status: 'opted-out', message: OPTED_OUT_MESSAGE }
  const hours = await quietHoursOf(row.companyId)
  if (hours) {
    const at = sendableAt(now, hours.quiet, hours.timeZone)
    if (at > now) return { status: 'deferred', until: at }
  }
  if (!config) {
    await db()
      .insert(mailboxMessages)
      .values({ kind: 'text', to: row.to, from: 'Pool Bud', subject: '', html: '', text: row.text })
    logger.info({ to: row.to }, 'text delivered to the built-in mailbox')
    return { status: 'sent', providerId: null }
  }
  if (row.lastError?.startsWith(ANSWER_LOST)) {
    const found = await findSentText(config, { to: row.to, body: row.text, since: row.createdAt }, { timeoutMs })
    if (found === 'unknown') {
      return {
        status: 'retry',
        message: `${ANSWER_LOST}Twilio could not be asked whether it took the text.`,
        retryAfterMs: null,
      }
    }
    if (found) return { status: 'sent', providerId: found }
  }
  const outcome = await sendText(config, { to: row.to, body: row.text }, { timeoutMs })
  switch (outcome.status) {
    case 'accepted':
      return { status: 'sent', providerId: outcome.sid }
    case 'opted-out':
      await recordOptOut(row.to, 'provider')
      return { status: 'opted-out', message: OPTED_OUT_MESSAGE }
    case 'failed':
      return { status: 'failed', message: outcome.message }
    case 'retry':
      return {
        status: 'retry',
        message: `${outcome.ambiguous ? ANSWER_LOST : ''}${outcome.message}`,
        retryAfterMs: outcome.retryAfterMs,
      }
    case 'not-configured':
      return { status: 'retry', message: 'Texts are not configured.', retryAfterMs: null }
  }
}

registerTextSender((row, now) => deliverTextRow(row, now))
