// The fields a column of a customer spreadsheet can be imported into (docs/product.md "Import"), with the labels the
// mapping step shows. Pure and small: the import page's column pickers use it in the browser too.

/** The fields, grouped as the mapping step lists them (what each row's column can describe). */
export const IMPORT_FIELD_GROUPS = [
  {
    label: 'Customer',
    fields: [
      'customerName',
      'firstName',
      'lastName',
      'companyName',
      'email',
      'phone',
      'mobilePhone',
      'billingAddress',
      'billingCity',
      'billingState',
      'billingPostalCode',
      'notes',
      'status',
    ],
  },
  {
    label: 'Service location',
    fields: [
      'locationLabel',
      'street',
      'street2',
      'city',
      'state',
      'postalCode',
      'latitude',
      'longitude',
      'gateCode',
      'accessNotes',
      'dogOnSite',
      'minutesOnSite',
    ],
  },
  { label: 'Body of water', fields: ['bodyName', 'gallons', 'surface', 'sanitizer', 'salt', 'indoor'] },
  {
    label: 'Service plan',
    fields: ['serviceDay', 'frequency', 'technician', 'rate', 'rateType', 'serviceWindow', 'startsOn', 'endsOn'],
  },
] as const

export const IMPORT_FIELDS = IMPORT_FIELD_GROUPS.flatMap((group) => group.fields)

export type ImportField = (typeof IMPORT_FIELD_GROUPS)[number]['fields'][number]

export const FIELD_LABELS: Record<ImportField, string> = {
  customerName: 'Customer name',
  firstName: 'First name',
  lastName: 'Last name',
  companyName: 'Company name',
  email: 'Email',
  phone: 'Phone',
  mobilePhone: 'Mobile phone',
  billingAddress: 'Billing address',
  billingCity: 'Billing city',
  billingState: 'Billing state',
  billingPostalCode: 'Billing ZIP',
  notes: 'Notes',
  status: 'Status',
  locationLabel: 'Location name',
  street: 'Service address',
  street2: 'Address line 2',
  city: 'City',
  state: 'State',
  postalCode: 'ZIP / Postal code',
  latitude: 'Latitude',
  longitude: 'Longitude',
  gateCode: 'Gate code',
  accessNotes: 'Access notes',
  dogOnSite: 'Dog on site',
  minutesOnSite: 'Minutes on site',
  bodyName: 'Body of water',
  gallons: 'Gallons',
  surface: 'Surface',
  sanitizer: 'Sanitizer',
  salt: 'Salt pool (yes/no)',
  indoor: 'Indoor',
  serviceDay: 'Service day',
  frequency: 'Frequency',
  technician: 'Technician',
  rate: 'Rate',
  rateType: 'Rate type',
  serviceWindow: 'Service window',
  startsOn: 'Starts on',
  endsOn: 'Ends on',
}

/**
 * Fields that several columns may feed: their values are joined (notes, access notes, the billing street's two
 * lines). Every other field takes one column, so two columns never silently compete for a customer's email.
 */
export const MULTI_COLUMN_FIELDS: ReadonlySet<ImportField> = new Set(['notes', 'accessNotes', 'billingAddress'])
