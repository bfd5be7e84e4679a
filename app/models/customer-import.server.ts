// "Import" of a customer file (docs/product.md "Import", decision 014): the plan the preview made
// (app/models/customer-import-preview.server.ts) written in one transaction with a few bulk statements per table,
// against the company's customers at that moment; a re-import of the same file finds everything there ("0 new, N
// unchanged").
import { randomUUID } from 'node:crypto'
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm'
import { diffImport, type FieldChange, type ImportDiff } from '~/customer-import/diff'
import { canImport, type ImportPlan } from '~/customer-import/import-plan.server'
import {
  bodiesOfWater,
  companies,
  customers,
  profiles,
  serviceLocations,
  servicePlans,
  session,
  visits,
} from '~/db/schema'
import { localDateAt } from '~/schedule/local-date'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { failure, type Result, success } from '~/utils/result'
import { loadCustomers } from './customer-file.server'
import { type ImportSummary, summarize } from './customer-import-preview.server'
import { newLocationPosition } from './location-position.server'

/** Rows per bulk statement: well under PostgreSQL's 65,535 parameters for the widest table. */
const CHUNK = 500

function chunks<T>(rows: readonly T[]) {
  const out: T[][] = []
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK))
  return out
}

/**
 * Updates matched records of one table in one statement per chunk: each row sets only the fields that change (the
 * others are null in the VALUES list and keep what is stored, as a blank cell does).
 */
async function updateChanged(
  tx: Database,
  table: string,
  companyId: string,
  columns: Record<string, { column: string; type: string }>,
  rows: Array<{ id: string; changes: FieldChange[] }>,
) {
  const fields = Object.keys(columns)
  for (const part of chunks(rows.filter((row) => row.changes.length > 0))) {
    const values = part.map((row) => {
      const changed = new Map(row.changes.map((change) => [change.field, change.to]))
      const cells = fields.map((field) => {
        const { type } = columns[field] as { type: string }
        return sql`${changed.has(field) ? changed.get(field) : null}::${sql.raw(type)}`
      })
      return sql`(${row.id}::uuid, ${sql.join(cells, sql`, `)})`
    })
    const names = fields.map((field) => sql.identifier(columns[field]?.column as string))
    const sets = names.map((name) => sql`${name} = coalesce(v.${name}, t.${name})`)
    await tx.execute(sql`
      update ${sql.identifier(table)} t set ${sql.join(sets, sql`, `)}
      from (values ${sql.join(values, sql`, `)}) as v(id, ${sql.join(names, sql`, `)})
      where t.company_id = ${companyId} and t.id = v.id`)
  }
}

const CUSTOMER_COLUMNS = {
  customerName: { column: 'customer_name', type: 'text' },
  email: { column: 'email', type: 'text' },
  phone: { column: 'phone', type: 'text' },
  billingAddress: { column: 'billing_address', type: 'text' },
  notes: { column: 'notes', type: 'text' },
}
const LOCATION_COLUMNS = {
  label: { column: 'label', type: 'text' },
  street: { column: 'street', type: 'text' },
  city: { column: 'city', type: 'text' },
  state: { column: 'state', type: 'text' },
  postalCode: { column: 'postal_code', type: 'text' },
  lat: { column: 'lat', type: 'numeric' },
  lng: { column: 'lng', type: 'numeric' },
  gateCode: { column: 'gate_code', type: 'text' },
  accessNotes: { column: 'access_notes', type: 'text' },
  dogOnSite: { column: 'dog_on_site', type: 'boolean' },
  minutesOnSite: { column: 'minutes_on_site', type: 'integer' },
}
const BODY_COLUMNS = {
  name: { column: 'name', type: 'text' },
  gallons: { column: 'gallons', type: 'integer' },
  surface: { column: 'surface', type: 'text' },
  sanitizer: { column: 'sanitizer', type: 'text' },
  indoor: { column: 'indoor', type: 'boolean' },
}
const PLAN_COLUMNS = {
  weekday: { column: 'weekday', type: 'integer' },
  frequencyWeeks: { column: 'frequency_weeks', type: 'integer' },
  technicianId: { column: 'technician_id', type: 'text' },
  serviceWindow: { column: 'service_window', type: 'text' },
  rateCents: { column: 'rate_cents', type: 'integer' },
  rateType: { column: 'rate_type', type: 'text' },
  startsOn: { column: 'starts_on', type: 'date' },
  endsOn: { column: 'ends_on', type: 'date' },
}

