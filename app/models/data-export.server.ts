// Settings' "Export all data" (docs/product.md "Import", decision 016): one ZIP with a CSV per kind of record —
// customers, locations, bodies of water, service plans, visits, readings, invoices, payments and quotes — with the ids
// that tie them together, so a company can leave with everything. The ZIP is written as it is read: a page of rows at a
// time per table (keyset on the (company_id, id) index), deflated by fflate and sent on, so memory stays bounded however
// large the company is. Cells are escaped against formulas like every export.
import { stringify } from 'csv-stringify/sync'
import { and, asc, eq, gt, type SQL, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { Zip, ZipDeflate } from 'fflate'
import { centsToAmount } from '~/customer-import/export-csv.server'
import { escapeFormula } from '~/customer-import/formula'
import {
  bodiesOfWater,
  chemLogs,
  customers,
  invoices,
  payments,
  profiles,
  quotes,
  serviceLocations,
  servicePlans,
  visits,
} from '~/db/schema'
import { db } from '~/utils/db.server'
import { balanceCentsOf, refundedCentsOf } from './balance.server'

/** Rows per query and per piece of CSV handed to the ZIP. */
export const EXPORT_PAGE_ROWS = 1_000

type Cell = string | number | boolean | Date | null | undefined
type Sheet = {
  file: string
  headers: string[]
  /** The company's rows after `after` (by id), at most EXPORT_PAGE_ROWS of them, as cells in header order. */
  page: (companyId: string, after: string | null) => Promise<Array<{ id: string; cells: Cell[] }>>
}

/**
 * A value as its CSV cell. Text a spreadsheet would run as a formula gets an apostrophe (`escapeFormula`, as every
 * export does, N2); a plain number — an amount such as a credit balance of -50.00, a reading — stays a number.
 */
function cell(value: Cell): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  return escapeFormula(String(value))
}

type TenantTable = PgTable & { companyId: PgColumn; id: PgColumn }
/** A column of a file: its header and what fills it (a column, or an expression). */
type Column = readonly [header: string, value: PgColumn | SQL.Aliased | SQL, format?: (value: never) => Cell]

/**
 * One file: the company's rows of `table`, a page at a time after the cursor, in id order (tenant-scoped, on the
 * (company_id, id) index), with `columns` as its header and cells. `technicianOf` joins the staff member named by
 * that column (within the company) for a "Technician" column.
 */
function sheet(file: string, table: TenantTable, columns: Column[], technicianOf?: PgColumn): Sheet {
  const selection = Object.fromEntries(columns.map(([, value], index) => [`c${index}`, value]))
  return {
    file,
    headers: columns.map(([header]) => header),
    async page(companyId, after) {
      const conditions: SQL[] = [eq(table.companyId, companyId)]
      if (after) conditions.push(gt(table.id, after))
      let query = db()
        .select({ id: table.id, ...selection })
        .from(table)
        .$dynamic()
      if (technicianOf) {
        query = query.leftJoin(profiles, and(eq(profiles.id, technicianOf), eq(profiles.companyId, companyId)))
      }
      const rows = (await query
        .where(and(...conditions))
        .orderBy(asc(table.id))
        .limit(EXPORT_PAGE_ROWS)) as Array<Record<string, unknown> & { id: string }>
      return rows.map((row) => ({
        id: row.id,
        cells: columns.map(([, , format], index) => {
          const value = row[`c${index}`]
          return format ? format(value as never) : (value as Cell)
        }),
      }))
    },
  }
}

const money = (cents: number | null) => (cents === null ? null : centsToAmount(cents))
/** The staff member's name, or their email when they have none. */
const technician = sql<string | null>`coalesce(${profiles.fullName}, ${profiles.email})`

/** The quote's current version, as a one-row derived table for the quote's subqueries. */
const currentVersion = sql.raw(
  `(select * from quote_versions cv where cv.company_id = "quotes"."company_id" and cv.quote_id = "quotes"."id" and cv.version = "quotes"."current_version")`,
)

