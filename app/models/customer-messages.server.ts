// A customer's notices (docs/product.md "Notices"): their own choice of channels, and "Messages" — every email and text
// the outbox holds for them, newest first, with what became of it. Both are read and changed within one company:
// another company's customer is not found.
import { and, desc, eq, sql } from 'drizzle-orm'
import { companies, customers, emailOutbox, textOptOuts } from '~/db/schema'
import type { NoticeChannel } from '~/notices/templates'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'

export const MESSAGES_PAGE_SIZE = 20

const NOT_FOUND = 'This customer no longer exists.'

export type CustomerMessage = {
  id: string
  kind: string
  noticeEvent: string | null
  subject: string
  to: string
  status: (typeof emailOutbox.$inferSelect)['status']
  lastError: string | null
  nextAttemptAt: Date
  sentAt: Date | null
  createdAt: Date
}

export type CustomerMessages = {
  byEmail: boolean
  byText: boolean
  phone: string | null
  /** When the customer's number replied STOP (texts are off for it), or null. */
  textsStoppedAt: Date | null
  timezone: string
  /** The company's end of quiet hours ('HH:MM'): a text held until then is waiting for the morning. */
  quietHoursUntil: string
  page: number
  total: number
  rows: CustomerMessage[]
}

/** The customer's channel choices and one page (1-based, 20 rows) of their messages, newest first. */
export async function getCustomerMessages({
  companyId,
  customerId,
  page = 1,
}: {
  companyId: string
  customerId: string
  page?: number
}): Promise<Result<{ messages: CustomerMessages }>> {
  if (!isUuid(companyId) || !isUuid(customerId)) return failure('not-found', NOT_FOUND)
  const [customer] = await db()
    .select({
      byEmail: customers.noticesByEmail,
      byText: customers.noticesByText,
      phone: customers.phone,
      textsStoppedAt: textOptOuts.optedOutAt,
      timezone: companies.timezone,
      quietHoursUntil: companies.quietHoursUntil,
      // The number of messages rides along with the customer's row: the record page has a dozen statements already.
      total: sql<number>`(select count(*) from ${emailOutbox} where ${emailOutbox.companyId} = ${customers.companyId}
        and ${emailOutbox.customerId} = ${customers.id})`.mapWith(Number),
    })
    .from(customers)
    .innerJoin(companies, eq(companies.id, customers.companyId))
    .leftJoin(textOptOuts, eq(textOptOuts.phone, customers.phone))
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
  if (!customer) return failure('not-found', NOT_FOUND)
  // Both the count above and the page read email_outbox_company_customer_idx (company, customer, created_at desc).
  const mine = and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.customerId, customerId))
  const rows = await db()
    .select({
      id: emailOutbox.id,
      kind: emailOutbox.kind,
      noticeEvent: emailOutbox.noticeEvent,
      subject: emailOutbox.subject,
      to: emailOutbox.to,
      status: emailOutbox.status,
      lastError: emailOutbox.lastError,
      nextAttemptAt: emailOutbox.nextAttemptAt,
      sentAt: emailOutbox.sentAt,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(mine)
    .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
    .limit(MESSAGES_PAGE_SIZE)
    .offset((Math.max(1, page) - 1) * MESSAGES_PAGE_SIZE)
  return success({ messages: { ...customer, page: Math.max(1, page), rows } })
}

/** "Notices by email" / "Notices by text": the customer's own choice, which no company setting overrides. */
export async function setCustomerNoticeChannel({
  companyId,
  customerId,
  channel,
  enabled,
}: {
  companyId: string
  customerId: string
  channel: NoticeChannel
  enabled: boolean
}): Promise<Result<{ channel: NoticeChannel; enabled: boolean }>> {
  if (!isUuid(companyId) || !isUuid(customerId)) return failure('not-found', NOT_FOUND)
  const saved = await db()
    .update(customers)
    .set(channel === 'email' ? { noticesByEmail: enabled } : { noticesByText: enabled })
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    .returning({ id: customers.id })
  return saved.length ? success({ channel, enabled }) : failure('not-found', NOT_FOUND)
}
