// Customer notices (docs/product.md "Notices", issue #20): when an event happens to a visit ("On my way", completed,
// skipped, a reminder), one outbox row per enabled channel and recipient, in the transaction of the event. The outbox's
// unique key (company, event, subject, channel, recipient) makes a notice exactly once however often its event fires —
// a replay from the phone, a retry, two servers. The company decides which channels are on and their wording
// (Settings → "Customer notices"); the customer may turn a channel off; a number that replied STOP gets a row
// recorded as "opted out", never a text.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { companies, customers, emailOutbox, jobs, profiles } from '~/db/schema'
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
import { OPTED_OUT_MESSAGE } from '~/notices/text-delivery.server'
import { type Database, db } from '~/utils/db.server'
import { renderEmail } from '~/utils/email-render.server'
import { env } from '~/utils/env.server'
import { kickOutboxWorker } from '~/utils/outbox-worker.server'
import { visitReportPath } from '~/utils/portal-paths'
import { customerEmailBrand } from './company-brand'

type Executor = Pick<Database, 'select' | 'insert'>

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

export type VisitNotice = {
  companyId: string
  jobId: string
  event: Extract<NoticeEvent, 'on-my-way' | 'visit-completed' | 'visit-skipped' | 'visit-reminder'>
  /** Values only the event knows ("eta", "reason"); the rest come from the visit. */
  values?: TemplateValues
  /** Leave a channel to another message (the completed visit's email is the service report). */
  channels?: NoticeChannel[]
}

/**
 * Queues the notice of `event` for the visit's customer on each channel the company and the customer have on, in
 * the caller's transaction. Returns how many rows were new (0 when the notice was already queued).
 */
export async function queueVisitNotice(executor: Executor, notice: VisitNotice) {
  const { companyId, jobId, event } = notice
  const [visit] = await executor
    .select({
      customerId: customers.id,
      customerName: customers.customerName,
      email: customers.email,
      phone: customers.phone,
      byEmail: customers.noticesByEmail,
      byText: customers.noticesByText,
      choices: customers.noticeChoices,
      archived: sql<boolean>`${customers.archivedAt} is not null`,
      technician: profiles.fullName,
      companyName: companies.name,
      companyEmail: companies.email,
      logoKey: companies.logoKey,
      settings: companies.noticeSettings,
      optedOut: sql<boolean>`exists (select 1 from text_opt_outs o where o.phone = ${customers.phone})`,
    })
    .from(jobs)
    .innerJoin(customers, and(eq(customers.companyId, jobs.companyId), eq(customers.id, jobs.customerId)))
    .innerJoin(companies, eq(companies.id, jobs.companyId))
    .leftJoin(profiles, and(eq(profiles.id, jobs.technicianId), eq(profiles.companyId, jobs.companyId)))
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
  if (!visit || visit.archived) return 0
  const setting = noticeSettingFor(visit.settings, event)
  const values: TemplateValues = {
    customer: visit.customerName,
    technician: visit.technician ?? 'Your technician',
    company: visit.companyName,
    // A completed visit links to its report; every other notice to the customer's portal.
    link: `${env().APP_URL}${event === 'visit-completed' ? visitReportPath(visit.customerId, jobId) : `/customer/${visit.customerId}`}`,
    ...notice.values,
  }
  // The customer's own choice for this event (the portal's "Notifications") is asked after the company's.
  const wanted = (channel: NoticeChannel) =>
    (!notice.channels || notice.channels.includes(channel)) && customerWants(visit.choices, event, channel)
  // A reminder's arrival window is said even by a company's own wording that has no {arrival}.
  const wording = (template: string) =>
    values.arrival && !template.includes('{arrival}') ? `${template} {arrival}` : template
  const base = { companyId, customerId: visit.customerId, noticeEvent: event, noticeSubject: jobId }
  const rows: (typeof emailOutbox.$inferInsert)[] = []
  if (wanted('email') && setting.channels.email && visit.byEmail && visit.email) {
    const message = renderTemplate(wording(setting.templates.email), values)
    const { brand, fromName, replyTo, attachments } = customerEmailBrand({
      name: visit.companyName,
      email: visit.companyEmail,
      logoKey: visit.logoKey,
    })
    const email = await renderEmail({
      template: 'notice',
      props: { heading: NOTICE_LABELS[event], message, companyName: visit.companyName, brand },
    })
    // From the company, not Pool Bud (issue 31 item 5, docs/decisions/039-invoice-pdf.md, 044-company-brand.md).
    rows.push({ ...base, kind: 'email', to: visit.email, fromName, replyTo, attachments, ...email })
  }
  if (wanted('text') && setting.channels.text && visit.byText && visit.phone) {
    const text = renderTemplate(wording(setting.templates.text), values)
    rows.push({
      ...base,
      kind: 'text',
      to: visit.phone,
      subject: NOTICE_LABELS[event],
      html: '',
      text,
      // Kept as a record of why the customer was not texted (their Messages say so); never sent.
      ...(visit.optedOut ? { status: 'opted-out' as const, lastError: OPTED_OUT_MESSAGE } : {}),
    })
  }
  if (rows.length === 0) return 0
  // The outbox's partial unique index (company, event, subject, kind, to) drops a notice already queued.
  const inserted = await executor
    .insert(emailOutbox)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: emailOutbox.id })
  if (inserted.length) kickOutboxWorker()
  return inserted.length
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
