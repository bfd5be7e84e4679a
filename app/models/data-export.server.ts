// Settings' "Export all data" (OPERATIONS §3, decision 016): one ZIP with a CSV per kind of record — customers,
// locations, bodies of water, service plans, visits, readings, and invoices and payments (headers only until billing
// exists) — with the ids that tie them together, so a company can leave with everything. The ZIP is written as it
// is read: a page of rows at a time per table (keyset on the (company_id, id) index), deflated by fflate and sent
// on, so memory stays bounded however large the company is. Cells are escaped against formulas like every export.
import { stringify } from 'csv-stringify/sync'
import { and, asc, eq, gt, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { Zip, ZipDeflate } from 'fflate'
import { centsToAmount } from '~/customer-import/export-csv.server'
import { bodiesOfWater, chemLogs, customers, jobs, profiles, serviceLocations, servicePlans } from '~/db/schema'
import { db } from '~/utils/db.server'
import { balanceCentsOf } from './balance.server'

/** Rows per query and per piece of CSV handed to the ZIP. */
export const EXPORT_PAGE_ROWS = 1_000

type Cell = string | number | boolean | Date | null | undefined
type Sheet = {
  file: string
  headers: string[]
  /** The company's rows after `after` (by id), at most EXPORT_PAGE_ROWS of them, as cells in header order. */
  page?: (companyId: string, after: string | null) => Promise<Array<{ id: string; cells: Cell[] }>>
}

function cell(value: Cell): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  return String(value)
}

/** The company's rows of `table` after the cursor, in id order (tenant-scoped, on the (company_id, id) index). */
function scoped(table: PgTable & { companyId: PgColumn; id: PgColumn }, companyId: string, after: string | null) {
  const conditions: SQL[] = [eq(table.companyId, companyId)]
  if (after) conditions.push(gt(table.id, after))
  return { where: and(...conditions), order: asc(table.id) }
}

const money = (cents: number | null) => (cents === null ? null : centsToAmount(cents))

