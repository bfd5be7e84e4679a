// Rows of a customer spreadsheet to an import plan (docs/product.md "Import", "Easy to get wrong"): customers → service
// locations → bodies of water and service plans, the counts the preview shows, and every row's problems in plain words
// ("Row 7: the email 'bob@' is not a valid email address."). Nothing here touches the database; the plan is what
// "Import" writes.
//
// A row either goes into the plan whole or not at all: a row with any problem is left out (and listed), so "Skip
// rows with problems" imports exactly the rest. Rows of one customer (same email, or same name when a row has no
// email) become one customer; rows of one customer at different addresses become its service locations; a row with
// a pool size (or pool type, surface, sanitizer) makes a body of water; a row with a service day makes a plan per day.
// A blank cell never means "clear this": it leaves the value to another row, or to what the company already has.

import { type Result, success } from '~/utils/result'
import type { Sanitizer, Surface } from '~/water/targets'
import { type ColumnMapping, checkMapping } from './column-mapping'
import { type CountryCode, fullName, oneLine, parseEmails, parsePhones } from './contact'
import { FIELD_LABELS, type ImportField } from './fields'
import { looksLikeFormula, unescapeFormula } from './formula'
import { customerKey, locationKey, nameKey } from './match-keys'
import type { CsvTable, RowProblem } from './read-csv.server'
import {
  type CustomerStatus,
  type Parsed,
  parseBodyNames,
  parseCoordinate,
  parseDog,
  parseFrequency,
  parseGallons,
  parseIndoor,
  parseLocalDate,
  parseMinutes,
  parseRate,
  parseRateType,
  parseSalt,
  parseSanitizer,
  parseServiceWindow,
  parseStatus,
  parseSurface,
  parseWeekdays,
  quote,
  type RateType,
  type ServiceWindow,
  WEEKDAY_NAMES,
} from './values'

export type Technician = { id: string; name: string; email?: string | null }

export type PlanOptions = {
  /** The company's country: phone numbers without a + are read as its numbers, and dates month-first for 'US'. */
  defaultCountry: CountryCode
  /** The company's technicians, to match the Technician column against. */
  technicians: readonly Technician[]
  /** What a rate is when the file does not say (no Rate type column, no "/month" after the amount). */
  defaultRateType?: RateType
}

export type PlannedBody = {
  name: string
  gallons: number | null
  surface: Surface | null
  sanitizer: Sanitizer | null
  indoor: boolean | null
  row: number
}

export type PlannedPlan = {
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  weekday: number
  frequencyWeeks: number
  technicianId: string | null
  serviceWindow: ServiceWindow | null
  rateCents: number | null
  rateType: RateType | null
  startsOn: string | null
  endsOn: string | null
  row: number
}

export type PlannedLocation = {
  key: string
  label: string | null
  street: string
  city: string | null
  state: string | null
  postalCode: string | null
  lat: number | null
  lng: number | null
  gateCode: string | null
  accessNotes: string | null
  dogOnSite: boolean | null
  minutesOnSite: number | null
  rows: number[]
  bodiesOfWater: PlannedBody[]
  plans: PlannedPlan[]
}

export type PlannedCustomer = {
  key: string
  customerName: string
  email: string | null
  phone: string | null
  billingAddress: string | null
  notes: string | null
  status: CustomerStatus | null
  rows: number[]
  locations: PlannedLocation[]
}

export type ImportCounts = {
  rows: number
  rowsWithProblems: number
  customers: number
  locations: number
  bodiesOfWater: number
  plans: number
}

export type ImportPlan = {
  customers: PlannedCustomer[]
  counts: ImportCounts
  /** Every problem of every row, in row order; each message starts with "Row N:". */
  problems: RowProblem[]
  /** The rows left out of the plan because they have problems ("Skip rows with problems" skips these). */
  skippedRows: number[]
}

