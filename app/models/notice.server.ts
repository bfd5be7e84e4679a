// Customer notices (docs/product.md "Notices", issue #20): when an event happens to a visit ("On my way", completed,
// skipped, a reminder) or an invoice (invoice-notice.server.ts), one outbox row per enabled channel and recipient,
// queued by `queueCustomerNotice` through the outbox's `enqueue`, in the transaction of the event. The outbox's
// unique key (company, event, subject, channel, recipient) makes a notice exactly once however often its event fires —
// a replay from the phone, a retry, two servers. The company decides which channels are on and their wording
// (Settings → "Customer notices"); the customer may turn a channel off; a number that replied STOP gets a row
// recorded as "opted out", never a text.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { companies, customers, emailOutbox, profiles, visits } from '~/db/schema'
import type { EmailBrandProps, EmailContent } from '~/mail/templates'
import { customerWants } from '~/notices/customer-choices'
import {
  DEFAULT_CHANNELS,
  DEFAULT_TEMPLATES,
  NOTICE_LABELS,
  type NoticeChannel,
  type NoticeEvent,
  renderTemplate,
  type TemplateValues,
} from '~/notices/templates'
import { renderEmail } from '~/outbox/email-render.server'
import { enqueue, type OutboxExecutor, type OutboxMessage } from '~/outbox/enqueue.server'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { visitReportPath } from '~/utils/portal-paths'
import { customerEmailBrand } from './company-brand'

type Executor = Pick<Database, 'select' | 'insert' | 'execute'>

/** What a company's settings say for one event: channels on, and the wording of each. */
export function noticeSettingFor(
  settings: (typeof companies.$inferSelect)['noticeSettings'],
  event: NoticeEvent,
): { channels: Record<NoticeChannel, boolean>; templates: Record<NoticeChannel, string> } {
  const own = settings[event] ?? {}
  return {
    channels: { email: own.email ?? DEFAULT_CHANNELS[event].email, text: own.text ?? DEFAULT_CHANNELS[event].text },
    templates: {
      email: own.emailTemplate || DEFAULT_TEMPLATES[event],
      text: own.textTemplate || DEFAULT_TEMPLATES[event],
    },
  }
}

type Customer = typeof customers.$inferSelect
type Company = typeof companies.$inferSelect

/** The customer and company as a notice needs them, read in its event's own query (`noticeRecipientColumns`). */
export type NoticeRecipient = {
  customerId: Customer['id']
  customerName: Customer['customerName']
  email: Customer['email']
  phone: Customer['phone']
  byEmail: Customer['noticesByEmail']
  byText: Customer['noticesByText']
  choices: Customer['noticeChoices']
  archived: boolean
  companyName: Company['name']
  companyEmail: Company['email']
  logoKey: Company['logoKey']
  settings: Company['noticeSettings']
  optedOut: boolean
}

/** The columns of a `NoticeRecipient`, for a select that joins the customer and their company. */
export const noticeRecipientColumns = {
  customerId: customers.id,
  customerName: customers.customerName,
  email: customers.email,
  phone: customers.phone,
  byEmail: customers.noticesByEmail,
  byText: customers.noticesByText,
  choices: customers.noticeChoices,
  archived: sql<boolean>`${customers.archivedAt} is not null`,
  companyName: companies.name,
  companyEmail: companies.email,
  logoKey: companies.logoKey,
  settings: companies.noticeSettings,
  optedOut: sql<boolean>`exists (select 1 from text_opt_outs o where o.phone = ${customers.phone})`,
}

export type CustomerNotice = {
  companyId: string
  event: NoticeEvent
  /** What the notice is about, its key's subject: a visit's id, an invoice's (with its day for an overdue one). */
  subject: string
  recipient: NoticeRecipient
  values: TemplateValues
  /** Leave a channel to another message (the completed visit's email is the service report). */
  channels?: NoticeChannel[]
  /** The email around the company's wording of the notice: its template and props. */
  email: (drawn: { message: string; brand: EmailBrandProps }) => Promise<EmailContent>
}

/**
 * The one way a customer notice is queued (visits' and invoices'): one outbox row per channel the company has on for
 * the event, the customer has on (notices by email or text, and their own choice for the event) and has an address
 * for, in the caller's transaction; an archived customer is told nothing. Returns how many rows were new (0 when the
 * notice was already queued).
 */