export const SHEETS: Sheet[] = [
  {
    file: 'customers.csv',
    headers: ['Customer ID', 'Name', 'Email', 'Phone', 'Billing address', 'Notes', 'Status', 'Balance', 'Created at'],
    async page(companyId, after) {
      const { where, order } = scoped(customers, companyId, after)
      const rows = await db()
        .select({
          id: customers.id,
          name: customers.customerName,
          email: customers.email,
          phone: customers.phone,
          billingAddress: customers.billingAddress,
          notes: customers.notes,
          status: customers.status,
          balance: balanceCentsOf(customers.companyId, customers.id),
          createdAt: customers.createdAt,
        })
        .from(customers)
        .where(where)
        .orderBy(order)
        .limit(EXPORT_PAGE_ROWS)
      return rows.map((r) => ({
        id: r.id,
        cells: [r.id, r.name, r.email, r.phone, r.billingAddress, r.notes, r.status, money(r.balance), r.createdAt],
      }))
    },
  },
  {
    file: 'locations.csv',
    headers: [
      'Location ID',
      'Customer ID',
      'Name',
      'Street',
      'City',
      'State',
      'ZIP',
      'Latitude',
      'Longitude',
      'Gate code',
      'Access notes',
      'Dog on site',
      'Minutes on site',
      'Archived at',
    ],
    async page(companyId, after) {
      const { where, order } = scoped(serviceLocations, companyId, after)
      const t = serviceLocations
      const rows = await db()
        .select({
          id: t.id,
          customerId: t.customerId,
          label: t.label,
          street: t.street,
          city: t.city,
          state: t.state,
          postalCode: t.postalCode,
          lat: t.lat,
          lng: t.lng,
          gateCode: t.gateCode,
          accessNotes: t.accessNotes,
          dogOnSite: t.dogOnSite,
          minutesOnSite: t.minutesOnSite,
          archivedAt: t.archivedAt,
        })
        .from(t)
        .where(where)
        .orderBy(order)
        .limit(EXPORT_PAGE_ROWS)
      return rows.map((r) => ({
        id: r.id,
        cells: [
          r.id,
          r.customerId,
          r.label,
          r.street,
          r.city,
          r.state,
          r.postalCode,
          r.lat,
          r.lng,
          r.gateCode,
          r.accessNotes,
          r.dogOnSite,
          r.minutesOnSite,
          r.archivedAt,
        ],
      }))
    },
  },
  {
    file: 'bodies-of-water.csv',
    headers: ['Body of water ID', 'Location ID', 'Name', 'Gallons', 'Surface', 'Sanitiser', 'Indoor'],
    async page(companyId, after) {
      const { where, order } = scoped(bodiesOfWater, companyId, after)
      const t = bodiesOfWater
      const rows = await db()
        .select({
          id: t.id,
          locationId: t.locationId,
          name: t.name,
          gallons: t.gallons,
          surface: t.surface,
          sanitiser: t.sanitiser,
          indoor: t.indoor,
        })
        .from(t)
        .where(where)
        .orderBy(order)
        .limit(EXPORT_PAGE_ROWS)
      return rows.map((r) => ({
        id: r.id,
        cells: [r.id, r.locationId, r.name, r.gallons, r.surface, r.sanitiser, r.indoor],
      }))
    },
  },
  {
    file: 'service-plans.csv',
    headers: [
      'Plan ID',
      'Location ID',
      'Weekday (1 = Monday)',
      'Every N weeks',
      'Technician',
      'Service window',
      'Rate',
      'Rate type',
      'Starts on',
      'Ends on',
    ],
    async page(companyId, after) {
      const { where, order } = scoped(servicePlans, companyId, after)
      const t = servicePlans
      const rows = await db()
        .select({
          id: t.id,
          locationId: t.locationId,
          weekday: t.weekday,
          frequencyWeeks: t.frequencyWeeks,
          technician: profiles.fullName,
          technicianEmail: profiles.email,
          serviceWindow: t.serviceWindow,
          rateCents: t.rateCents,
          rateType: t.rateType,
          startsOn: t.startsOn,
          endsOn: t.endsOn,
        })
        .from(t)
        .leftJoin(profiles, and(eq(profiles.id, t.technicianId), eq(profiles.companyId, companyId)))
        .where(where)
        .orderBy(order)
        .limit(EXPORT_PAGE_ROWS)
      return rows.map((r) => ({
        id: r.id,
        cells: [
          r.id,
          r.locationId,
          r.weekday,
          r.frequencyWeeks,
          r.technician ?? r.technicianEmail,
          r.serviceWindow,
          money(r.rateCents),
          r.rateType,
          r.startsOn,
          r.endsOn,
        ],
      }))
    },
  },
  {
    file: 'visits.csv',
    headers: [
      'Visit ID',
      'Customer ID',
      'Location ID',
      'Customer',
      'Address',
      'Scheduled at',
      'Technician',
      'Completed at',
      'Cancelled at',
    ],
    async page(companyId, after) {
      const { where, order } = scoped(jobs, companyId, after)
      const rows = await db()
        .select({
          id: jobs.id,
          customerId: jobs.customerId,
          locationId: jobs.locationId,
          customerName: jobs.customerName,
          address: jobs.address,
          scheduledAt: jobs.scheduledAt,
          technician: profiles.fullName,
          technicianEmail: profiles.email,
          completedAt: jobs.completedAt,
          cancelledAt: jobs.cancelledAt,
        })
        .from(jobs)
        .leftJoin(profiles, and(eq(profiles.id, jobs.technicianId), eq(profiles.companyId, companyId)))
        .where(where)
        .orderBy(order)
        .limit(EXPORT_PAGE_ROWS)
      return rows.map((r) => ({
        id: r.id,
        cells: [
          r.id,
          r.customerId,
          r.locationId,
          r.customerName,
          r.address,
          r.scheduledAt,
          r.technician ?? r.technicianEmail,
          r.completedAt,
          r.cancelledAt,
        ],
      }))
    },
  },
  {
    file: 'readings.csv',
    headers: [
      'Reading ID',
      'Visit ID',
      'Body of water ID',
      'Taken at',
      'pH',
      'Free chlorine (ppm)',
      'Alkalinity (ppm)',
      'Cyanuric acid (ppm)',
      'Calcium hardness (ppm)',
      'Salt (ppm)',
      'Water temperature (°F)',
    ],
    async page(companyId, after) {
      const { where, order } = scoped(chemLogs, companyId, after)
      const t = chemLogs
      const rows = await db()
        .select({
          id: t.id,
          jobId: t.jobId,
          bodyOfWaterId: t.bodyOfWaterId,
          takenAt: t.takenAt,
          ph: t.ph,
          chlorine: t.chlorinePpm,
          alkalinity: t.alkalinity,
          cyanuricAcid: t.cyanuricAcid,
          calcium: t.calciumHardness,
          salt: t.salt,
          temperature: t.waterTempF,
        })
        .from(t)
        .where(where)
        .orderBy(order)
        .limit(EXPORT_PAGE_ROWS)
      return rows.map((r) => ({
        id: r.id,
        cells: [
          r.id,
          r.jobId,
          r.bodyOfWaterId,
          r.takenAt,
          r.ph,
          r.chlorine,
          r.alkalinity,
          r.cyanuricAcid,
          r.calcium,
          r.salt,
          r.temperature,
        ],
      }))
    },
  },
  // Billing does not exist yet: the files are there (with their columns) so the archive's shape does not change.
  { file: 'invoices.csv', headers: ['Invoice ID', 'Customer ID', 'Number', 'Issued on', 'Due on', 'Total', 'Status'] },
  { file: 'payments.csv', headers: ['Payment ID', 'Invoice ID', 'Customer ID', 'Received at', 'Amount', 'Method'] },
]

