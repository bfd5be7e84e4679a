// Which column of an uploaded spreadsheet goes into which field, worked out from the headers alone
// (docs/product.md "Import": "Headers from common exports map by themselves"). Headers are compared without case,
// spaces or punctuation ("E-mail", "e_mail", "EMail" are one header), first as written, then without a leading word
// that only says whose it is ("Service City", "Customer Email"), then by a keyword. Each mapping carries that
// confidence so the page can ask the person to check the guesses; the person can override any column or set it to
// "Don't import".
import { failure, type Result, success } from '~/utils/result'
import { FIELD_LABELS, type ImportField, MULTI_COLUMN_FIELDS } from './fields'

export type ColumnMapping = {
  /** The column's position in the file (0-based); headers may repeat, positions never do. */
  index: number
  header: string
  /** null = "Don't import". */
  field: ImportField | null
  /**
   * 1: a header we know; 0.9: a header we know behind a word like "Service" or "Customer"; 0.6: guessed from a
   * keyword; 0: not recognized. A column the person set themselves has 1.
   */
  confidence: number
  /** Why a column is not imported, when we know (a balance, an id, a field another column already fills). */
  note?: string
}

/** Known headers (compared in their compact form: lower case, letters and digits only; "#" reads "number"). */
const SYNONYMS: Record<ImportField, string[]> = {
  customerName: [
    'customername',
    'name',
    'fullname',
    'displayname',
    'clientname',
    'client',
    'customer',
    'accountname',
    'contactname',
    'customerfullname',
    'clientdisplayname',
    'customerdisplayname',
    'householdname',
  ],
  firstName: ['firstname', 'first', 'fname', 'givenname', 'forename'],
  lastName: ['lastname', 'last', 'lname', 'surname', 'familyname'],
  companyName: ['companyname', 'company', 'business', 'businessname', 'organization', 'organization', 'hoa'],
  email: ['email', 'emailaddress', 'emails', 'emailaddresses', 'mail', 'primaryemail'],
  phone: [
    'phone',
    'phonenumber',
    'phones',
    'phonenumbers',
    'telephone',
    'tel',
    'homephone',
    'homephonenumber',
    'workphone',
    'landline',
    'contactnumber',
    'mainphone',
    'mainphonenumber',
    'mainphonenumbers',
    'primaryphone',
  ],
  mobilePhone: [
    'mobile',
    'mobilephone',
    'mobilenumber',
    'mobilephonenumber',
    'mobilephonenumbers',
    'cell',
    'cellphone',
    'cellnumber',
    'cellphonenumber',
    'textnumber',
    'sms',
  ],
  billingAddress: [
    'billingaddress',
    'billingstreet',
    'billingstreet1',
    'billingstreet2',
    'billingaddress1',
    'billingaddress2',
    'billingaddressline1',
    'billingaddressline2',
    'mailingaddress',
    'mailingstreet',
    'billtoaddress',
    'billto',
  ],
  billingCity: ['billingcity', 'mailingcity', 'billtocity'],
  billingState: ['billingstate', 'billingprovince', 'mailingstate', 'billtostate'],
  billingPostalCode: [
    'billingzip',
    'billingzipcode',
    'billingpostalcode',
    'billingpostcode',
    'mailingzip',
    'mailingzipcode',
    'billtozip',
  ],
  notes: ['notes', 'note', 'comments', 'comment', 'remarks', 'internalnotes', 'customernotes', 'clientnotes'],
  status: ['status', 'customerstatus', 'accountstatus', 'clientstatus', 'active'],
  locationLabel: ['location', 'locationname', 'label', 'propertyname', 'sitename', 'locationlabel', 'nickname'],
  street: [
    'address',
    'serviceaddress',
    'street',
    'streetaddress',
    'address1',
    'addressline1',
    'street1',
    'serviceaddress1',
    'servicestreet',
    'servicestreet1',
    'propertyaddress',
    'locationaddress',
    'siteaddress',
    'pooladdress',
  ],
  street2: [
    'address2',
    'addressline2',
    'street2',
    'serviceaddress2',
    'servicestreet2',
    'apt',
    'suite',
    'unit',
    'aptsuite',
    'aptunit',
  ],
  city: ['city', 'town', 'locality', 'suburb', 'servicecity'],
  state: ['state', 'province', 'region', 'st', 'stateprovince', 'servicestate'],
  postalCode: [
    'zip',
    'zipcode',
    'postalcode',
    'postcode',
    'zippostalcode',
    'postalzip',
    'servicezip',
    'servicezipcode',
  ],
  latitude: ['latitude', 'lat'],
  longitude: ['longitude', 'lng', 'lon', 'long'],
  gateCode: ['gatecode', 'gate', 'gatecodes', 'accesscode', 'lockbox', 'lockboxcode', 'gatelockcode', 'keycode'],
  accessNotes: [
    'accessnotes',
    'accessinstructions',
    'entrynotes',
    'entryinstructions',
    'gatenotes',
    'directions',
    'siteinstructions',
    'technotes',
    'techniciannotes',
    'locationnotes',
    'propertynotes',
    'servicenotes',
    'serviceinstructions',
  ],
  dogOnSite: ['dog', 'dogs', 'dogonsite', 'pets', 'pet', 'dogwarning', 'bewareofdog', 'petsonsite'],
  minutesOnSite: [
    'minutesonsite',
    'minutes',
    'mins',
    'serviceminutes',
    'servicetime',
    'duration',
    'timeonsite',
    'serviceduration',
    'stopduration',
    'stoptime',
    'estimatedminutes',
    'durationminutes',
  ],
  bodyName: [
    'bodyofwater',
    'bodiesofwater',
    'bodyname',
    'pooltype',
    'watertype',
    'bodytype',
    'poolorspa',
    'poolspa',
    'pool',
    'type',
    'waterbody',
  ],
  gallons: [
    'gallons',
    'gallon',
    'gal',
    'poolsize',
    'poolsizegallons',
    'size',
    'sizegallons',
    'volume',
    'poolvolume',
    'volumegallons',
    'poolgallons',
    'gallonage',
    'capacity',
  ],
  surface: ['surface', 'poolsurface', 'surfacetype', 'finish', 'poolfinish', 'interior', 'interiorfinish'],
  sanitizer: [
    'sanitizer',
    'sanitizer',
    'sanitizertype',
    'sanitisertype',
    'sanitation',
    'sanitizersystem',
    'chlorinetype',
    'treatment',
    'system',
  ],
  salt: ['salt', 'saltwater', 'saltpool', 'saltsystem', 'swg', 'saltcell', 'saltwaterpool'],
  indoor: ['indoor', 'indooroutdoor', 'insideoutside', 'setting', 'inside'],
  serviceDay: [
    'day',
    'serviceday',
    'routeday',
    'days',
    'servicedays',
    'routedays',
    'visitday',
    'weekday',
    'dayofweek',
    'scheduleday',
    'cleaningday',
  ],
  frequency: [
    'frequency',
    'servicefrequency',
    'freq',
    'recurrence',
    'repeats',
    'repeat',
    'interval',
    'visitfrequency',
    'schedule',
    'routefrequency',
  ],
  technician: [
    'technician',
    'tech',
    'techname',
    'technicianname',
    'assignedtech',
    'assignedtechnician',
    'assignedto',
    'servicetech',
    'routetech',
    'employee',
    'poolman',
  ],
  rate: [
    'rate',
    'price',
    'servicerate',
    'monthlyrate',
    'rateamount',
    'amount',
    'cost',
    'charge',
    'fee',
    'visitrate',
    'stoprate',
    'perstoprate',
    'pricepervisit',
    'monthlyprice',
    'billingrate',
    'serviceprice',
    'ratecents',
  ],
  rateType: [
    'ratetype',
    'billingtype',
    'pricingtype',
    'chargetype',
    'pricetype',
    'billingmethod',
    'ratebasis',
    'billingplan',
  ],
  serviceWindow: ['servicewindow', 'timewindow', 'window', 'preferredtime', 'timeofday', 'arrivalwindow'],
  startsOn: ['startson', 'startdate', 'servicestart', 'servicestartdate', 'start', 'planstart'],
  endsOn: ['endson', 'enddate', 'serviceend', 'serviceenddate', 'end', 'cancellationdate', 'canceldate', 'planend'],
}