export type ImportOutcome = {
  totals: ImportDiff['totals']
  summary: ImportSummary
  /** The rows left out because they had problems ("Skip rows with problems"), listed after the import. */
  skippedRows: number[]
}

/**
 * "Import": writes the plan in ONE transaction, compared with the company's customers at that moment: new records
 * are inserted in bulk, changed ones updated in bulk (only the fields the file changes; a blank cell keeps what is
 * there), unchanged ones left alone. A customer the file marks archived is archived as on the record page (open
 * visits canceled, portal access ended). Refused, writing nothing, while rows have problems unless the person chose
 * to skip them. Two imports of one company run one after the other, so neither adds what the other just added.
 */
export async function applyImport(
  companyId: string,
  plan: ImportPlan,
  {
    skipRowsWithProblems = false,
    now = new Date(),
    executor,
  }: {
    skipRowsWithProblems?: boolean
    now?: Date
    /** The caller's transaction (an idempotency key's): the import runs inside it, and commits with it. */
    executor?: Database
  } = {},
): Promise<Result<ImportOutcome>> {
  if (!canImport(plan, skipRowsWithProblems)) {
    const rows = plan.skippedRows.length
    if (rows > 0 && !skipRowsWithProblems) {
      return failure(
        'invalid',
        `${rows === 1 ? '1 row has' : `${rows.toLocaleString('en-US')} rows have`} problems. Fix them in the file ` +
          'and preview it again, or choose "Skip rows with problems".',
      )
    }
    return failure('invalid', 'There is nothing to import: no row makes a customer.')
  }
  const result = await (executor ?? db()).transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`customer-import:${companyId}`}))`)
    const [company] = await tx
      .select({ timezone: companies.timezone, serviceWindow: companies.defaultServiceWindow })
      .from(companies)
      .where(eq(companies.id, companyId))
    if (!company) return failure('not-found', 'Company not found.')
    const existing = await loadCustomers(companyId, tx)
    const diff = diffImport(plan, existing)
    const today = localDateAt(now, company.timezone)
    const newCustomers: Array<typeof customers.$inferInsert> = []
    const newLocations: Array<typeof serviceLocations.$inferInsert> = []
    const newBodies: Array<typeof bodiesOfWater.$inferInsert> = []
    const newPlans: Array<typeof servicePlans.$inferInsert> = []
    const archived: string[] = []
    const restored: string[] = []
    const byId = new Map(existing.map((customer) => [customer.id, customer]))

    for (const entry of diff.customers) {
      const planned = entry.planned
      let customerId = entry.existingId
      if (!customerId) {
        customerId = randomUUID()
        const status = planned.status ?? 'active'
        newCustomers.push({
          id: customerId,
          companyId,
          customerName: planned.customerName,
          email: planned.email,
          phone: planned.phone,
          billingAddress: planned.billingAddress,
          notes: planned.notes,
          status,
          archivedAt: status === 'archived' ? now : null,
        })
      } else {
        const change = entry.changes.find((c) => c.field === 'status')
        if (change?.to === 'archived') archived.push(customerId)
        if (change?.to === 'active') restored.push(customerId)
      }
      const current = byId.get(customerId)
      let nextPosition = Math.max(-1, ...(current?.locations.map((l) => l.position) ?? [])) + 1
      for (const location of entry.locations) {
        let locationId = location.existingId
        const place = location.planned
        if (!locationId) {
          locationId = randomUUID()
          newLocations.push({
            id: locationId,
            companyId,
            customerId,
            label: place.label,
            street: place.street,
            city: place.city,
            state: place.state,
            postalCode: place.postalCode,
            // Coordinates from the file are kept ('import'); without, the ZIP's center at once (no network), and
            // the background pass geocodes it when GEOCODER_URL is set.
            ...newLocationPosition(place, 'import'),
            gateCode: place.gateCode,
            accessNotes: place.accessNotes,
            dogOnSite: place.dogOnSite ?? false,
            minutesOnSite: place.minutesOnSite ?? undefined,
            position: nextPosition++,
          })
        }
        const knownBodies = current?.locations.find((l) => l.id === locationId)?.bodiesOfWater ?? []
        let bodyPosition = Math.max(-1, ...knownBodies.map((b) => b.position)) + 1
        for (const body of location.bodiesOfWater) {
          if (body.existingId) continue
          const { row: _, ...water } = body.planned
          newBodies.push({ id: randomUUID(), companyId, locationId, ...water, position: bodyPosition++ })
        }
        for (const service of location.plans) {
          if (service.existingId) continue
          const { row: _, ...p } = service.planned
          newPlans.push({
            id: randomUUID(),
            companyId,
            locationId,
            weekday: p.weekday,
            frequencyWeeks: p.frequencyWeeks,
            technicianId: p.technicianId,
            serviceWindow: p.serviceWindow ?? company.serviceWindow,
            rateCents: p.rateCents ?? 0,
            rateType: p.rateType ?? 'per-visit',
            startsOn: p.startsOn ?? today,
            endsOn: p.endsOn,
          })
        }
      }
    }

    for (const part of chunks(newCustomers)) await tx.insert(customers).values(part)
    for (const part of chunks(newLocations)) await tx.insert(serviceLocations).values(part)
    for (const part of chunks(newBodies)) await tx.insert(bodiesOfWater).values(part)
    for (const part of chunks(newPlans)) await tx.insert(servicePlans).values(part)

    const matched = diff.customers.filter((c) => c.existingId)
    const locations = matched.flatMap((c) => c.locations).filter((l) => l.existingId)
    const idOf = <T extends { existingId: string | null; changes: FieldChange[] }>(entry: T) => ({
      id: entry.existingId as string,
      changes: entry.changes,
    })
    await updateChanged(tx, 'customers', companyId, CUSTOMER_COLUMNS, matched.map(idOf))
    await updateChanged(tx, 'service_locations', companyId, LOCATION_COLUMNS, locations.map(idOf))
    const bodies = matched.flatMap((c) => c.locations.flatMap((l) => l.bodiesOfWater)).filter((b) => b.existingId)
    await updateChanged(tx, 'bodies_of_water', companyId, BODY_COLUMNS, bodies.map(idOf))
    const plans = matched.flatMap((c) => c.locations.flatMap((l) => l.plans)).filter((p) => p.existingId)
    await updateChanged(tx, 'service_plans', companyId, PLAN_COLUMNS, plans.map(idOf))
    const canceled = await changeStatus(tx, { companyId, archived, restored, now })
    return success({
      outcome: {
        totals: diff.totals,
        summary: summarize(plan, diff),
        skippedRows: skipRowsWithProblems ? plan.skippedRows : [],
      },
      canceled,
    })
  })
  if (!result.ok) return result
  // Inside the caller's transaction the notice goes out with its commit (NOTIFY is transactional); a query on
  // another connection would wait for that transaction, which is waiting for this one.
  if (result.canceled > 0) await publishCompanyEvent({ companyId, type: 'visit.updated' }, executor)
  return success(result.outcome)
}

/** Archives and restores what the file's Status column changed, as the record page's buttons do. */
async function changeStatus(
  tx: Database,
  { companyId, archived, restored, now }: { companyId: string; archived: string[]; restored: string[]; now: Date },
) {
  let canceled = 0
  if (archived.length > 0) {
    await tx
      .update(customers)
      .set({ status: 'archived', archivedAt: now })
      .where(and(eq(customers.companyId, companyId), inArray(customers.id, archived)))
    const rows = await tx
      .update(visits)
      .set({ canceledAt: now })
      .where(
        and(
          eq(visits.companyId, companyId),
          inArray(visits.customerId, archived),
          sql`${visits.completedAt} is null and ${visits.canceledAt} is null`,
        ),
      )
      .returning({ id: visits.id })
    canceled = rows.length
    const logins = portalLoginsOf(companyId, archived)
    await tx.update(profiles).set({ deactivatedAt: now }).where(inArray(profiles.id, logins))
    await tx.delete(session).where(inArray(session.userId, logins))
  }
  if (restored.length > 0) {
    await tx
      .update(customers)
      .set({ status: 'active', archivedAt: null })
      .where(and(eq(customers.companyId, companyId), inArray(customers.id, restored)))
    await tx
      .update(profiles)
      .set({ deactivatedAt: null })
      .where(inArray(profiles.id, portalLoginsOf(companyId, restored)))
  }
  return canceled
}

/** The portal logins (customer profiles) of these customers, as a subquery. */
function portalLoginsOf(companyId: string, customerIds: string[]): SQL {
  return sql`(select p.id from ${profiles} p join ${customers} c on c.portal_user_id = p.id
    where c.company_id = ${companyId} and c.id in (${sql.join(
      customerIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) and p.role = 'customer')`
}
