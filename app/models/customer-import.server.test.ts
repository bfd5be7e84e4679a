// The customer import and export against the database (issue #17, docs/product.md "Import"): previews write nothing, an
// import writes the plan in one go, a re-import finds everything there, a changed row updates its customer, export →
// import into an empty company gives the same counts, and a file with problems writes nothing.
import fs from 'node:fs'
import path from 'node:path'
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, profiles, servicePlans, visits } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { db, projectRoot, queryRows } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { EXPORT_PAGE_CUSTOMERS, exportCustomersCsv } from './customer-export.server'
import { applyImport } from './customer-import.server'
import { previewImport } from './customer-import-preview.server'
import { createVisit } from './visit-changes.server'

const FIXTURES = path.join(projectRoot(), 'tests/fixtures/customer-import')
const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)))
const encode = (text: string) => new TextEncoder().encode(text)

let made = 0

/** A company with the three technicians the fixtures name. */
async function newCompany() {
  made++
  const [company] = await db()
    .insert(companies)
    .values({ name: `Import Pools ${made}`, timezone: 'America/New_York' })
    .returning({ id: companies.id })
  const companyId = company?.id ?? ''
  for (const fullName of ['Maya Flores', 'Tyler Brooks', 'Luis Ortega']) {
    const email = `${fullName.toLowerCase().replace(' ', '.')}.${made}@import.test`
    await createDemoLogin(db(), { email, fullName, role: 'tech', companyId })
  }
  return companyId
}

async function countsOf(companyId: string) {
  const [row] = await queryRows<{ customers: number; locations: number; bodiesOfWater: number; plans: number }>(
    sql`select (select count(*)::int from customers where company_id = ${companyId}) as customers,
          (select count(*)::int from service_locations where company_id = ${companyId}) as locations,
          (select count(*)::int from bodies_of_water where company_id = ${companyId}) as "bodiesOfWater",
          (select count(*)::int from service_plans where company_id = ${companyId}) as plans`,
  )
  return row
}

async function preview(companyId: string, file: Uint8Array) {
  const result = await previewImport(companyId, file)
  if (!result.ok) throw new Error(result.message)
  return result
}

async function importFile(companyId: string, file: Uint8Array) {
  const { plan } = await preview(companyId, file)
  const applied = await applyImport(companyId, plan)
  if (!applied.ok) throw new Error(applied.message)
  return applied
}

describe('importing the three fixtures', () => {
  for (const file of ['skimmer.csv', 'pool-brain.csv', 'jobber.csv']) {
    it(`${file}: previews without writing, imports every record, and re-imports as "0 new"`, async () => {
      const companyId = await newCompany()
      const first = await preview(companyId, fixture(file))
      expect(first.plan.problems).toEqual([])
      const planned = {
        customers: first.plan.counts.customers,
        locations: first.plan.counts.locations,
        bodiesOfWater: first.plan.counts.bodiesOfWater,
        plans: first.plan.counts.plans,
      }
      expect(first.summary.customers).toBe(`${planned.customers} new, 0 unchanged`)
      expect(await countsOf(companyId)).toEqual({ customers: 0, locations: 0, bodiesOfWater: 0, plans: 0 })

      const applied = await applyImport(companyId, first.plan)
      expect(applied).toMatchObject({ ok: true, skippedRows: [] })
      expect(await countsOf(companyId)).toEqual(planned)
      // Technicians were matched by name to the company's own.
      const [foreign] = await queryRows<{ n: number }>(
        sql`select count(*)::int as n from service_plans p where p.company_id = ${companyId} and p.technician_id
            is not null and not exists (select 1 from profiles t where t.id = p.technician_id
            and t.company_id = p.company_id and t.role = 'tech')`,
      )
      expect(foreign?.n).toBe(0)
      const [assigned] = await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(servicePlans)
        .where(and(eq(servicePlans.companyId, companyId), isNotNull(servicePlans.technicianId)))
      expect(assigned?.n).toBeGreaterThan(0)

      const again = await preview(companyId, fixture(file))
      expect(again.summary).toMatchObject({
        customers: `0 new, ${planned.customers} unchanged`,
        locations: `0 new, ${planned.locations} unchanged`,
        bodiesOfWater: `0 new, ${planned.bodiesOfWater} unchanged`,
        plans: `0 new, ${planned.plans} unchanged`,
      })
      await applyImport(companyId, again.plan)
      expect(await countsOf(companyId)).toEqual(planned)
    })
  }
})