/** Headers real exports carry that Pool Bud deliberately does not import, with the reason the page shows. */
const KNOWN_IGNORED: Array<[string[], string]> = [
  [
    ['balance', 'balancedue', 'openbalance', 'currentbalance', 'amountdue', 'outstanding'],
    'A balance comes from invoices and payments, so it is not imported.',
  ],
  [
    ['id', 'customerid', 'clientid', 'accountnumber', 'customernumber', 'clientnumber', 'customercode', 'externalid'],
    "The other product's own number is not needed: customers are matched by email, or by name.",
  ],
  [
    ['created', 'createdat', 'createddate', 'datecreated', 'customersince', 'lastservice', 'lastservicedate'],
    'Pool Bud keeps its own dates and history.',
  ],
  [['nextservice', 'nextservicedate', 'nextvisit'], 'Visits are planned from the service day and frequency.'],
  [['country', 'servicecountry', 'billingcountry'], 'Addresses are taken as in the company’s country.'],
  [['tags', 'leadsource', 'source', 'referral', 'referralsource'], 'Pool Bud has no field for this.'],
]

/** Words in front of a header that say whose value it is, not what it is ("Service City", "Customer Email"). */
const CONTEXT_WORDS = new Set([
  'service',
  'customer',
  'client',
  'primary',
  'main',
  'property',
  'location',
  'site',
  'pool',
  'contact',
  'account',
  'home',
  'route',
])

