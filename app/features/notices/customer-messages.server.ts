// The customer record's part for notices: the customer's channel choices and their "Messages", as the page shows
// them (dates in the company's timezone, status in words).
import { notFound } from '~/auth/guards.server'
import { getCustomerMessages, MESSAGES_PAGE_SIZE } from '~/models/customer-messages.server'
import { NOTICE_LABELS, type NoticeEvent } from '~/notices/templates'
import { formatDate, formatDateTime } from '~/utils/dates'
import { readPage } from '~/utils/paging'
import { formatPhone } from '~/utils/phone'
import { messageStatus } from './message-status'

export async function loadCustomerMessages({
  companyId,
  customerId,
  url,
  now = new Date(),
}: {
  companyId: string
  customerId: string
  url: URL
  now?: Date
}) {
  const found = await getCustomerMessages({ companyId, customerId, page: readPage(url, 'messages') })
  if (!found.ok) notFound()
  const { messages } = found
  const { timezone, quietHoursUntil } = messages
  return {
    byEmail: messages.byEmail,
    byText: messages.byText,
    textsStoppedOn: messages.textsStoppedAt ? formatDate(messages.textsStoppedAt, timezone) : null,
    page: messages.page,
    pageCount: Math.max(1, Math.ceil(messages.total / MESSAGES_PAGE_SIZE)),
    total: messages.total,
    rows: messages.rows.map((row) => ({
      id: row.id,
      what: NOTICE_LABELS[row.noticeEvent as NoticeEvent] ?? row.subject,
      channel: row.kind === 'text' ? 'Text' : 'Email',
      to: row.kind === 'text' ? formatPhone(row.to) : row.to,
      when: formatDateTime(row.sentAt ?? row.createdAt, timezone),
      status: messageStatus(row, { now, timezone, quietHoursUntil }),
    })),
  }
}

export type CustomerMessagesData = Awaited<ReturnType<typeof loadCustomerMessages>>