export async function queueCustomerNotice(executor: OutboxExecutor, notice: CustomerNotice) {
  const { companyId, event, recipient, values } = notice
  if (recipient.archived) return 0
  const setting = noticeSettingFor(recipient.settings, event)
  // The customer's own choice for this event (the portal's "Notifications") is asked after the company's.
  const wanted = (channel: NoticeChannel) =>
    (!notice.channels || notice.channels.includes(channel)) &&
    setting.channels[channel] &&
    customerWants(recipient.choices, event, channel)
  // A reminder's arrival window is said even by a company's own wording that has no {arrival}.
  const wording = (template: string) =>
    renderTemplate(values.arrival && !template.includes('{arrival}') ? `${template} {arrival}` : template, values)
  const addressed = { companyId, customerId: recipient.customerId, notice: { event, subject: notice.subject } }
  const messages: OutboxMessage[] = []
  if (wanted('email') && recipient.byEmail && recipient.email) {
    const { brand, fromName, replyTo, attachments } = customerEmailBrand({
      name: recipient.companyName,
      email: recipient.companyEmail,
      logoKey: recipient.logoKey,
    })
    const email = await renderEmail(await notice.email({ message: wording(setting.templates.email), brand }))
    // From the company, not Pool Bud (issue 31 item 5, docs/decisions/039-invoice-pdf.md, 044-company-brand.md).
    messages.push({ kind: 'email', ...addressed, to: recipient.email, fromName, replyTo, attachments, ...email })
  }
  if (wanted('text') && recipient.byText && recipient.phone) {
    messages.push({
      kind: 'text',
      ...addressed,
      to: recipient.phone,
      label: NOTICE_LABELS[event],
      text: wording(setting.templates.text),
      // Kept as a record of why the customer was not texted (their Messages say so); never sent.
      optedOut: recipient.optedOut,
    })
  }
  return (await enqueue(executor, messages)).length
}

export type VisitNotice = {
  companyId: string
  visitId: string
  event: Extract<NoticeEvent, 'on-my-way' | 'visit-completed' | 'visit-skipped' | 'visit-reminder'>
  /** Values only the event knows ("eta", "reason"); the rest come from the visit. */
  values?: TemplateValues
  /** Leave a channel to another message (the completed visit's email is the service report). */
  channels?: NoticeChannel[]
}

/**
 * Queues the notice of `event` for the visit's customer (`queueCustomerNotice`), in the caller's transaction.
 * Returns how many rows were new (0 when the notice was already queued).
 */
export async function queueVisitNotice(executor: Executor, notice: VisitNotice) {
  const { companyId, visitId, event } = notice
  const [visit] = await executor
    .select({ ...noticeRecipientColumns, technician: profiles.fullName })
    .from(visits)
    .innerJoin(customers, and(eq(customers.companyId, visits.companyId), eq(customers.id, visits.customerId)))
    .innerJoin(companies, eq(companies.id, visits.companyId))
    .leftJoin(profiles, and(eq(profiles.id, visits.technicianId), eq(profiles.companyId, visits.companyId)))
    .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
  if (!visit) return 0
  return queueCustomerNotice(executor, {
    companyId,
    event,
    subject: visitId,
    recipient: visit,
    channels: notice.channels,
    values: {
      customer: visit.customerName,
      technician: visit.technician ?? 'Your technician',
      company: visit.companyName,
      // A completed visit links to its report; every other notice to the customer's portal.
      link: `${env().APP_URL}${event === 'visit-completed' ? visitReportPath(visit.customerId, visitId) : `/customer/${visit.customerId}`}`,
      ...notice.values,
    },
    email: async ({ message, brand }) => ({
      template: 'notice',
      props: { heading: NOTICE_LABELS[event], message, companyName: visit.companyName, brand },
    }),
  })
}

/** Of `subjects` (visit ids), those with a notice of `event` queued (any channel): one indexed query. */
export async function listNoticeSubjects({
  companyId,
  event,
  subjects,
}: {
  companyId: string
  event: NoticeEvent
  subjects: string[]
}) {
  if (subjects.length === 0) return []
  const rows = await db()
    .selectDistinct({ subject: emailOutbox.noticeSubject })
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.companyId, companyId),
        eq(emailOutbox.noticeEvent, event),
        inArray(emailOutbox.noticeSubject, subjects),
      ),
    )
  return rows.map((row) => row.subject).filter((subject): subject is string => subject !== null)
}
