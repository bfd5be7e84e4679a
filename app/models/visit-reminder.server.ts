// "Visit reminder" (docs/subsystems.md "Customer notices"): the afternoon-before notice of each open visit, with the
// arrival window its technician's route gives. It reads the day's routes (visit.server) and queues through the one
// way to queue a visit's notice (notice.server); kept apart from both so that neither imports the other
// (docs/architecture.md "No cycles": marking a visit skipped queues a notice, and a reminder reads routes).
import { and, eq, gte, isNull, lt } from 'drizzle-orm'
import { companies, visits } from '~/db/schema'
import { arrivalSentence, arrivalWindow } from '~/notices/arrival-window'
import { addDays, instantAt, type LocalDate, localDateAt } from '~/schedule/local-date'
import { zonedParts } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { getDayRoute } from './day-route.server'
import { listNoticeSubjects, noticeSettingFor, queueVisitNotice } from './notice.server'

/** Reminders go out from this hour of the afternoon before the visit, on the company's clock. */
const REMINDER_FROM_HOUR = 16
/** At most this many reminders per company and run (a run every hour catches up with the rest). */
const REMINDERS_PER_RUN = 2000

/**
 * "Visit reminder": the afternoon before, each open visit of tomorrow gets its reminder, for companies
 * that turned it on. Runs every hour on every server; the notice's unique key makes each reminder once. A reminder
 * gives the two-hour arrival window around the route's ETA for that day, as the route stands when it is queued
 * (docs/decisions/047-customer-times.md); a visit without an ETA (no position) keeps the wording without it. Returns
 * how many were queued.
 */
export async function queueVisitReminders(now = new Date()) {
  const all = await db()
    .select({ id: companies.id, timezone: companies.timezone, settings: companies.noticeSettings })
    .from(companies)
  let queued = 0
  for (const company of all) {
    const { channels } = noticeSettingFor(company.settings, 'visit-reminder')
    if (!channels.email && !channels.text) continue
    if (zonedParts(now, company.timezone).hour < REMINDER_FROM_HOUR) continue
    const tomorrow = addDays(localDateAt(now, company.timezone), 1)
    const visitList = await db()
      .select({ id: visits.id, technicianId: visits.technicianId })
      .from(visits)
      .where(
        and(
          eq(visits.companyId, company.id),
          isNull(visits.completedAt),
          isNull(visits.canceledAt),
          gte(visits.scheduledAt, instantAt(tomorrow, '00:00', company.timezone)),
          lt(visits.scheduledAt, instantAt(addDays(tomorrow, 1), '00:00', company.timezone)),
        ),
      )
      .limit(REMINDERS_PER_RUN)
    // Only visits still to remind: a later run of the afternoon measures no routes again.
    const reminded = new Set(
      await listNoticeSubjects({
        companyId: company.id,
        event: 'visit-reminder',
        subjects: visitList.map((visit) => visit.id),
      }),
    )
    const due = visitList.filter((visit) => !reminded.has(visit.id))
    const arrivals = await arrivalSentences(company.id, company.timezone, tomorrow, due)
    for (const visit of due) {
      queued += await queueVisitNotice(db(), {
        companyId: company.id,
        visitId: visit.id,
        event: 'visit-reminder',
        values: { arrival: arrivals.get(visit.id) ?? null },
      })
    }
  }
  return queued
}

/** Each visit's arrival sentence from its technician's route on `date` (one route a technician). */
async function arrivalSentences(
  companyId: string,
  timezone: string,
  date: LocalDate,
  visitList: readonly { id: string; technicianId: string | null }[],
) {
  const sentences = new Map<string, string>()
  const technicians = [...new Set(visitList.map((visit) => visit.technicianId))]
  for (const technicianId of technicians) {
    const route = await getDayRoute({ companyId, timezone, technicianId, date })
    for (const stop of route.stops) {
      if (stop.etaMinutes !== null) sentences.set(stop.id, arrivalSentence(arrivalWindow(stop.etaMinutes, stop.window)))
    }
  }
  return sentences
}