describe('a changed row', () => {
  it('updates that customer (only the fields the file changes) and adds nothing', async () => {
    const companyId = await newCompany()
    const header = 'Name,Email,Phone,Address,City,State,Zip,Gallons,Gate Code,Day,Frequency,Tech,Rate\n'
    const ann =
      'Ann Smith,ann@example.com,(954) 555-0101,1 Palm Ave,Davie,FL,33324,15000,#12,Mon,Weekly,Maya Flores,$85\n'
    const bob = 'Bob Jones,,(954) 555-0102,2 Palm Ave,Davie,FL,33324,18000,,Tue,Weekly,Tyler Brooks,$95\n'
    await importFile(companyId, encode(header + ann + bob))
    const counts = await countsOf(companyId)
    // Ann's phone, gate code and rate change; "1 Palm Avenue" is the same street; her gallons cell is blank.
    const changed = ann
      .replace('(954) 555-0101', '(954) 555-0199')
      .replace('#12', '#34')
      .replace('$85', '$90')
      .replace('1 Palm Ave', '1 Palm Avenue')
      .replace('15000', '')
    const { summary, plan } = await preview(companyId, encode(header + changed + bob))
    expect(summary).toMatchObject({
      customers: '0 new, 1 updated, 1 unchanged',
      locations: '0 new, 1 updated, 1 unchanged',
      // Ann's row no longer describes her pool (blank gallons): it is left as it is.
      bodiesOfWater: '0 new, 1 unchanged',
      plans: '0 new, 1 updated, 1 unchanged',
    })
    expect(await applyImport(companyId, plan)).toMatchObject({ ok: true })
    expect(await countsOf(companyId)).toEqual(counts)
    const [row] = await queryRows<{ phone: string; street: string; gate: string; gallons: number; rate: number }>(
      sql`select c.phone, l.street, l.gate_code as gate, b.gallons, p.rate_cents as rate from customers c
          join service_locations l on l.customer_id = c.id join bodies_of_water b on b.location_id = l.id
          join service_plans p on p.location_id = l.id
          where c.company_id = ${companyId} and c.email = 'ann@example.com'`,
    )
    expect(row).toEqual({ phone: '+19545550199', street: '1 Palm Ave', gate: '#34', gallons: 15000, rate: 9000 })
  })

  it('archives a customer the file marks archived, as the record page does', async () => {
    const companyId = await newCompany()
    const header = 'Name,Email,Address,City,State,Zip,Status\n'
    await importFile(companyId, encode(`${header}Cy Gone,cy@example.com,3 Palm Ave,Davie,FL,33324,Active\n`))
    const [cy] = await db().select({ id: customers.id }).from(customers).where(eq(customers.companyId, companyId))
    const created = await createVisit({
      companyId,
      customerId: cy?.id ?? '',
      scheduledAt: new Date(Date.now() + 86_400_000),
      technicianId: null,
    })
    await importFile(companyId, encode(`${header}Cy Gone,cy@example.com,3 Palm Ave,Davie,FL,33324,Archived\n`))
    const [row] = await db()
      .select()
      .from(customers)
      .where(eq(customers.id, cy?.id ?? ''))
    expect(row).toMatchObject({ status: 'archived', archivedAt: expect.any(Date) })
    const [visit] = await db()
      .select()
      .from(visits)
      .where(eq(visits.id, created?.id ?? ''))
    expect(visit?.canceledAt).toBeInstanceOf(Date)
  })
})

