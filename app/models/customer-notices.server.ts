// The customer's side of notices (the portal's "Notifications", docs/decisions/047-customer-times.md): which events
// and channels the company sends them, what they turned off, whether their number replied STOP; saving their choice;
// and the arrival window of today's visit from the route's ETA.
import { and, eq, isNull, sql } from 'drizzle-orm'
import { companies, customers, profiles, visits } from '~/db/schema'
import type { NoticeChoices } from '~/db/schema/customers'
import { type ArrivalWindow, arrivalWindow } from '~/notices/arrival-window'
import { customerWants } from '~/notices/customer-choices'
import { NOTICE_CHANNELS, NOTICE_EVENTS, type NoticeChannel, type NoticeEvent } from '~/notices/templates'
import { addDays, instantAt, type LocalDate } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { getDayRoute, TECHNICIAN_DAY_COLUMNS, technicianDayOf } from './day-route.server'
import { noticeSettingFor } from './notice.server'

export type NoticeChoiceRow = {
  event: NoticeEvent
  /** Per channel: null when the company does not send it; else whether the customer has it on. */
  channels: Record<NoticeChannel, boolean | null>
}

/** The events the company sends the customer, each channel on or off by the customer's choice (one query). */
export async function getCustomerNoticeChoices({ companyId, customerId }: { companyId: string; customerId: string }) {
  const [row] = await db()
    .select({
      settings: companies.noticeSettings,
      choices: customers.noticeChoices,
      phone: customers.phone,
      optedOut: sql<boolean>`exists (select 1 from text_opt_outs o where o.phone = ${customers.phone})`,
    })
    .from(customers)
    .innerJoin(companies, eq(companies.id, customers.companyId))
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
  if (!row) return null
  const events: NoticeChoiceRow[] = []
  for (const event of NOTICE_EVENTS) {
    const { channels } = noticeSettingFor(row.settings, event)
    if (!channels.email && !channels.text) continue
    events.push({
      event,
      channels: {
        email: channels.email ? customerWants(row.choices, event, 'email') : null,
        text: channels.text ? customerWants(row.choices, event, 'text') : null,
      },
    })
  }
  return { events, optedOut: Boolean(row.optedOut) }
}

/**
 * Saves the customer's choice: `on` lists the "event:channel" pairs left on; every pair the company sends that is not
 * listed is off. Pairs the company does not send are left as they were (so they come back on if it starts sending).
 */
export async function saveCustomerNoticeChoices({
  companyId,
  customerId,
  on,
}: {
  companyId: string
  customerId: string
  on: readonly string[]
}) {
  const current = await getCustomerNoticeChoices({ companyId, customerId })
  if (!current) return false
  const wanted = new Set(on)
  return db().transaction(async (tx) => {
    const [stored] = await tx
      .select({ choices: customers.noticeChoices })
      .from(customers)
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
      .for('update')
    const choices: NoticeChoices = { ...(stored?.choices ?? {}) }
    for (const { event, channels } of current.events) {
      const next = { ...(choices[event] ?? {}) }
      for (const channel of NOTICE_CHANNELS) {
        // A number that replied STOP shows its text boxes disabled (nothing posted): its choice stays as it was.
        if (channels[channel] === null || (channel === 'text' && current.optedOut)) continue
        next[channel] = wanted.has(`${event}:${channel}`)
      }
      choices[event] = next
    }
    await tx
      .update(customers)
      .set({ noticeChoices: choices })
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    return true
  })
}

/**
 * The arrival window of the customer's open visit on `today` (the first, when there are several), from its route's
 * ETA (docs/routing.md) as reminders give it; null without a visit today or without an ETA (no position).
 */
export async function todaysArrival({
  companyId,
  customerId,
  timezone,
  today,
}: {
  companyId: string
  customerId: string
  timezone: string
  today: LocalDate
}): Promise<ArrivalWindow | null> {
  // The visit with its technician's day, in one statement (the portal's home stays within its statement budget).
  const [visit] = await db()
    .select({ id: visits.id, technicianId: visits.technicianId, ...TECHNICIAN_DAY_COLUMNS })
    .from(visits)
    .innerJoin(companies, eq(companies.id, visits.companyId))
    .leftJoin(profiles, and(eq(profiles.companyId, visits.companyId), eq(profiles.id, visits.technicianId)))
    .where(
      and(
        eq(visits.companyId, companyId),
        eq(visits.customerId, customerId),
        isNull(visits.completedAt),
        isNull(visits.canceledAt),
        sql`${visits.scheduledAt} >= ${instantAt(today, '00:00', timezone)}`,
        sql`${visits.scheduledAt} < ${instantAt(addDays(today, 1), '00:00', timezone)}`,
      ),
    )
    .orderBy(visits.scheduledAt)
    .limit(1)
  if (!visit) return null
  const route = await getDayRoute({
    companyId,
    timezone,
    technicianId: visit.technicianId,
    date: today,
    day: technicianDayOf(visit),
  })
  const stop = route.stops.find((row) => row.id === visit.id)
  return stop?.etaMinutes == null ? null : arrivalWindow(stop.etaMinutes, stop.window)
}