const encoder = new TextEncoder()

function csv(rows: Cell[][], first: boolean) {
  // A byte order mark at the start of each file, so Excel reads it as UTF-8; CRLF as spreadsheets expect.
  return encoder.encode(
    stringify(
      rows.map((row) => row.map(cell)),
      { bom: first, record_delimiter: 'windows', escape_formulas: true },
    ),
  )
}

/** Each file's pieces in order: its header row, then a page of rows at a time; `last` closes the file. */
async function* pieces(companyId: string): AsyncGenerator<{ file: string; bytes: Uint8Array; last: boolean }> {
  for (const sheet of SHEETS) {
    if (!sheet.page) {
      yield { file: sheet.file, bytes: csv([sheet.headers], true), last: true }
      continue
    }
    yield { file: sheet.file, bytes: csv([sheet.headers], true), last: false }
    let after: string | null = null
    for (;;) {
      const rows = await sheet.page(companyId, after)
      const full = rows.length === EXPORT_PAGE_ROWS
      yield {
        file: sheet.file,
        bytes: csv(
          rows.map((row) => row.cells),
          false,
        ),
        last: !full,
      }
      if (!full) break
      after = rows[rows.length - 1]?.id ?? null
    }
  }
}

/** The whole company as a ZIP of CSV files, produced as the response is read (a page of rows per pull). */
export function exportAllData(companyId: string): ReadableStream<Uint8Array> {
  const source = pieces(companyId)
  let zip: Zip
  let entry: { file: string; stream: ZipDeflate } | null = null
  let sent = 0
  let ended = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((error, chunk, final) => {
        if (error) return controller.error(error)
        if (chunk.length > 0) {
          sent++
          controller.enqueue(chunk)
        }
        if (final) controller.close()
      })
    },
    async pull() {
      // The deflater keeps small pieces until it has enough to compress: read on until it hands something over,
      // since a pull that enqueues nothing is not called again.
      const before = sent
      while (sent === before && !ended) {
        const next = await source.next()
        if (next.done) {
          ended = true
          zip.end()
          return
        }
        const { file, bytes, last } = next.value
        if (entry?.file !== file) {
          entry = { file, stream: new ZipDeflate(file, { level: 6 }) }
          zip.add(entry.stream)
        }
        entry.stream.push(bytes, last)
      }
    },
    async cancel() {
      await source.return(undefined)
    },
  })
}