describe('export → import', () => {
  it('reproduces the counts exactly in an empty company, and is "0 new" back in the first', async () => {
    for (const file of ['skimmer.csv', 'pool-brain.csv', 'jobber.csv']) {
      const source = await newCompany()
      await importFile(source, fixture(file))
      const counts = await countsOf(source)
      const csv = await exportCustomersCsv(source)
      const bytes = encode(csv)

      const target = await newCompany()
      const { plan } = await preview(target, bytes)
      expect([file, plan.problems]).toEqual([file, []])
      await applyImport(target, plan)
      expect([file, await countsOf(target)]).toEqual([file, counts])

      const back = await preview(source, bytes)
      expect([file, back.summary.customers]).toEqual([file, `0 new, ${counts?.customers} unchanged`])
      expect(back.diff.totals.plans.new + back.diff.totals.plans.changed).toBe(0)
    }
  })

  it('writes a company larger than one page of the export whole: one header, every customer once, in order', async () => {
    const companyId = await newCompany()
    const count = EXPORT_PAGE_CUSTOMERS + 3
    // Two customers with one name on either side of the page boundary: the keyset is name, then id.
    const names = Array.from(
      { length: count },
      (_, i) => `Page Customer ${String(Math.min(i, count - 4)).padStart(4, '0')}`,
    )
    const rows = names.map((name, i) => `${name},p${i}@pages.test,${i + 1} Palm Ave,Tampa,FL,33602`)
    await importFile(companyId, encode(['Customer Name,Email,Address,City,State,Zip', ...rows].join('\n')))
    const csv = await exportCustomersCsv(companyId)
    expect(csv.startsWith('\uFEFFCustomer Name,')).toBe(true)
    const lines = csv.trim().split('\r\n')
    expect(lines.filter((line) => line.includes('Customer Name,'))).toHaveLength(1)
    const emails = lines.slice(1).map((line) => line.split(',')[1])
    expect(new Set(emails).size).toBe(count)
    const exportedNames = lines.slice(1).map((line) => line.split(',')[0] ?? '')
    expect(exportedNames).toEqual([...exportedNames].sort())
  })

  it('exports the demo company with its phones formatted and formula-looking cells escaped', async () => {
    const companyId = await newCompany()
    await addTestCustomer(companyId, { customerName: '=SUM(A1:A2)', address: '4 Formula Way', phone: '+18135550142' })
    const csv = await exportCustomersCsv(companyId)
    expect(csv).toContain("'=SUM(A1:A2)")
    expect(csv).toContain('(813) 555-0142')
  })
})

describe('a file with problems', () => {
  it('writes nothing, says how many rows are wrong, and imports the rest only when told to skip them', async () => {
    const companyId = await newCompany()
    for (const file of ['unknown-technicians.csv', 'formula.csv', 'duplicates.csv']) {
      const { plan } = await preview(companyId, fixture(file))
      expect(plan.problems.length, file).toBeGreaterThan(0)
      const refused = await applyImport(companyId, plan)
      expect(refused, file).toMatchObject({ ok: false, code: 'invalid', message: expect.stringContaining('problems') })
      expect(await countsOf(companyId)).toEqual({ customers: 0, locations: 0, bodiesOfWater: 0, plans: 0 })
    }
    const { plan } = await preview(companyId, fixture('unknown-technicians.csv'))
    const skipped = await applyImport(companyId, plan, { skipRowsWithProblems: true })
    expect(skipped).toMatchObject({ ok: true, skippedRows: plan.skippedRows })
    expect((await countsOf(companyId))?.customers).toBe(plan.counts.customers)
  })

  it('answers a file that is not a spreadsheet, or has no customer in it, with plain words', async () => {
    const companyId = await newCompany()
    expect(await previewImport(companyId, encode('just one column\nand another line\n'))).toMatchObject({
      ok: false,
      code: 'invalid',
    })
    expect(await previewImport(companyId, encode('Name,Address\n'))).toEqual({
      ok: false,
      code: 'invalid',
      message: 'This file has a header row but no customers under it.',
    })
    const { plan } = await preview(companyId, encode('Name,Address\nAnn Nowhere,\n'))
    expect(await applyImport(companyId, plan)).toMatchObject({
      ok: false,
      message: '1 row has problems. Fix them in the file and preview it again, or choose "Skip rows with problems".',
    })
    expect(await applyImport(companyId, plan, { skipRowsWithProblems: true })).toEqual({
      ok: false,
      code: 'invalid',
      message: 'There is nothing to import: no row makes a customer.',
    })
  })
})

describe('tenancy', () => {
  it('matches only the importing company’s customers and technicians', async () => {
    const first = await newCompany()
    const second = await newCompany()
    await importFile(first, fixture('skimmer.csv'))
    const { summary, plan } = await preview(second, fixture('skimmer.csv'))
    expect(summary.customers).toBe(`${plan.counts.customers} new, 0 unchanged`)
    await applyImport(second, plan)
    const techs = await queryRows<{ company: string }>(
      sql`select distinct t.company_id as company from service_plans p join profiles t on t.id = p.technician_id
          where p.company_id = ${second}`,
    )
    expect(techs).toEqual([{ company: second }])
    const [shared] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(profiles)
      .where(and(eq(profiles.companyId, first), eq(profiles.role, 'customer')))
    expect(shared?.n).toBe(0)
  })
})

beforeAll(() => {
  made = 0
})
