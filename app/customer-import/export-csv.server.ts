// "Export customers (CSV)" (docs/product.md "Import"): customers with their locations, bodies of water, plans and
// balances, in the columns the import reads by itself, so export → import into an empty company makes the same
// customers, locations, bodies of water and plans. One row per location, or more when it has several bodies of water or
// plans: row i carries the location's i-th body of water and i-th plan, and every row repeats the customer and location
// (that is how the import knows the rows belong together). Cells a spreadsheet would run as a formula are escaped
// by csv-stringify (`escape_formulas`, OWASP's advice). UTF-8 with a byte order mark, so Excel shows "é" as "é".
import { stringify } from 'csv-stringify/sync'
import { type CountryCode, formatPhone } from '~/utils/phone'
import { surfaceWord } from '~/water/targets'
import type { ExistingBody, ExistingCustomer, ExistingLocation, ExistingPlan } from './diff'
import type { Technician } from './import-plan.server'
import { describeFrequency, WEEKDAY_NAMES } from './values'

export type ExportLocation = Omit<ExistingLocation, 'id' | 'bodiesOfWater' | 'plans'> & {
  bodiesOfWater: ReadonlyArray<Omit<ExistingBody, 'id'>>
  plans: ReadonlyArray<Omit<ExistingPlan, 'id'>>
}
export type ExportCustomer = Omit<ExistingCustomer, 'id' | 'locations'> & {
  /** Invoices minus payments, in cents (exported for reading; the import ignores it). */
  balanceCents?: number | null
  locations: readonly ExportLocation[]
}
export type ExportOptions = {
  technicians: readonly Technician[]
  defaultCountry: CountryCode
  /** false for every page of a long export but the first: no byte order mark and no header row. */
  header?: boolean
}

/** The export's columns, each a header the import maps by itself with full confidence. */
export const EXPORT_HEADERS = [
  'Customer Name',
  'Email',
  'Phone',
  'Billing Address',
  'Notes',
  'Status',
  'Location',
  'Address',
  'City',
  'State',
  'Zip',
  'Latitude',
  'Longitude',
  'Gate Code',
  'Access Notes',
  'Dog',
  'Minutes on Site',
  'Body of Water',
  'Gallons',
  'Surface',
  'Sanitizer',
  'Indoor',
  'Day',
  'Frequency',
  'Technician',
  'Rate',
  'Rate Type',
  'Service Window',
  'Starts On',
  'Ends On',
  'Balance',
] as const

type Header = (typeof EXPORT_HEADERS)[number]

/** Cents as a plain amount, exactly: 120050 → "1200.50", -1250 → "-12.50". */
export function centsToAmount(cents: number) {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
const RATE_TYPE_WORDS = {
  'per-visit': 'Per visit',
  monthly: 'Monthly',
  'monthly-plus-chemicals': 'Monthly plus chemicals',
  'per-visit-plus-chemicals': 'Per visit plus chemicals',
} as const
const yesNo = (value: boolean | null) => (value === null ? '' : value ? 'Yes' : 'No')

export function customersToCsv(customers: readonly ExportCustomer[], options: ExportOptions): string {
  const technicianName = new Map(options.technicians.map((technician) => [technician.id, technician.name]))
  const records: Array<Record<Header, string>> = []
  for (const customer of customers) {
    const customerCells = {
      'Customer Name': customer.customerName,
      Email: customer.email ?? '',
      Phone: customer.phone ? formatPhone(customer.phone, options.defaultCountry) : '',
      'Billing Address': customer.billingAddress ?? '',
      Notes: customer.notes ?? '',
      Status: capitalized(customer.status),
      Balance: customer.balanceCents == null ? '' : centsToAmount(customer.balanceCents),
    }
    for (const location of customer.locations) {
      const locationCells = {
        Location: location.label ?? '',
        Address: location.street,
        City: location.city ?? '',
        State: location.state ?? '',
        Zip: location.postalCode ?? '',
        Latitude: location.lat === null ? '' : String(location.lat),
        Longitude: location.lng === null ? '' : String(location.lng),
        'Gate Code': location.gateCode ?? '',
        'Access Notes': location.accessNotes ?? '',
        Dog: yesNo(location.dogOnSite),
        'Minutes on Site': String(location.minutesOnSite),
      }
      const lines = Math.max(location.bodiesOfWater.length, location.plans.length, 1)
      for (let i = 0; i < lines; i++) {
        const body = location.bodiesOfWater[i]
        const plan = location.plans[i]
        records.push({
          ...customerCells,
          ...locationCells,
          'Body of Water': body?.name ?? '',
          Gallons: body?.gallons == null ? '' : String(body.gallons),
          Surface: body?.surface ? capitalized(surfaceWord(body.surface) ?? body.surface) : '',
          Sanitizer: body?.sanitizer ? capitalized(body.sanitizer) : '',
          Indoor: body ? yesNo(body.indoor) : '',
          Day: plan ? (WEEKDAY_NAMES[plan.weekday - 1] ?? '') : '',
          Frequency: plan ? describeFrequency(plan.frequencyWeeks) : '',
          Technician: plan?.technicianId ? (technicianName.get(plan.technicianId) ?? '') : '',
          Rate: plan ? centsToAmount(plan.rateCents) : '',
          'Rate Type': plan ? RATE_TYPE_WORDS[plan.rateType] : '',
          'Service Window': plan ? capitalized(plan.serviceWindow) : '',
          'Starts On': plan?.startsOn ?? '',
          'Ends On': plan?.endsOn ?? '',
        })
      }
    }
  }
  const header = options.header ?? true
  return stringify(records, {
    bom: header,
    header,
    columns: [...EXPORT_HEADERS],
    record_delimiter: 'windows',
    escape_formulas: true,
  })
}
