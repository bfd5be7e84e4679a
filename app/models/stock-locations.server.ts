// Where truck stock is (docs/inventory.md "Locations", decision 060): the company's warehouse, each technician's
// truck (made the first time they get stock), the places a form can name, and how a message says where stock is.
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import { profiles, stockLocations } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { formatUnits } from '~/utils/stock-units'

export type StockLocation = { id: string; kind: 'warehouse' | 'truck'; name: string; technicianId: string | null }

const locationColumns = {
  id: stockLocations.id,
  kind: stockLocations.kind,
  name: stockLocations.name,
  technicianId: stockLocations.technicianId,
}

/** Where "Only 2 gal left …" says the stock is. */
export function placeText(location: Pick<StockLocation, 'kind' | 'name'>) {
  return location.kind === 'warehouse' ? `in the ${location.name}` : `on ${location.name}`
}

/** "Only 2 gal left on Truck — Tyler Brooks." */
export function notEnoughMessage(qty: number, unit: string, location: Pick<StockLocation, 'kind' | 'name'>) {
  return `Only ${formatUnits(qty, unit)} left ${placeText(location)}.`
}

/** The company's warehouse (made now if a company somehow has none: the database function is the one maker). */
export async function warehouseOf(tx: Database, companyId: string): Promise<StockLocation> {
  const [row] = await tx
    .select(locationColumns)
    .from(stockLocations)
    .where(sql`${stockLocations.id} = pool_bud_warehouse_of(${companyId}::uuid)`)
  if (!row) throw new Error('no warehouse')
  return row
}

/** A technician's truck, or null when they have none yet. */
export async function truckOf(tx: Database, companyId: string, technicianId: string): Promise<StockLocation | null> {
  const [row] = await tx
    .select(locationColumns)
    .from(stockLocations)
    .where(and(eq(stockLocations.companyId, companyId), eq(stockLocations.technicianId, technicianId)))
  return row ?? null
}

/** A technician's truck, made ("Truck — Tyler Brooks") the first time they get stock; null if not a technician. */
async function makeTruck(tx: Database, companyId: string, technicianId: string): Promise<StockLocation | null> {
  const [tech] = await tx
    .select({ name: sql<string>`coalesce(nullif(trim(${profiles.fullName}), ''), ${profiles.email})` })
    .from(profiles)
    .where(and(eq(profiles.id, technicianId), eq(profiles.companyId, companyId), eq(profiles.role, 'tech')))
  if (!tech) return null
  await tx
    .insert(stockLocations)
    .values({ companyId, kind: 'truck', technicianId, name: `Truck — ${tech.name}` })
    .onConflictDoNothing()
  return truckOf(tx, companyId, technicianId)
}

/** One location of the company by id, or null (another company's is null too). */
export async function locationById(tx: Database, companyId: string, locationId: string) {
  if (!isUuid(locationId)) return null
  const [row] = await tx
    .select(locationColumns)
    .from(stockLocations)
    .where(and(eq(stockLocations.companyId, companyId), eq(stockLocations.id, locationId)))
  return row ?? null
}

/**
 * A place a form names: a location id, or `tech:<profile id>` for an active technician who has no truck yet (the
 * truck is made when `create`).
 */
export async function resolvePlace(tx: Database, companyId: string, value: string, create: boolean) {
  if (value.startsWith('tech:')) {
    const technicianId = value.slice(5)
    return (await truckOf(tx, companyId, technicianId)) ?? (create ? makeTruck(tx, companyId, technicianId) : null)
  }
  return locationById(tx, companyId, value)
}

/** Every place stock can be: the warehouse, trucks, and active technicians without a truck yet (`tech:<id>`). */
export async function listStockPlaces(companyId: string) {
  const [locations, techs] = await Promise.all([
    db()
      .select(locationColumns)
      .from(stockLocations)
      .where(eq(stockLocations.companyId, companyId))
      .orderBy(sql`${stockLocations.kind} = 'truck'`, asc(stockLocations.name))
      .limit(200),
    db()
      .select({
        id: profiles.id,
        name: sql<string>`coalesce(nullif(trim(${profiles.fullName}), ''), ${profiles.email})`,
      })
      .from(profiles)
      .leftJoin(
        stockLocations,
        and(eq(stockLocations.companyId, profiles.companyId), eq(stockLocations.technicianId, profiles.id)),
      )
      .where(
        and(
          eq(profiles.companyId, companyId),
          eq(profiles.role, 'tech'),
          isNull(profiles.deactivatedAt),
          isNull(stockLocations.id),
        ),
      )
      .orderBy(asc(profiles.fullName))
      .limit(200),
  ])
  return [
    ...locations.map((l) => ({ value: l.id, name: l.name, kind: l.kind })),
    ...techs.map((t) => ({ value: `tech:${t.id}`, name: `Truck — ${t.name}`, kind: 'truck' as const })),
  ]
}
