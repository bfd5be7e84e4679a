// "Preview" of a customer import (docs/product.md "Import", decision 014): the pure steps of `app/customer-import/`
// (read, map, plan, diff) against the company's customers, and what importing the file would change. Writes nothing.
import { type ColumnMapping, mapColumns } from '~/customer-import/column-mapping'
import { describeDiff, diffImport, type ImportDiff } from '~/customer-import/diff'
import { buildImportPlan, describeCounts, type ImportPlan } from '~/customer-import/import-plan.server'
import { type CsvSource, readCsv } from '~/customer-import/read-csv.server'
import { DEFAULT_PHONE_COUNTRY } from '~/utils/phone'
import { type Result, success } from '~/utils/result'
import { importTechnicians, loadCustomers } from './customer-file.server'

/** Coordinates as the database keeps them (six decimals), so a re-import compares like with like. */
function asStored(plan: ImportPlan): ImportPlan {
  const round = (value: number | null) => (value === null ? null : Math.round(value * 1e6) / 1e6)
  return {
    ...plan,
    customers: plan.customers.map((customer) => ({
      ...customer,
      locations: customer.locations.map((location) => ({
        ...location,
        lat: round(location.lat),
        lng: round(location.lng),
      })),
    })),
  }
}

export type ImportSummary = {
  /** "3 customers, 4 service locations, 2 bodies of water, 3 service plans" */
  counts: string
  /** "2 new, 1 updated, 9 unchanged", per kind of record. */
  customers: string
  locations: string
  bodiesOfWater: string
  plans: string
}

export function summarize(plan: ImportPlan, diff: ImportDiff): ImportSummary {
  return {
    counts: describeCounts(plan.counts),
    customers: describeDiff(diff.totals.customers),
    locations: describeDiff(diff.totals.locations),
    bodiesOfWater: describeDiff(diff.totals.bodiesOfWater),
    plans: describeDiff(diff.totals.plans),
  }
}

/**
 * "Preview": the file read, its columns mapped (by their headers, or as the person set them), the plan with every
 * row's problems, and what importing it would change in the company. Writes nothing.
 */
export async function previewImport(
  companyId: string,
  file: CsvSource,
  /** As set on the page, or made from the file's headers (the page's choices over the guesses). */
  mapping?: readonly ColumnMapping[] | ((headers: readonly string[]) => readonly ColumnMapping[]),
): Promise<
  Result<{
    headers: string[]
    mapping: readonly ColumnMapping[]
    plan: ImportPlan
    diff: ImportDiff
    summary: ImportSummary
  }>
> {
  const read = await readCsv(file)
  if (!read.ok) return read
  const headers = read.table.headers
  const columns = typeof mapping === 'function' ? mapping(headers) : (mapping ?? mapColumns(headers))
  const technicians = await importTechnicians(companyId)
  const built = buildImportPlan(read.table, columns, { defaultCountry: DEFAULT_PHONE_COUNTRY, technicians })
  if (!built.ok) return built
  const plan = asStored(built.plan)
  const diff = diffImport(plan, await loadCustomers(companyId))
  return success({ headers, mapping: columns, plan, diff, summary: summarize(plan, diff) })
}
