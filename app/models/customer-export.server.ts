// "Export customers (CSV)" (docs/product.md "Import", decision 014): the company's customers as a file the import
// reads back, made a page of customers at a time by the pure CSV step of `app/customer-import/`.
import { and, asc, eq, sql } from 'drizzle-orm'
import { customersToCsv } from '~/customer-import/export-csv.server'
import { customers } from '~/db/schema'
import { db } from '~/utils/db.server'
import { DEFAULT_PHONE_COUNTRY } from '~/utils/phone'
import { importTechnicians, loadCustomers } from './customer-file.server'

/** Customers per page of "Export customers (CSV)": one page's records are all the export holds at a time. */
export const EXPORT_PAGE_CUSTOMERS = 500

/**
 * "Export customers (CSV)" a page of customers at a time (in name order, keyset on name and id): the first piece
 * carries the byte order mark and the header row, the others only rows. Four queries per page.
 */
async function* customerCsvPieces(companyId: string): AsyncGenerator<string> {
  const technicians = await importTechnicians(companyId)
  let after: { name: string; id: string } | null = null
  for (let first = true; ; first = false) {
    const page: Array<{ id: string; name: string }> = await db()
      .select({ id: customers.id, name: customers.customerName })
      .from(customers)
      .where(
        and(
          eq(customers.companyId, companyId),
          after ? sql`(${customers.customerName}, ${customers.id}) > (${after.name}, ${after.id}::uuid)` : undefined,
        ),
      )
      .orderBy(asc(customers.customerName), asc(customers.id))
      .limit(EXPORT_PAGE_CUSTOMERS)
    if (page.length === 0 && !first) return
    const list =
      page.length > 0
        ? await loadCustomers(
            companyId,
            db(),
            page.map((row) => row.id),
          )
        : []
    yield customersToCsv(list, { technicians, defaultCountry: DEFAULT_PHONE_COUNTRY, header: first })
    if (page.length < EXPORT_PAGE_CUSTOMERS) return
    after = page[page.length - 1] ?? null
  }
}

/** "Export customers (CSV)" as one text (tests and small companies). */
export async function exportCustomersCsv(companyId: string) {
  let csv = ''
  for await (const piece of customerCsvPieces(companyId)) csv += piece
  return csv
}

/** "Export customers (CSV)" as a response body, produced a page of customers at a time as it is read. */
export function exportCustomersCsvStream(companyId: string): ReadableStream<Uint8Array> {
  const pieces = customerCsvPieces(companyId)
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
    async cancel() {
      await pieces.return(undefined)
    },
  })
}
