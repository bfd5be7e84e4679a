import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkMapping, mapColumns, overrideMapping } from './column-mapping'
import type { ImportField } from './fields'
import { readCsv } from './read-csv.server'

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/customer-import')

/** What a person who knows the product would set each column to; null = nothing in Pool Bud holds it. */
const EXPECTED: Record<string, Record<string, ImportField | null>> = {
  'skimmer.csv': {
    'Customer ID': null,
    'First Name': 'firstName',
    'Last Name': 'lastName',
    Email: 'email',
    'Mobile Phone': 'mobilePhone',
    'Home Phone': 'phone',
    'Service Address': 'street',
    City: 'city',
    State: 'state',
    Zip: 'postalCode',
    Latitude: 'latitude',
    Longitude: 'longitude',
    'Gate Code': 'gateCode',
    'Access Notes': 'accessNotes',
    Dog: 'dogOnSite',
    'Body of Water': 'bodyName',
    Gallons: 'gallons',
    Surface: 'surface',
    Sanitizer: 'sanitizer',
    'Service Day': 'serviceDay',
    Frequency: 'frequency',
    Technician: 'technician',
    Rate: 'rate',
    'Rate Type': 'rateType',
    'Billing Address': 'billingAddress',
    Notes: 'notes',
    Status: 'status',
  },
  'pool-brain.csv': {
    'Client Name': 'customerName',
    'Email Address': 'email',
    Cell: 'mobilePhone',
    Street: 'street',
    Unit: 'street2',
    City: 'city',
    ST: 'state',
    'Zip Code': 'postalCode',
    'Gate Code': 'gateCode',
    'Entry Notes': 'accessNotes',
    Pets: 'dogOnSite',
    'Pool Type': 'bodyName',
    'Pool Size': 'gallons',
    Finish: 'surface',
    'Salt Pool': 'salt',
    'Indoor/Outdoor': 'indoor',
    'Route Day': 'serviceDay',
    'Service Frequency': 'frequency',
    Tech: 'technician',
    Price: 'rate',
    'Billing Type': 'rateType',
    'Stop Duration': 'minutesOnSite',
    Lat: 'latitude',
    Lng: 'longitude',
    Balance: null,
    Comments: 'notes',
  },
  'jobber.csv': {
    'Display Name': 'customerName',
    'Company Name': 'companyName',
    'First Name': 'firstName',
    'Last Name': 'lastName',
    'E-mails': 'email',
    'Main Phone #s': 'phone',
    'Mobile Phone #s': 'mobilePhone',
    'Billing Street 1': 'billingAddress',
    'Billing Street 2': 'billingAddress',
    'Billing City': 'billingCity',
    'Billing State': 'billingState',
    'Billing Zip code': 'billingPostalCode',
    'Service Street 1': 'street',
    'Service Street 2': 'street2',
    'Service City': 'city',
    'Service State': 'state',
    'Service Zip code': 'postalCode',
    'Service Country': null,
    'Property Notes': 'accessNotes',
    Tags: null,
    'Lead Source': null,
    'Created Date': null,
    'Visit Frequency': 'frequency',
    'Visit Day': 'serviceDay',
    'Assigned To': 'technician',
    'Visit Price': 'rate',
  },
}

describe('mapColumns on three differently-headed exports', () => {
  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(`maps at least 90 % of ${file}'s columns by themselves, and at least 90 % of those with data to import`, async () => {
      const read = await readCsv(fs.readFileSync(path.join(FIXTURES, file)))
      if (!read.ok) throw new Error(read.message)
      const headers = read.table.headers
      expect(headers).toEqual(Object.keys(expected))
      const mapping = mapColumns(headers)
      const right = mapping.filter((column) => column.field === expected[column.header])
      expect(right.length / headers.length).toBeGreaterThanOrEqual(0.9)
      const importable = mapping.filter((column) => expected[column.header] !== null)
      const importedRight = importable.filter((column) => column.field === expected[column.header])
      expect(importedRight.length / importable.length).toBeGreaterThanOrEqual(0.9)
      expect(checkMapping(mapping).ok).toBe(true)
    })
  }
})

