// What the visit page shows (docs/product.md "The visit"), read in one fixed set of queries. Its plain forms' changes
// are app/features/visits/visit-plain-changes.server.ts; the office's forms, app/features/visits/visit-actions.server.ts.
import { and, eq } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { requireViewableVisit } from '~/auth/guards.server'
import { profiles, visits } from '~/db/schema'
import { assignFormVisit } from '~/features/visits/assign-visit.server'
import { listChecklist, listVisitChecks } from '~/models/checklist.server'
import { listChemLogsForVisit } from '~/models/chem-log.server'
import { listChemicalsForVisit } from '~/models/chemical-addition.server'
import { listVisitPhotos, shownPhoto } from '~/models/photo.server'
import { listTechnicians } from '~/models/profile.server'
import { listStockForVisit } from '~/models/stock-lists.server'
import { wallTimeOf } from '~/models/visit.server'
import { visitState } from '~/models/visit-state'
import { localDateAt } from '~/schedule/local-date'
import { formatDateTime, formatTime } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { can, type Role } from '~/utils/permissions'
import { adviceForLatest, describePool, summarizeReading } from '~/water/summary'
import { type PoolProfile, poolProfileOf } from '~/water/targets'
import type { HomeName } from './back-link'

type Viewable = Awaited<ReturnType<typeof requireViewableVisit>>

const completer = alias(profiles, 'completer')

/** The visit's notes and who completed it: the columns the shared visit read does not carry. */
async function readVisitWork(companyId: string, visitId: string) {
  const [row] = await db()
    .select({ officeNote: visits.officeNote, customerNote: visits.customerNote, completedByName: completer.fullName })
    .from(visits)
    .leftJoin(completer, eq(completer.id, visits.completedBy))
    .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
  return row ?? { officeNote: null, customerNote: null, completedByName: null }
}

/** "10:42 AM" for a visit completed today, the date as well otherwise. */
function completedWhen(at: Date, timezone: string, now = new Date()) {
  return localDateAt(at, timezone) === localDateAt(now, timezone)
    ? formatTime(at, timezone)
    : formatDateTime(at, timezone)
}

/** Everything the visit page shows, in a fixed number of queries whatever the visit holds. */
export async function loadVisitPage({ viewer, visit, company }: Viewable) {
  const canManage = !viewer.readOnly && can(viewer.role as Role, 'visits:manage')
  const { companyId, id: visitId } = visit
  const [logs, technicians, chemicals, stock, checklist, ticks, work, photos] = await Promise.all([
    listChemLogsForVisit({ companyId, visitId }),
    canManage ? listTechnicians(companyId) : Promise.resolve([]),
    listChemicalsForVisit({ companyId, visitId }),
    // The stock picker, for those who can record chemicals (never the platform admin's read-only view).
    // Each item's quantity where this visit would take it from (its technician's truck or the warehouse).
    viewer.readOnly ? Promise.resolve([]) : listStockForVisit({ companyId, technicianId: visit.technicianId ?? null }),
    listChecklist(companyId),
    listVisitChecks({ companyId, visitId }),
    readVisitWork(companyId, visitId),
    listVisitPhotos({ companyId, visitId }),
  ])
  const timezone = company.timezone
  const pool: PoolProfile = poolProfileOf(visit)
  const state = visitState(visit)
  const open = state === 'open'
  return {
    canManage,
    // The visit's own work (ticks, readings, notes, completing): open visits, never the platform admin's look.
    canWork: !viewer.readOnly && open,
    // Skip: the office, or the visit's own technician (the only one who gets this far); cancel: the office.
    canSkip: !viewer.readOnly && open,
    canCancel: canManage && open,
    canReopen: canManage && (state === 'completed' || state === 'skipped'),
    readOnly: viewer.readOnly,
    // What the back link calls the viewer's dashboard when the page was not opened from elsewhere (back-link.ts).
    home: (viewer.role === 'tech' ? 'Today' : 'dashboard') as HomeName,
    companyName: viewer.readOnly ? company.name : null,
    // "Move visit" (docs/product.md "Schedule"): office roles, for a visit still to be done.
    move:
      canManage && open
        ? {
            visit: {
              id: visit.id,
              customerName: visit.customerName,
              date: localDateAt(visit.scheduledAt, timezone),
              clock: wallTimeOf(visit.scheduledAt, timezone),
              technicianId: visit.technicianId,
              recurring: visit.planId !== null,
            },
            today: localDateAt(new Date(), timezone),
          }
        : null,
    visit: {
      ...assignFormVisit(visit, timezone),
      completed: visit.completedAt ? completedWhen(visit.completedAt, timezone) : null,
      completedBy: work.completedByName,
      status: visitState(visit, { now: new Date(), timezone }),
      state,
      skipReason: visit.skipReason,
      technicianId: visit.technicianId,
      technicianName: visit.technicianName,
      technicianPhone: visit.technicianPhone,
      // Gate code and access notes: staff of the visit's company only (null for a platform admin's look).
      access: visit.access,
      customerPhone: visit.customerPhone,
      pool: describePool(pool),
      officeNote: work.officeNote ?? '',
      customerNote: work.customerNote ?? '',
    },
    checklist,
    ticks: ticks.map((tick) => ({ itemId: tick.itemId, label: tick.label })),
    // URLs of the authorized photo route, never storage keys or public links.
    photos: photos.map((photo) => shownPhoto(visit.id, photo)),
    logs: logs.map((log) => ({
      ...log,
      takenAt: formatDateTime(log.takenAt, timezone),
      summary: summarizeReading(log, pool),
    })),
    // Doses for the newest reading (logs are newest first) and this pool's volume; the profile, so the phone works
    // out the advice for a reading it has not sent yet (offline too).
    advice: adviceForLatest(logs[0], pool),
    poolProfile: pool,
    technicians: technicians.map((t) => ({ id: t.id, name: t.fullName ?? t.email })),
    chemicals: chemicals.map(({ addedAt: _, ...chemical }) => chemical),
    stock: stock.map((item) => ({ id: item.id, name: item.name, qty: item.qty })),
    // Idempotency keys of the page's forms: new ones for every page load.
    formKeys: {
      reading: crypto.randomUUID(),
      chemical: crypto.randomUUID(),
      checklist: crypto.randomUUID(),
      notes: crypto.randomUUID(),
    },
  }
}