const BY_SYNONYM = new Map<string, ImportField>()
for (const [field, synonyms] of Object.entries(SYNONYMS) as Array<[ImportField, string[]]>) {
  for (const synonym of synonyms) BY_SYNONYM.set(synonym, field)
}
const IGNORED = new Map<string, string>()
for (const [headers, reason] of KNOWN_IGNORED) for (const header of headers) IGNORED.set(header, reason)

/** A header's words: camelCase split, accents and punctuation dropped, "#" read as "number", "&" as "and". */
export function headerWords(header: string): string[] {
  return header
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/#/g, ' number ')
    .replace(/&/g, ' and ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
}

type Guess = { field: ImportField | null; confidence: number; note?: string }

function lookup(compact: string): Guess | undefined {
  const candidates = compact.endsWith('s') && compact.length > 3 ? [compact, compact.slice(0, -1)] : [compact]
  for (const candidate of candidates) {
    const field = BY_SYNONYM.get(candidate)
    if (field) return { field, confidence: 1 }
    const reason = IGNORED.get(candidate)
    if (reason) return { field: null, confidence: 1, note: reason }
  }
  return undefined
}

/** The field a keyword in the header suggests, when the header as a whole is not one we know. */
function keywordGuess(words: string[]): ImportField | null {
  const has = (...keys: string[]) => words.some((word) => keys.some((key) => word.startsWith(key)))
  const billing = has('billing', 'mailing') || words.includes('bill')
  if (has('email') || words.includes('mail')) return 'email'
  if (has('mobile', 'cell')) return 'mobilePhone'
  if (has('phone', 'tel')) return 'phone'
  if (has('zip', 'postal', 'postcode')) return billing ? 'billingPostalCode' : 'postalCode'
  if (has('city', 'town')) return billing ? 'billingCity' : 'city'
  if (has('state', 'province')) return billing ? 'billingState' : 'state'
  if (has('address', 'street')) return billing ? 'billingAddress' : 'street'
  if (has('gallon')) return 'gallons'
  if (has('gate', 'lockbox')) return 'gateCode'
  if (has('dog', 'pet')) return 'dogOnSite'
  if (has('latitude')) return 'latitude'
  if (has('longitude')) return 'longitude'
  if (has('tech')) return 'technician'
  if (has('frequency')) return 'frequency'
  if (has('sanitiz', 'sanitis')) return 'sanitizer'
  if (has('surface', 'finish')) return 'surface'
  if (has('rate', 'price', 'billing') && has('type', 'method', 'basis')) return 'rateType'
  if (has('rate', 'price')) return 'rate'
  if (has('minute', 'duration')) return 'minutesOnSite'
  if (words.includes('day') || words.includes('days')) return 'serviceDay'
  if (has('note', 'comment', 'instruction')) return has('access', 'entry', 'gate') ? 'accessNotes' : 'notes'
  if (words.includes('name')) return 'customerName'
  return null
}

function guess(header: string): Guess {
  const words = headerWords(header)
  if (words.length === 0) return { field: null, confidence: 0 }
  const exact = lookup(words.join(''))
  if (exact) return exact
  if (words.length > 1 && CONTEXT_WORDS.has(words[0] as string)) {
    const behindContext = lookup(words.slice(1).join(''))
    if (behindContext) return { ...behindContext, confidence: behindContext.field ? 0.9 : behindContext.confidence }
  }
  const keyword = keywordGuess(words)
  return keyword ? { field: keyword, confidence: 0.6 } : { field: null, confidence: 0 }
}

/**
 * Every column's field, guessed from its header. When two columns look like the same one-column field (two email
 * columns), the surer guess keeps it (the first on a tie) and the other is set to "Don't import" with a note.
 */
export function mapColumns(headers: readonly string[]): ColumnMapping[] {
  const mapping: ColumnMapping[] = headers.map((header, index) => ({ index, header, ...guess(header) }))
  const taken = new Map<ImportField, ColumnMapping>()
  const bySureness = [...mapping].sort((a, b) => b.confidence - a.confidence || a.index - b.index)
  for (const column of bySureness) {
    if (!column.field || MULTI_COLUMN_FIELDS.has(column.field)) continue
    const holder = taken.get(column.field)
    if (!holder) {
      taken.set(column.field, column)
      continue
    }
    column.note = `${FIELD_LABELS[column.field]} already comes from the column '${holder.header}'.`
    column.field = null
    column.confidence = 0
  }
  return mapping
}

/** The mapping with the person's choices applied: column index → field, or null for "Don't import". */
export function overrideMapping(
  mapping: readonly ColumnMapping[],
  choices: Readonly<Record<number, ImportField | null>>,
): ColumnMapping[] {
  return mapping.map((column) =>
    column.index in choices
      ? { index: column.index, header: column.header, field: choices[column.index] ?? null, confidence: 1 }
      : column,
  )
}

/**
 * Whether a mapping can make customers: a name and a service address are set, no one-column field is set twice,
 * and coordinates come in pairs. The message names every problem at once, in plain words.
 */
export function checkMapping(mapping: readonly ColumnMapping[]): Result<{ mapping: readonly ColumnMapping[] }> {
  const problems: string[] = []
  const columnsOf = new Map<ImportField, ColumnMapping[]>()
  for (const column of mapping) {
    if (!column.field) continue
    columnsOf.set(column.field, [...(columnsOf.get(column.field) ?? []), column])
  }
  for (const [field, columns] of columnsOf) {
    if (columns.length < 2 || MULTI_COLUMN_FIELDS.has(field)) continue
    const names = columns.map((column) => `'${column.header}'`).join(' and ')
    problems.push(
      columns.length === 2
        ? `${names} are both set to ${FIELD_LABELS[field]}. Set one of them to Don't import.`
        : `${names} are all set to ${FIELD_LABELS[field]}. Set all but one of them to Don't import.`,
    )
  }
  const has = (field: ImportField) => columnsOf.has(field)
  if (!has('customerName') && !has('firstName') && !has('lastName') && !has('companyName')) {
    problems.push('No column is set to Customer name (or First name and Last name, or Company name).')
  }
  if (!has('street')) problems.push('No column is set to Service address.')
  if (has('latitude') !== has('longitude')) {
    problems.push('Latitude and Longitude go together: set both columns, or neither.')
  }
  return problems.length ? failure('invalid', problems.join(' ')) : success({ mapping })
}