/** An amount of the quote: the approval's when approved, else its current version's. */
function quoteAmount(column: 'subtotal_cents' | 'tax_cents' | 'total_cents') {
  const name = sql.raw(column)
  return sql<number>`coalesce(
    (select d.${name} from quote_decisions d where d.company_id = "quotes"."company_id" and d.quote_id = "quotes"."id" and d.decision = 'approved'),
    (select v.${name} from ${currentVersion} v))`
}

export const SHEETS: Sheet[] = [
  sheet('customers.csv', customers, [
    ['Customer ID', customers.id],
    ['Name', customers.customerName],
    ['Email', customers.email],
    ['Phone', customers.phone],
    ['Billing address', customers.billingAddress],
    ['Notes', customers.notes],
    ['Status', customers.status],
    // A one-table select writes its columns unqualified, and inside the balance's subqueries "company_id" and "id"
    // would be the invoice's or payment's own (every balance came out 0.00): the customer's are named with the table.
    ['Balance', balanceCentsOf(sql`"customers"."company_id"`, sql`"customers"."id"`), money],
    ['Created at', customers.createdAt],
  ]),
  sheet('locations.csv', serviceLocations, [
    ['Location ID', serviceLocations.id],
    ['Customer ID', serviceLocations.customerId],
    ['Name', serviceLocations.label],
    ['Street', serviceLocations.street],
    ['City', serviceLocations.city],
    ['State', serviceLocations.state],
    ['ZIP', serviceLocations.postalCode],
    ['Latitude', serviceLocations.lat],
    ['Longitude', serviceLocations.lng],
    ['Gate code', serviceLocations.gateCode],
    ['Access notes', serviceLocations.accessNotes],
    ['Dog on site', serviceLocations.dogOnSite],
    ['Minutes on site', serviceLocations.minutesOnSite],
    ['Archived at', serviceLocations.archivedAt],
  ]),
  sheet('bodies-of-water.csv', bodiesOfWater, [
    ['Body of water ID', bodiesOfWater.id],
    ['Location ID', bodiesOfWater.locationId],
    ['Name', bodiesOfWater.name],
    ['Gallons', bodiesOfWater.gallons],
    ['Surface', bodiesOfWater.surface],
    ['Sanitizer', bodiesOfWater.sanitizer],
    ['Indoor', bodiesOfWater.indoor],
  ]),
  sheet(
    'service-plans.csv',
    servicePlans,
    [
      ['Plan ID', servicePlans.id],
      ['Location ID', servicePlans.locationId],
      ['Weekday (1 = Monday)', servicePlans.weekday],
      ['Every N weeks', servicePlans.frequencyWeeks],
      ['Technician', technician],
      ['Service window', servicePlans.serviceWindow],
      ['Rate', servicePlans.rateCents, money],
      ['Rate type', servicePlans.rateType],
      ['Starts on', servicePlans.startsOn],
      ['Ends on', servicePlans.endsOn],
    ],
    servicePlans.technicianId,
  ),
  sheet(
    'visits.csv',
    visits,
    [
      ['Visit ID', visits.id],
      ['Customer ID', visits.customerId],
      ['Location ID', visits.locationId],
      ['Customer', visits.customerName],
      ['Address', visits.address],
      ['Scheduled at', visits.scheduledAt],
      ['Technician', technician],
      ['Completed at', visits.completedAt],
      ['Canceled at', visits.canceledAt],
    ],
    visits.technicianId,
  ),
  sheet('readings.csv', chemLogs, [
    ['Reading ID', chemLogs.id],
    ['Visit ID', chemLogs.visitId],
    ['Body of water ID', chemLogs.bodyOfWaterId],
    ['Taken at', chemLogs.takenAt],
    ['pH', chemLogs.ph],
    ['Free chlorine (ppm)', chemLogs.chlorinePpm],
    ['Alkalinity (ppm)', chemLogs.alkalinity],
    ['Cyanuric acid (ppm)', chemLogs.cyanuricAcid],
    ['Calcium hardness (ppm)', chemLogs.calciumHardness],
    ['Salt (ppm)', chemLogs.salt],
    ['Water temperature (°F)', chemLogs.waterTempF],
  ]),
  sheet('invoices.csv', invoices, [
    ['Invoice ID', invoices.id],
    ['Customer ID', invoices.customerId],
    ['Number', invoices.number],
    ['Period start', invoices.periodStart],
    ['Period end', invoices.periodEnd],
    ['Issued on', invoices.issuedOn],
    ['Due on', invoices.dueOn],
    ['Subtotal', invoices.subtotalCents, money],
    ['Tax', invoices.taxCents, money],
    ['Total', invoices.totalCents, money],
    ['Credit applied', invoices.creditAppliedCents, money],
    ['Paid', invoices.paidCents, money],
    ['Status', invoices.state],
    ['Voided at', invoices.voidedAt],
  ]),
  sheet('payments.csv', payments, [
    ['Payment ID', payments.id],
    ['Invoice ID', payments.invoiceId],
    ['Customer ID', payments.customerId],
    ['Received on', payments.receivedOn],
    ['Amount', payments.amountCents, money],
    // The sum of the payment's refund records, the only record of refunds (docs/billing.md).
    ['Refunded', refundedCentsOf(payments.id), money],
    ['Method', payments.method],
    ['Reference', payments.reference],
    // "Void payment" (docs/decisions/037-payment-voids.md): the void is its own record; the file shows it here.
    [
      'Voided at',
      sql<
        string | null
      >`(select to_char(pv.voided_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') from payment_voids pv where pv.payment_id = ${payments.id})`,
    ],
    ['Void reason', sql<string | null>`(select pv.reason from payment_voids pv where pv.payment_id = ${payments.id})`],
  ]),
  // Quotes (docs/quotes.md): one row per quote at its current version. An approved quote's amounts are the ones
  // approved (with the optional items chosen); any other's are its current version's required lines. The status is
  // the one the office sees, Expired included (judged on the company's date). A one-table select writes its columns
  // unqualified, so the subqueries name the quote's columns with the table (see customers.csv's balance).
  sheet('quotes.csv', quotes, [
    ['Quote ID', quotes.id],
    ['Customer ID', quotes.customerId],
    ['Number', sql<string>`'Q-' || lpad("quotes"."number"::text, 4, '0')`],
    [
      'Customer',
      sql<string>`(select c.customer_name from customers c where c.company_id = "quotes"."company_id" and c.id = "quotes"."customer_id")`,
    ],
    [
      'Status',
      sql<string>`(select case
        when "quotes"."state" in ('sent', 'viewed') and v.valid_until < (now() at time zone co.timezone)::date then 'Expired'
        else initcap("quotes"."state") end
        from ${currentVersion} v, companies co where co.id = "quotes"."company_id")`,
    ],
    ['Version', quotes.currentVersion],
    ['Subtotal', quoteAmount('subtotal_cents'), money],
    ['Tax', quoteAmount('tax_cents'), money],
    ['Total', quoteAmount('total_cents'), money],
    ['Valid until', sql<string | null>`(select v.valid_until::text from ${currentVersion} v)`],
    [
      'Sent at',
      sql<
        string | null
      >`(select to_char(max(v.sent_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') from quote_versions v where v.company_id = "quotes"."company_id" and v.quote_id = "quotes"."id")`,
    ],
    [
      'Decided at',
      sql<
        string | null
      >`(select to_char(d.decided_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') from quote_decisions d where d.company_id = "quotes"."company_id" and d.quote_id = "quotes"."id")`,
    ],
  ]),
]

const encoder = new TextEncoder()

function csv(rows: Cell[][], first: boolean) {
  // A byte order mark at the start of each file, so Excel reads it as UTF-8; CRLF as spreadsheets expect.
  return encoder.encode(
    stringify(
      rows.map((row) => row.map(cell)),
      { bom: first, record_delimiter: 'windows' },
    ),
  )
}

/** Each file's pieces in order: its header row, then a page of rows at a time; `last` closes the file. */
async function* pieces(companyId: string): AsyncGenerator<{ file: string; bytes: Uint8Array; last: boolean }> {
  for (const sheet of SHEETS) {
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