/** The preview's words: "3 customers, 4 service locations, 2 bodies of water, 3 service plans". */
export function describeCounts(counts: Pick<ImportCounts, 'customers' | 'locations' | 'bodiesOfWater' | 'plans'>) {
  const n = (count: number, one: string, many: string) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`
  return [
    n(counts.customers, 'customer', 'customers'),
    n(counts.locations, 'service location', 'service locations'),
    n(counts.bodiesOfWater, 'body of water', 'bodies of water'),
    n(counts.plans, 'service plan', 'service plans'),
  ].join(', ')
}

/**
 * Whether "Import" may run: no row has a problem, or the person chose to skip the rows that do
 * (docs/product.md "Easy to get wrong").
 */
export function canImport(plan: ImportPlan, skipRowsWithProblems: boolean) {
  return (plan.problems.length === 0 || skipRowsWithProblems) && plan.counts.customers > 0
}

/** What one row says, once every value in it has been read. */
type RowRecord = {
  row: number
  customer: Omit<PlannedCustomer, 'key' | 'rows' | 'locations'>
  location: Omit<PlannedLocation, 'key' | 'rows' | 'bodiesOfWater' | 'plans'>
  bodies: PlannedBody[]
  plans: PlannedPlan[]
}

export function buildImportPlan(
  table: Pick<CsvTable, 'rows' | 'problems'>,
  mapping: readonly ColumnMapping[],
  options: PlanOptions,
): Result<{ plan: ImportPlan }> {
  const checked = checkMapping(mapping)
  if (!checked.ok) return checked
  const problems: RowProblem[] = [...table.problems]
  const badRows = new Set(table.problems.map((problem) => problem.row))
  const report = (row: number, message: string, column?: string) => {
    problems.push({ row, column, message: `Row ${row}: ${message}` })
    badRows.add(row)
  }

  const records: RowRecord[] = []
  const firstRowWith = new Map<string, number>()
  for (const { row, values } of table.rows) {
    const cells = readCells(values, mapping)
    if (cells.size === 0) continue
    const signature = JSON.stringify([...cells].map(([field, cell]) => [field, cell.map((c) => c.value.toLowerCase())]))
    const earlier = firstRowWith.get(signature)
    if (earlier !== undefined) {
      report(row, `it repeats row ${earlier}; delete one of them.`)
      continue
    }
    firstRowWith.set(signature, row)
    const record = readRow(row, cells, options, (message, column) => report(row, message, column))
    if (record && !badRows.has(row)) records.push(record)
  }

  const customers = groupRecords(records, report)
  problems.sort((a, b) => a.row - b.row)
  const locations = customers.flatMap((customer) => customer.locations)
  const plan: ImportPlan = {
    customers,
    counts: {
      rows: table.rows.length,
      rowsWithProblems: badRows.size,
      customers: customers.length,
      locations: locations.length,
      bodiesOfWater: locations.reduce((sum, location) => sum + location.bodiesOfWater.length, 0),
      plans: locations.reduce((sum, location) => sum + location.plans.length, 0),
    },
    problems,
    skippedRows: [...badRows].sort((a, b) => a - b),
  }
  return success({ plan })
}

type Cell = { value: string; header: string }

/** The row's non-blank values by field, in column order, with our export's formula apostrophes taken off. */
function readCells(values: readonly string[], mapping: readonly ColumnMapping[]) {
  const cells = new Map<ImportField, Cell[]>()
  for (const column of mapping) {
    if (!column.field) continue
    const value = unescapeFormula((values[column.index] ?? '').trim()).trim()
    if (!value) continue
    cells.set(column.field, [...(cells.get(column.field) ?? []), { value, header: column.header }])
  }
  return cells
}

const MONTH_FIRST_COUNTRIES = new Set<string>(['US', 'PH', 'FM', 'MH', 'PW'])

function readRow(
  row: number,
  cells: Map<ImportField, Cell[]>,
  options: PlanOptions,
  report: (message: string, column?: string) => void,
): RowRecord | null {
  const formulas = new Set<ImportField>()
  for (const [field, fieldCells] of cells) {
    for (const cell of fieldCells) {
      if (looksLikeFormula(cell.value)) {
        formulas.add(field)
        report(
          `the ${FIELD_LABELS[field].toLowerCase()} ${quote(cell.value)} looks like a spreadsheet formula, not a ` +
            `value. Remove the leading '${cell.value.trim().charAt(0)}' if it is meant as text.`,
          cell.header,
        )
        cells.delete(field)
      }
    }
  }
  const text = (field: ImportField) => (cells.get(field) ?? []).map((cell) => cell.value)
  const first = (field: ImportField) => text(field)[0]
  const header = (field: ImportField) => cells.get(field)?.[0]?.header
  const read = <T>(field: ImportField, parse: (value: string) => Parsed<T>): T | null => {
    const value = first(field)
    if (value === undefined) return null
    const parsed = parse(value)
    if (parsed.ok) return parsed.value
    report(parsed.problem, header(field))
    return null
  }
  const extraNotes: string[] = []

  // The customer
  const customerName = oneLine(first('customerName') ?? '') || fullName(first('firstName'), first('lastName'))
  const name = customerName || oneLine(first('companyName') ?? '')
  const nameFields: ImportField[] = ['customerName', 'firstName', 'lastName', 'companyName']
  // A name refused as a formula has been reported already.
  if (!name && !nameFields.some((field) => formulas.has(field))) report('there is no customer name.')
  const emails = read('email', parseEmails)
  if (emails?.others.length) extraNotes.push(`Other email: ${emails.others.join(', ')}`)
  const phoneFields: ImportField[] = ['mobilePhone', 'phone']
  const numbers: string[] = []
  for (const field of phoneFields) {
    const parsed = read(field, (value) => parsePhones(value, options.defaultCountry))
    if (parsed) numbers.push(...[parsed.first, ...parsed.others].filter((number) => !numbers.includes(number)))
  }
  if (numbers.length > 1) extraNotes.push(`Other phone: ${numbers.slice(1).join(', ')}`)
  const billingStreet = text('billingAddress').map(oneLine).join(', ')
  const billingPlace = [first('billingCity'), fullName(first('billingState'), first('billingPostalCode'))]
    .map((part) => oneLine(part ?? ''))
    .filter(Boolean)
  const billingAddress = [billingStreet, ...billingPlace].filter(Boolean).join(', ') || null
  const status = read('status', parseStatus)

  // The location
  let street = [first('street'), first('street2')]
    .map((part) => oneLine(part ?? ''))
    .filter(Boolean)
    .join(', ')
  let city = oneLine(first('city') ?? '') || null
  let state = oneLine(first('state') ?? '') || null
  let postalCode = oneLine(first('postalCode') ?? '') || null
  // "123 Main St, Tampa, FL 33601" in one Address column, with no City/State/ZIP columns beside it.
  const whole =
    !city && !state && !postalCode && street.match(/^(.+?),\s*([^,]+?),?\s+([A-Za-z]{2})\.?,?\s+(\d{5}(?:-\d{4})?)$/)
  if (whole)
    [street, city, state, postalCode] = [whole[1] ?? street, whole[2] ?? null, whole[3] ?? null, whole[4] ?? null]
  if (!street && !formulas.has('street')) report('there is no service address.')
  const lat = read('latitude', (value) => parseCoordinate(value, 'latitude'))
  const lng = read('longitude', (value) => parseCoordinate(value, 'longitude'))
  const bothCoordinates = first('latitude') !== undefined && first('longitude') !== undefined
  if ((first('latitude') !== undefined) !== (first('longitude') !== undefined)) {
    report('a latitude needs a longitude, and a longitude a latitude; fill in both or neither.')
  }
  // Many exports write 0, 0 for "no coordinates"; the sea off West Africa is nobody's pool.
  const noCoordinates = !bothCoordinates || (lat === 0 && lng === 0)
  const dog = first('dogOnSite') === undefined ? null : parseDog(first('dogOnSite') as string)
  const accessNotes = [...text('accessNotes'), ...(dog?.note ? [dog.note] : [])].join('\n') || null

  // The water
  const gallons = read('gallons', parseGallons)
  const surface = read('surface', parseSurface)
  let sanitizer = read('sanitizer', parseSanitizer)
  const salt = read('salt', parseSalt)
  if (salt !== null) {
    const fromSalt: Sanitizer = salt ? 'salt' : 'chlorine'
    if (sanitizer && sanitizer !== fromSalt) {
      report(`the sanitizer is ${sanitizer} but the salt column says ${salt ? 'yes' : 'no'}; make them agree.`)
    }
    sanitizer = fromSalt
  }
  const indoor = read('indoor', parseIndoor)
  const hasWaterDetails = [gallons, surface, sanitizer, indoor].some((value) => value !== null)
  const bodyNames = first('bodyName') ? parseBodyNames(first('bodyName') as string) : hasWaterDetails ? ['Pool'] : []
  const bodies: PlannedBody[] = bodyNames.map((bodyName, i) =>
    i === 0
      ? { name: bodyName, gallons, surface, sanitizer, indoor, row }
      : { name: bodyName, gallons: null, surface: null, sanitizer: null, indoor: null, row },
  )

  // The service plans
  const days = read('serviceDay', parseWeekdays) ?? []
  const frequency = read('frequency', parseFrequency)
  const technician = first('technician') === undefined ? null : matchTechnician(first('technician') as string, options)
  if (technician && !technician.ok) report(technician.problem, header('technician'))
  const rate = read('rate', parseRate)
  const explicitRateType = read('rateType', parseRateType)
  const serviceWindow = read('serviceWindow', parseServiceWindow)
  const dayFirst = !MONTH_FIRST_COUNTRIES.has(options.defaultCountry)
  const startsOn = read('startsOn', (value) => parseLocalDate(value, 'start date', dayFirst))
  const endsOn = read('endsOn', (value) => parseLocalDate(value, 'end date', dayFirst))
  if (startsOn && endsOn && endsOn < startsOn) report('the end date is before the start date.')
  let frequencyWeeks = 1
  if (frequency && 'weeks' in frequency) frequencyWeeks = frequency.weeks
  else if (frequency && days.length > 0 && days.length !== frequency.timesPerWeek) {
    report(
      `the frequency ${quote(first('frequency') ?? '')} needs ${frequency.timesPerWeek} days in the service day ` +
        `(e.g. 'Mon, Thu'), one for each visit of the week.`,
      header('frequency'),
    )
  }
  const planFields: ImportField[] = [
    'frequency',
    'technician',
    'rate',
    'rateType',
    'serviceWindow',
    'startsOn',
    'endsOn',
  ]
  const orphans = planFields.filter((field) => first(field) !== undefined)
  if (first('serviceDay') === undefined && orphans.length > 0) {
    const names = orphans.map((field) => FIELD_LABELS[field].toLowerCase())
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
    report(
      `the ${list} ${names.length === 1 ? 'is' : 'are'} filled in but there is no service day, so there is no ` +
        'service plan to put them on. Add the day, or clear them.',
    )
  }
  const rateType = explicitRateType ?? rate?.rateType ?? (rate ? (options.defaultRateType ?? 'per-visit') : null)
  const plans: PlannedPlan[] = days.map((weekday) => ({
    weekday,
    frequencyWeeks,
    technicianId: technician?.ok ? technician.value.id : null,
    serviceWindow,
    rateCents: rate?.cents ?? null,
    rateType,
    startsOn,
    endsOn,
    row,
  }))

  return {
    row,
    customer: {
      customerName: name,
      email: emails?.first ?? null,
      phone: numbers[0] ?? null,
      billingAddress,
      notes: [...text('notes'), ...extraNotes].join('\n') || null,
      status,
    },
    location: {
      label: oneLine(first('locationLabel') ?? '') || null,
      street,
      city,
      state,
      postalCode,
      lat: noCoordinates ? null : lat,
      lng: noCoordinates ? null : lng,
      gateCode: oneLine(first('gateCode') ?? '') || null,
      accessNotes,
      dogOnSite: dog?.dog ?? null,
      minutesOnSite: read('minutesOnSite', parseMinutes),
    },
    bodies,
    plans,
  }
}

function matchTechnician(name: string, options: PlanOptions): Parsed<Technician> {
  const wanted = nameKey(name)
  const found = options.technicians.find(
    (technician) => nameKey(technician.name) === wanted || technician.email?.toLowerCase() === name.toLowerCase(),
  )
  if (found) return { ok: true, value: found }
  const names = options.technicians.map((technician) => technician.name)
  const choices =
    names.length === 0
      ? 'add them to the team first'
      : names.length === 1
        ? `choose ${names[0]}`
        : `choose one of ${names.slice(0, 12).join(', ')}${names.length > 12 ? ', …' : ''}`
  return { ok: false, problem: `no technician named ${quote(name)} — ${choices}, or leave it blank.` }
}

type Report = (row: number, message: string, column?: string) => void

/** Fields that must agree on every row of one customer (or location): blank on a later row is fine. */
function conflicts<T extends object>(
  current: T,
  incoming: T,
  fields: Array<keyof T & string>,
  labels: Record<string, string>,
): Array<{ field: string; label: string; value: unknown }> {
  return fields
    .filter(
      (field) => incoming[field] !== null && current[field] !== null && !same(field, incoming[field], current[field]),
    )
    .map((field) => ({ field, label: labels[field] ?? field, value: current[field] }))
}

/** Two spellings of one name ("bob  jones", "Bob Jones") are the same name; other values must match exactly. */
function same(field: string, a: unknown, b: unknown) {
  return field === 'customerName' ? nameKey(String(a)) === nameKey(String(b)) : a === b
}

function fillBlanks<T extends object>(current: T, incoming: T, fields: Array<keyof T>) {
  for (const field of fields) if (current[field] === null) current[field] = incoming[field]
}

function appendText(current: string | null, incoming: string | null) {
  if (!incoming || current?.split('\n').includes(incoming)) return current
  return current ? `${current}\n${incoming}` : incoming
}

const CUSTOMER_FIELDS = ['customerName', 'phone', 'billingAddress', 'status'] as const
const LOCATION_FIELDS = [
  'label',
  'city',
  'state',
  'postalCode',
  'lat',
  'lng',
  'gateCode',
  'dogOnSite',
  'minutesOnSite',
] as const
const LABELS: Record<string, string> = {
  customerName: 'customer name',
  phone: 'phone number',
  billingAddress: 'billing address',
  status: 'status',
  label: 'location name',
  city: 'city',
  state: 'state',
  postalCode: 'ZIP code',
  lat: 'latitude',
  lng: 'longitude',
  gateCode: 'gate code',
  dogOnSite: 'dog on site',
  minutesOnSite: 'minutes on site',
}

function shown(value: unknown) {
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  return quote(String(value))
}

function sameBody(a: PlannedBody, b: PlannedBody) {
  return a.gallons === b.gallons && a.surface === b.surface && a.sanitizer === b.sanitizer && a.indoor === b.indoor
}

function samePlanSlot(a: PlannedPlan, b: PlannedPlan) {
  return a.weekday === b.weekday && a.frequencyWeeks === b.frequencyWeeks && a.startsOn === b.startsOn
}

function samePlan(a: PlannedPlan, b: PlannedPlan) {
  return (
    samePlanSlot(a, b) &&
    a.technicianId === b.technicianId &&
    a.serviceWindow === b.serviceWindow &&
    a.rateCents === b.rateCents &&
    a.rateType === b.rateType &&
    a.endsOn === b.endsOn
  )
}

/**
 * Records to customers, row by row. A row that disagrees with an earlier row of the same customer or location
 * (another phone number, another gate code, the same Monday plan at another rate) is left out with a problem that
 * names the earlier row, and nothing of it is merged.
 */
function groupRecords(records: RowRecord[], report: Report): PlannedCustomer[] {
  // A row without an email belongs to the customer of that name who has one, when exactly one such email exists.
  const emailsByName = new Map<string, Set<string>>()
  for (const { customer } of records) {
    if (!customer.email) continue
    const key = nameKey(customer.customerName)
    emailsByName.set(key, (emailsByName.get(key) ?? new Set()).add(customer.email))
  }
  const customers = new Map<string, PlannedCustomer>()
  for (const record of records) {
    const { row } = record
    let email = record.customer.email
    const namesakes = emailsByName.get(nameKey(record.customer.customerName))
    if (!email && namesakes?.size === 1) email = [...namesakes][0] as string
    const key = customerKey({ email, customerName: record.customer.customerName })
    const existing = customers.get(key)
    const incomingCustomer = { ...record.customer, email }
    const problems: string[] = []
    if (existing) {
      for (const clash of conflicts(existing, { ...existing, ...incomingCustomer }, [...CUSTOMER_FIELDS], LABELS)) {
        problems.push(
          `the ${clash.label} differs from row ${existing.rows[0]} of the same customer (${shown(clash.value)} ` +
            'there). Use the same value on every row of a customer, or leave it blank on this one.',
        )
      }
    }
    const locKey = locationKey(key, record.location)
    const location = existing?.locations.find((candidate) => candidate.key === locKey)
    const place = record.location.street
    if (location) {
      for (const clash of conflicts(location, { ...location, ...record.location }, [...LOCATION_FIELDS], LABELS)) {
        problems.push(
          `the ${clash.label} at ${quote(place)} differs from row ${location.rows[0]} (${shown(clash.value)} ` +
            'there). Use the same value on every row of a location, or leave it blank on this one.',
        )
      }
      for (const body of record.bodies) {
        const same = location.bodiesOfWater.find((b) => b.name.toLowerCase() === body.name.toLowerCase())
        if (same && !sameBody(same, body) && hasDetails(body)) {
          problems.push(`the ${body.name} at ${quote(place)} is already on row ${same.row} with other details.`)
        }
      }
      for (const plan of record.plans) {
        const same = location.plans.find((p) => samePlanSlot(p, plan))
        if (same && !samePlan(same, plan)) {
          problems.push(
            `the ${WEEKDAY_NAMES[plan.weekday - 1]} service at ${quote(place)} is already on row ${same.row} ` +
              'with other details.',
          )
        }
      }
    }
    if (problems.length > 0) {
      for (const problem of problems) report(row, problem)
      continue
    }

    const customer: PlannedCustomer = existing ?? { key, ...incomingCustomer, notes: null, rows: [], locations: [] }
    if (!existing) customers.set(key, customer)
    fillBlanks(customer, incomingCustomer, [...CUSTOMER_FIELDS])
    customer.notes = appendText(customer.notes, incomingCustomer.notes)
    customer.rows.push(row)
    const target: PlannedLocation = location ?? {
      key: locKey,
      ...record.location,
      accessNotes: null,
      rows: [],
      bodiesOfWater: [],
      plans: [],
    }
    if (!location) customer.locations.push(target)
    fillBlanks(target, record.location, [...LOCATION_FIELDS])
    target.accessNotes = appendText(target.accessNotes, record.location.accessNotes)
    target.rows.push(row)
    for (const body of record.bodies) {
      const same = target.bodiesOfWater.find((b) => b.name.toLowerCase() === body.name.toLowerCase())
      if (!same) target.bodiesOfWater.push(body)
      else if (!hasDetails(same)) Object.assign(same, { ...body, row: same.row })
    }
    for (const plan of record.plans) {
      if (!target.plans.some((p) => samePlan(p, plan))) target.plans.push(plan)
    }
  }
  return [...customers.values()]
}

function hasDetails(body: PlannedBody) {
  return [body.gallons, body.surface, body.sanitizer, body.indoor].some((value) => value !== null)
}
