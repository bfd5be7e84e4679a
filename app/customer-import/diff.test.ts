import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateRows } from '../../tests/fixtures/customer-import/generate'
import { planOf, stored } from '../../tests/helpers/customer-import'
import { describeDiff, diffImport } from './diff'
import type { ImportPlan } from './import-plan.server'

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/customer-import')

const HEADER = 'Name,Email,Phone,Address,City,State,Zip,Gallons,Day,Frequency,Tech,Rate\n'
const ANN = 'Ann Smith,ann@example.com,(954) 555-0101,1 Palm Ave,Davie,FL,33324,15000,Mon,Weekly,Maya Flores,$85\n'
const BOB = 'Bob Jones,,(954) 555-0102,2 Palm Ave,Davie,FL,33324,18000,Tue,Weekly,Tyler Brooks,$95\n'

describe('diffImport', () => {
  it('finds a re-imported file unchanged: "0 new, N unchanged"', async () => {
    for (const file of ['skimmer.csv', 'pool-brain.csv', 'jobber.csv']) {
      const bytes = fs.readFileSync(path.join(FIXTURES, file))
      const existing = stored(await planOf(bytes))
      const diff = diffImport(await planOf(bytes), existing)
      expect([file, describeDiff(diff.totals.customers)]).toEqual([file, '0 new, 24 unchanged'])
      for (const tally of Object.values(diff.totals)) expect(tally.new + tally.changed).toBe(0)
    }
  })

  it('finds the benchmark’s 2,000-row export clean, and unchanged when imported again', async () => {
    const text = generateRows({ style: 'skimmer', rows: 2_000 })
    const plan = await planOf(text)
    expect(plan.problems).toEqual([])
    expect(plan.counts.rows).toBe(2_000)
    const diff = diffImport(await planOf(text), stored(plan))
    expect(diff.totals.customers).toEqual({ new: 0, changed: 0, unchanged: plan.counts.customers })
  })

  it('reports a changed row as an update of that customer, with the fields that change', async () => {
    const existing = stored(await planOf(`${HEADER}${ANN}${BOB}`))
    const changed = ANN.replace('(954) 555-0101', '(954) 555-0199').replace('$85', '$90')
    const diff = diffImport(await planOf(`${HEADER}${changed}${BOB}`), existing)
    expect(describeDiff(diff.totals.customers)).toBe('0 new, 1 updated, 1 unchanged')
    const ann = diff.customers[0]
    expect(ann).toMatchObject({ status: 'changed', existingId: existing[0]?.id })
    expect(ann?.changes).toEqual([{ field: 'phone', from: '+19545550101', to: '+19545550199' }])
    expect(ann?.locations[0]?.plans[0]?.changes).toEqual([{ field: 'rateCents', from: 8500, to: 9000 }])
    expect(diff.totals.plans).toEqual({ new: 0, changed: 1, unchanged: 1 })
  })

  it('moves a plan to another day rather than adding a second one, and adds new locations and customers', async () => {
    const existing = stored(await planOf(`${HEADER}${ANN}${BOB}`))
    const moved = ANN.replace(',Mon,', ',Thu,')
    const secondHouse = ANN.replace('1 Palm Ave', '9 Oak St').replace(',Mon,', ',Fri,')
    const carla = 'Carla Diaz,carla@example.com,,3 Palm Ave,Davie,FL,33324,,,,,\n'
    const diff = diffImport(await planOf(`${HEADER}${moved}${secondHouse}${BOB}${carla}`), existing)
    expect(describeDiff(diff.totals.customers)).toBe('1 new, 1 updated, 1 unchanged')
    expect(diff.totals.locations).toEqual({ new: 2, changed: 1, unchanged: 1 })
    expect(diff.customers[0]?.locations[0]?.plans[0]).toMatchObject({
      status: 'changed',
      changes: [{ field: 'weekday', from: 1, to: 4 }],
    })
  })

  it('never counts a blank cell as a change, and matches a customer without email by name', async () => {
    const existing = stored(await planOf(`${HEADER}${ANN}${BOB}`))
    const sparse =
      'Ann Smith,ann@example.com,,1 Palm Avenue,Davie,FL,33324,,,,,\nbob  JONES,,,2 Palm Ave.,Davie,FL,33324,,,,,\n'
    const diff = diffImport(await planOf(`${HEADER}${sparse}`), existing)
    expect(describeDiff(diff.totals.customers)).toBe('0 new, 2 unchanged')
    expect(diff.customers.map((customer) => customer.existingId)).toEqual(existing.map((customer) => customer.id))
  })

  it('gives the same match key to the same customer and location on every import', async () => {
    const first = await planOf(`${HEADER}${ANN}${BOB}`)
    const again = await planOf(`${HEADER}${BOB}${ANN.replace('1 Palm Ave', '1 PALM AVENUE')}`)
    const keys = (plan: ImportPlan) =>
      plan.customers.flatMap((c) => [c.key, ...c.locations.map((l) => l.key)]).sort((a, b) => a.localeCompare(b))
    expect(keys(again)).toEqual(keys(first))
    expect(keys(first)).toEqual([
      'email:ann@example.com',
      'email:ann@example.com/1 palm ave|33324',
      'name:bob jones',
      'name:bob jones/2 palm ave|33324',
    ])
  })
})