describe('mapColumns', () => {
  const fieldOf = (header: string) => mapColumns([header])[0]?.field

  it('ignores case, spaces and punctuation', () => {
    for (const header of ['E-mail', 'EMAIL', ' e_mail ', 'E Mail', 'eMail', 'Email:'])
      expect(fieldOf(header)).toBe('email')
    for (const header of ['Zip', 'ZIP CODE', 'Postal/Zip', 'zip_code', 'Postal Code']) {
      expect(fieldOf(header)).toBe('postalCode')
    }
    expect(fieldOf('gateCode')).toBe('gateCode')
    expect(fieldOf('Pool Size (Gallons)')).toBe('gallons')
  })

  it('knows the headers docs/product.md "Import" lists', () => {
    const headers: Array<[string, ImportField]> = [
      ['First Name', 'firstName'],
      ['Last Name', 'lastName'],
      ['Customer Name', 'customerName'],
      ['Name', 'customerName'],
      ['Email', 'email'],
      ['E-mail', 'email'],
      ['Phone', 'phone'],
      ['Mobile', 'mobilePhone'],
      ['Cell', 'mobilePhone'],
      ['Address', 'street'],
      ['Service Address', 'street'],
      ['Street', 'street'],
      ['City', 'city'],
      ['State', 'state'],
      ['Zip', 'postalCode'],
      ['Postal Code', 'postalCode'],
      ['Gate Code', 'gateCode'],
      ['Gallons', 'gallons'],
      ['Pool Size', 'gallons'],
      ['Rate', 'rate'],
      ['Price', 'rate'],
      ['Day', 'serviceDay'],
      ['Service Day', 'serviceDay'],
      ['Technician', 'technician'],
      ['Tech', 'technician'],
      ['Frequency', 'frequency'],
    ]
    for (const [header, field] of headers) expect([header, fieldOf(header)]).toEqual([header, field])
  })

  it('gives a confidence: known header 1, known header behind "Service"/"Customer" 0.9, keyword 0.6, unknown 0', () => {
    const mapping = mapColumns(['Email', 'Customer Gate Code', 'Preferred Contact Email', 'Favorite Color'])
    expect(mapping.map((column) => [column.field, column.confidence])).toEqual([
      ['email', 1],
      ['gateCode', 0.9],
      [null, 0],
      [null, 0],
    ])
    // The third looks like an email column too, but Email already fills that one-column field.
    expect(mapping[2]?.note).toBe("Email already comes from the column 'Email'.")
  })

  it('says why a known column is not imported', () => {
    const [balance, id] = mapColumns(['Balance', 'Customer ID'])
    expect(balance).toMatchObject({ field: null, confidence: 1 })
    expect(balance?.note).toContain('invoices and payments')
    expect(id?.note).toContain('matched by email')
  })

  it('lets the surer column keep a one-column field, and lets several columns feed notes', () => {
    const mapping = mapColumns(['Client Email', 'Email', 'Notes', 'Comments'])
    expect(mapping.map((column) => column.field)).toEqual([null, 'email', 'notes', 'notes'])
  })
})

describe('overrideMapping and checkMapping', () => {
  it('applies the person’s choices, including "Don’t import"', () => {
    const mapping = overrideMapping(mapColumns(['Name', 'Where', 'Gallons']), { 1: 'street', 2: null })
    expect(mapping.map((column) => [column.field, column.confidence])).toEqual([
      ['customerName', 1],
      ['street', 1],
      [null, 1],
    ])
    expect(checkMapping(mapping).ok).toBe(true)
  })

  it('names every problem of a mapping at once', () => {
    const mapping = overrideMapping(mapColumns(['Phone', 'Home Phone', 'Latitude', 'Gallons']), { 1: 'phone' })
    const checked = checkMapping(mapping)
    expect(checked).toEqual({
      ok: false,
      code: 'invalid',
      message:
        "'Phone' and 'Home Phone' are both set to Phone. Set one of them to Don't import. " +
        'No column is set to Customer name (or First name and Last name, or Company name). ' +
        'No column is set to Service address. ' +
        'Latitude and Longitude go together: set both columns, or neither.',
    })
  })
})
