// The demo data of ARCHITECTURE §3: the same every time (a fixed pseudo-random sequence),
// relative to "now" in each company's timezone, and idempotent (a second run adds nothing).
import { randomUUID } from 'node:crypto'
import { hashPassword } from 'better-auth/crypto'
import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm'
import sharp from 'sharp'
import { type PhotoKind, photoKey, storePhotoFiles, THUMB_PHOTO_EDGE } from '~/models/photo.server'
import { startOfZonedDay, zonedParts, zonedTimeToUtc } from '~/utils/dates'
import type { Database } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import { account, chemLogs, companies, customers, inventoryItems, jobs, profiles, user } from './schema'
import type { Role } from './schema/profiles'

export const DEMO_PASSWORD = 'pooldemo123'

export const DEMO_LOGINS: Array<{ email: string; role: Role; company: string | null; note?: string }> = [
  { email: 'admin@poolbud.test', role: 'platform_admin', company: null },
  { email: 'owner@bluelagoon.test', role: 'owner', company: 'Blue Lagoon Pool Co.' },
  { email: 'office@bluelagoon.test', role: 'admin', company: 'Blue Lagoon Pool Co.' },
  { email: 'dispatch@bluelagoon.test', role: 'dispatcher', company: 'Blue Lagoon Pool Co.' },
  { email: 'tech@bluelagoon.test', role: 'tech', company: 'Blue Lagoon Pool Co.' },
  { email: 'tech2@bluelagoon.test', role: 'tech', company: 'Blue Lagoon Pool Co.' },
  { email: 'newtech@bluelagoon.test', role: 'tech', company: 'Blue Lagoon Pool Co.', note: 'has not finished setup' },
  { email: 'customer@bluelagoon.test', role: 'customer', company: 'Blue Lagoon Pool Co.', note: 'Dana Whitfield' },
  { email: 'owner@sunsetpools.test', role: 'owner', company: 'Sunset Pool Care' },
  { email: 'tech@sunsetpools.test', role: 'tech', company: 'Sunset Pool Care' },
  { email: 'customer@sunsetpools.test', role: 'customer', company: 'Sunset Pool Care', note: 'Marco Ruiz' },
]

/** A small deterministic PRNG (mulberry32) so the demo is identical on every machine. */
function prng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type CompanySpec = {
  name: string
  timezone: string
  stripeAccountId: string | null
  city: string
  state: string
  streets: string[]
  customers: Array<{ name: string; email?: string; phone: string; balance: number }>
  staff: Array<{ email: string; role: Role; fullName: string; phone: string; done?: boolean }>
  portalCustomer: { email: string; name: string }
  inventory: Array<{ name: string; sku: string; qty: number; priceCents: number }>
  /** Days of history and future, and jobs per weekday. */
  pastDays: number
  futureDays: number
  jobsPerDay: number
  seed: number
}

const BLUE_LAGOON: CompanySpec = {
  name: 'Blue Lagoon Pool Co.',
  timezone: 'America/New_York',
  stripeAccountId: 'acct_1BlueLagoonDemo',
  city: 'Tampa',
  state: 'FL',
  streets: [
    'Bayshore Blvd',
    'Palm Ave',
    'Davis Blvd',
    'Swann Ave',
    'Azeele St',
    'Euclid Ave',
    'Mirabay Dr',
    'Channel Dr',
  ],
  customers: [
    { name: 'Dana Whitfield', email: 'customer@bluelagoon.test', phone: '(813) 555-0101', balance: 24000 },
    { name: 'Marcus Bell', email: 'marcus.bell@example.com', phone: '(813) 555-0102', balance: 0 },
    { name: 'Priya Raman', email: 'priya.raman@example.com', phone: '(813) 555-0103', balance: 12000 },
    { name: 'Tom Okafor', phone: '(813) 555-0104', balance: 0 },
    { name: 'Elena Vasquez', email: 'elena.v@example.com', phone: '(813) 555-0105', balance: 36000 },
    { name: 'Grace Kim', phone: '(813) 555-0106', balance: 0 },
    { name: 'Henry Adeyemi', email: 'h.adeyemi@example.com', phone: '(813) 555-0107', balance: 12000 },
    { name: 'Olivia Brennan', phone: '(813) 555-0108', balance: 0 },
    { name: 'Sam Castellano', email: 'sam.c@example.com', phone: '(813) 555-0109', balance: 0 },
    { name: 'Rita Moreno-Hall', phone: '(813) 555-0110', balance: 18000 },
    { name: 'Jamal Price', email: 'jamal.price@example.com', phone: '(813) 555-0111', balance: 0 },
    { name: 'Lena Fischer', phone: '(813) 555-0112', balance: 0 },
    { name: 'Victor Huang', email: 'victor.huang@example.com', phone: '(813) 555-0113', balance: 24000 },
    { name: 'Nora Lindqvist', phone: '(813) 555-0114', balance: 0 },
    { name: 'Carlos Mendez', email: 'carlos.mendez@example.com', phone: '(813) 555-0115', balance: 0 },
    { name: 'Bianca Rossi', phone: '(813) 555-0116', balance: 12000 },
    { name: 'Derek Osei', email: 'derek.osei@example.com', phone: '(813) 555-0117', balance: 0 },
    { name: 'Fiona MacLeod', phone: '(813) 555-0118', balance: 0 },
    { name: 'Isaac Turner', email: 'isaac.t@example.com', phone: '(813) 555-0119', balance: 6000 },
    { name: 'Yuki Tanaka', phone: '(813) 555-0120', balance: 0 },
    { name: 'Aisha Rahman', email: 'aisha.rahman@example.com', phone: '(813) 555-0121', balance: 0 },
    { name: 'Ben Whitaker', phone: '(813) 555-0122', balance: 30000 },
    { name: 'Sofia Alvarez', email: 'sofia.alvarez@example.com', phone: '(813) 555-0123', balance: 0 },
    { name: 'Paul Nguyen', phone: '(813) 555-0124', balance: 0 },
  ],
  staff: [
    { email: 'owner@bluelagoon.test', role: 'owner', fullName: 'Olivia Marsh', phone: '(813) 555-0001' },
    { email: 'office@bluelagoon.test', role: 'admin', fullName: 'Andre Collins', phone: '(813) 555-0002' },
    { email: 'dispatch@bluelagoon.test', role: 'dispatcher', fullName: 'Dina Patel', phone: '(813) 555-0003' },
    { email: 'tech@bluelagoon.test', role: 'tech', fullName: 'Tyler Brooks', phone: '(813) 555-0004' },
    { email: 'tech2@bluelagoon.test', role: 'tech', fullName: 'Maya Flores', phone: '(813) 555-0005' },
    { email: 'newtech@bluelagoon.test', role: 'tech', fullName: 'Noah Reed', phone: '(813) 555-0006', done: false },
  ],
  portalCustomer: { email: 'customer@bluelagoon.test', name: 'Dana Whitfield' },
  inventory: [
    { name: 'Liquid Chlorine 12.5% (1 gal)', sku: 'CHL-LIQ-1G', qty: 48, priceCents: 699 },
    { name: 'Liquid Chlorine 12.5% (4 × 1 gal case)', sku: 'CHL-LIQ-4PK', qty: 4, priceCents: 2499 },
    { name: 'Chlorine Tablets 3" (25 lb)', sku: 'CHL-TAB-25', qty: 12, priceCents: 11999 },
    { name: 'Chlorine Tablets 1" (5 lb)', sku: 'CHL-TAB-5', qty: 3, priceCents: 3499 },
    { name: 'Cal-Hypo Shock 73% (1 lb)', sku: 'CHL-SHOCK-1', qty: 30, priceCents: 599 },
    { name: 'Muriatic Acid 31.45% (1 gal)', sku: 'ACID-MUR-1G', qty: 20, priceCents: 1199 },
    { name: 'Sodium Bicarbonate (50 lb)', sku: 'ALK-BICARB-50', qty: 5, priceCents: 3299 },
    { name: 'Cyanuric Acid Stabilizer (4 lb)', sku: 'CYA-4', qty: 9, priceCents: 2799 },
    { name: 'Calcium Chloride 77% (25 lb)', sku: 'CAL-CHL-25', qty: 2, priceCents: 2699 },
    { name: 'Pool Salt (40 lb)', sku: 'SALT-40', qty: 25, priceCents: 899 },
    { name: 'Phosphate Remover (1 qt)', sku: 'PHOS-1Q', qty: 7, priceCents: 2899 },
    { name: 'DPD Test Reagent Kit', sku: 'TEST-DPD', qty: 1, priceCents: 4599 },
    { name: 'Skimmer Basket (standard)', sku: 'PART-SKIM-BSK', qty: 6, priceCents: 1899 },
    { name: 'Filter Cartridge 100 sq ft', sku: 'PART-CART-100', qty: 0, priceCents: 6499 },
  ],
  pastDays: 60,
  futureDays: 30,
  jobsPerDay: 4,
  seed: 20240601,
}

const SUNSET: CompanySpec = {
  name: 'Sunset Pool Care',
  timezone: 'America/Phoenix',
  stripeAccountId: null,
  city: 'Scottsdale',
  state: 'AZ',
  streets: ['Camelback Rd', 'Indian School Rd', 'Hayden Rd', 'Shea Blvd'],
  customers: [
    { name: 'Marco Ruiz', email: 'customer@sunsetpools.test', phone: '(480) 555-0131', balance: 9500 },
    { name: 'Janet Cole', phone: '(480) 555-0132', balance: 0 },
    { name: 'Wes Harmon', email: 'wes.harmon@example.com', phone: '(480) 555-0133', balance: 0 },
    { name: 'Ivy Chen', phone: '(480) 555-0134', balance: 12000 },
    { name: 'Luis Ortega', phone: '(480) 555-0135', balance: 0 },
    { name: 'Kara Simmons', email: 'kara.s@example.com', phone: '(480) 555-0136', balance: 0 },
  ],
  staff: [
    { email: 'owner@sunsetpools.test', role: 'owner', fullName: 'Rosa Delgado', phone: '(480) 555-0011' },
    { email: 'tech@sunsetpools.test', role: 'tech', fullName: 'Eli Warner', phone: '(480) 555-0012' },
  ],
  portalCustomer: { email: 'customer@sunsetpools.test', name: 'Marco Ruiz' },
  inventory: [
    { name: 'Liquid Chlorine 12.5% (1 gal)', sku: 'SPC-CHL-1G', qty: 15, priceCents: 749 },
    { name: 'Chlorine Tablets 3" (25 lb)', sku: 'SPC-TAB-25', qty: 3, priceCents: 12499 },
    { name: 'Muriatic Acid 31.45% (1 gal)', sku: 'SPC-ACID-1G', qty: 8, priceCents: 1249 },
    { name: 'Sodium Bicarbonate (25 lb)', sku: 'SPC-BICARB-25', qty: 6, priceCents: 1999 },
  ],
  pastDays: 30,
  futureDays: 14,
  jobsPerDay: 2,
  seed: 20240715,
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

const STANDARD_POOL = {
  poolVolumeGallons: 15_000,
  poolSurface: 'plaster',
  poolSanitiser: 'chlorine',
  poolIndoor: false,
} as const satisfies Partial<typeof customers.$inferInsert>

/** Salt pools and pools with no profile yet: the variety the office sees, kept off the first technician's visits. */
const isShowcasePool = (index: number) => index % 4 === 1 || index % 5 === 4

/** A varied pool profile per demo customer (by position, so it is the same every time); every fifth has none. */
function demoPool(index: number): Partial<typeof customers.$inferInsert> {
  if (index % 5 === 4) return {}
  const volumes = [15_000, 18_000, 12_000, 22_000]
  return {
    poolVolumeGallons: volumes[index % volumes.length],
    poolSurface: index % 3 === 1 ? 'vinyl' : index % 7 === 2 ? 'fibreglass' : 'plaster',
    poolSanitiser: index % 4 === 1 ? 'salt' : 'chlorine',
    poolIndoor: index % 9 === 8,
  }
}

async function createLogin(tx: Tx, email: string, name: string, passwordHash: string) {
  const id = randomUUID()
  await tx.insert(user).values({ id, email, name, emailVerified: true })
  await tx
    .insert(account)
    .values({ id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: passwordHash })
  return id
}

/**
 * One more signed-up, set-up login with the demo password (for tests that need a persona the
 * demo lacks, such as a second portal customer). Returns the user id.
 */
export async function createDemoLogin(
  database: Database,
  person: { email: string; fullName: string; role: Role | null; companyId: string | null },
) {
  const passwordHash = await hashPassword(DEMO_PASSWORD)
  return database.transaction(async (tx) => {
    const id = await createLogin(tx, person.email, person.fullName, passwordHash)
    await tx.insert(profiles).values({ id, ...person, hasCompletedSetup: true })
    return id
  })
}

async function seedCompany(tx: Tx, spec: CompanySpec, passwordHash: string, now: Date) {
  const random = prng(spec.seed)
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T
  const [company] = await tx
    .insert(companies)
    .values({
      name: spec.name,
      timezone: spec.timezone,
      stripeAccountId: spec.stripeAccountId,
      defaultServiceWindow: 'morning',
      customerPortalUrl: null,
    })
    .returning({ id: companies.id })
  if (!company) throw new Error('company insert returned nothing')
  const companyId = company.id

  const techIds: string[] = []
  const staffIds = new Map<string, string>()
  for (const member of spec.staff) {
    const id = await createLogin(tx, member.email, member.fullName, passwordHash)
    staffIds.set(member.email, id)
    const done = member.done ?? true
    await tx.insert(profiles).values({
      id,
      companyId,
      role: member.role,
      fullName: member.fullName,
      email: member.email,
      phone: member.phone,
      city: done ? spec.city : null,
      state: done ? spec.state : null,
      country: done ? 'United States' : null,
      hasCompletedSetup: done,
    })
    if (member.role === 'tech' && done) techIds.push(id)
  }

  const customerRows = spec.customers.map((c, i) => ({
    companyId,
    customerName: c.name,
    address: `${100 + ((i * 37) % 900)} ${spec.streets[i % spec.streets.length]}, ${spec.city}, ${spec.state}`,
    phone: c.phone,
    email: c.email ?? null,
    balanceDue: c.balance,
    createdAt: new Date(now.getTime() - (120 - i) * 86_400_000),
    ...demoPool(i),
  }))
  const insertedCustomers = await tx
    .insert(customers)
    .values(customerRows)
    .returning({ id: customers.id, name: customers.customerName, address: customers.address })

  const portal = insertedCustomers.find((c) => c.name === spec.portalCustomer.name)
  if (!portal) throw new Error('portal customer missing')
  const portalUserId = await createLogin(tx, spec.portalCustomer.email, spec.portalCustomer.name, passwordHash)
  await tx.insert(profiles).values({
    id: portalUserId,
    companyId,
    role: 'customer',
    fullName: spec.portalCustomer.name,
    email: spec.portalCustomer.email,
    hasCompletedSetup: true,
  })
  await tx.update(customers).set({ portalUserId }).where(eq(customers.id, portal.id))

  await tx.insert(inventoryItems).values(spec.inventory.map((item) => ({ ...item, companyId })))

  // Jobs: every weekday from pastDays ago to futureDays ahead, at morning and afternoon slots.
  // Past jobs are completed (a few left open: overdue); some future ones are unassigned;
  // the portal customer gets a visit every week so their history is full.
  const slots = [8, 9, 10, 11, 13, 14, 15]
  // The first technician's open visits become standard pools below; which visits are open depends on the clock,
  // so showcase pools go to the next technician instead, or some clock time would standardise them all.
  const showcaseIds = new Set(insertedCustomers.filter((_, index) => isShowcasePool(index)).map((c) => c.id))
  const [firstTech, secondTech] = techIds
  const jobRows: Array<typeof jobs.$inferInsert> = []
  const nowParts = zonedParts(now, spec.timezone)
  const technicianFor = (picked: string, customerId: string, completed: boolean) =>
    !completed && picked === firstTech && secondTech && showcaseIds.has(customerId) ? secondTech : picked
  for (let offset = -spec.pastDays; offset <= spec.futureDays; offset++) {
    const day = startOfZonedDay(now, spec.timezone, offset)
    const parts = zonedParts(day, spec.timezone)
    // Sundays are days off, except today: the demo always has work to show.
    if (parts.weekday === 0 && offset !== 0) continue
    const count = offset === 0 ? spec.jobsPerDay + 2 : spec.jobsPerDay
    for (let n = 0; n < count; n++) {
      const customer = n === 0 && parts.weekday === 2 ? portal : pick(insertedCustomers)
      const hour = slots[n % slots.length] ?? 9
      const scheduledAt = zonedTimeToUtc(
        { year: parts.year, month: parts.month, day: parts.day, hour, minute: n % 2 ? 30 : 0 },
        spec.timezone,
      )
      const isPast = scheduledAt < now
      const overdue = isPast && random() < 0.06
      const completed = isPast && !overdue && (offset < 0 || hour < nowParts.hour - 1)
      const unassigned = !completed && random() < (offset === 0 ? 0.3 : 0.2)
      jobRows.push({
        companyId,
        customerId: customer.id,
        customerName: customer.name,
        address: customer.address,
        scheduledAt,
        completedAt: completed ? new Date(scheduledAt.getTime() + (35 + Math.floor(random() * 40)) * 60_000) : null,
        technicianId: unassigned || techIds.length === 0 ? null : technicianFor(pick(techIds), customer.id, completed),
        // Booked 3–12 days ahead, and never later than a few hours ago for visits still to come.
        createdAt: new Date(
          Math.min(
            now.getTime() - (1 + Math.floor(random() * 72)) * 3_600_000,
            scheduledAt.getTime() - (3 + Math.floor(random() * 10)) * 86_400_000,
          ),
        ),
      })
    }
  }
  const insertedJobs = await tx.insert(jobs).values(jobRows).returning({ id: jobs.id, completedAt: jobs.completedAt })

  // The first technician's open visits and the portal customer are the standard 15,000-gallon chlorine plaster
  // pool that the end-to-end tests dose against (ARCHITECTURE §3: the same every time).
  const firstTechId = staffIds.get(spec.staff.find((member) => member.role === 'tech')?.email ?? '')
  const standardPools = new Set([portal.id])
  for (const job of jobRows) {
    if (!job.completedAt && firstTechId && job.technicianId === firstTechId) standardPools.add(job.customerId)
  }
  await tx
    .update(customers)
    .set(STANDARD_POOL)
    .where(and(eq(customers.companyId, companyId), inArray(customers.id, [...standardPools])))

  const readings: Array<typeof chemLogs.$inferInsert> = []
  // A separate sequence for the optional readings, so adding them did not move any other demo value.
  const extra = prng(spec.seed + 1)
  for (const job of insertedJobs) {
    if (!job.completedAt) continue
    const round = (value: number, digits: number) => Number(value.toFixed(digits))
    // About two visits in three had the full kit: stabiliser, hardness and temperature (salt on salt pools is
    // not tracked per job here, so it is left out).
    const full = extra() < 0.65
    readings.push({
      companyId,
      jobId: job.id,
      ph: round(7.1 + random() * 0.8, 1),
      chlorinePpm: round(0.5 + random() * 4.5, 1),
      alkalinity: Math.round(70 + random() * 70),
      cyanuricAcid: full ? Math.round(25 + extra() * 40) : null,
      calciumHardness: full ? Math.round(180 + extra() * 240) : null,
      waterTempF: full ? Math.round(72 + extra() * 16) : null,
      takenAt: new Date(job.completedAt.getTime() - 10 * 60_000),
    })
  }
  if (readings.length) await tx.insert(chemLogs).values(readings)
  return companyId
}

/**
 * Seeds the demo data unless it is already there. Returns whether anything was written.
 * Runs in one transaction: a failed seed leaves nothing behind.
 */
export async function seedDemoData(database: Database, now = new Date()) {
  const [existing] = await database
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, 'admin@poolbud.test'))
    .limit(1)
  if (existing) return false
  const passwordHash = await hashPassword(DEMO_PASSWORD)
  await database.transaction(async (tx) => {
    const adminId = await createLogin(tx, 'admin@poolbud.test', 'Pat Admin', passwordHash)
    await tx.insert(profiles).values({
      id: adminId,
      role: 'platform_admin',
      fullName: 'Pat Admin',
      email: 'admin@poolbud.test',
      hasCompletedSetup: true,
    })
    await seedCompany(tx, BLUE_LAGOON, passwordHash, now)
    await seedCompany(tx, SUNSET, passwordHash, now)
  })
  // Files cannot join the transaction, so photos come after it. A storage failure (say, an
  // unreachable bucket) must not take the demo down with it: the jobs simply show no photos.
  try {
    await seedDemoPhotos(database)
  } catch (error) {
    logger.error({ err: error }, 'could not store the demo photos')
  }
  return true
}

/** Completed jobs per company that get demo photos (the newest ones), besides all of the portal customers'. */
export const DEMO_PHOTO_JOBS_PER_COMPANY = 12

/**
 * A pool seen from above, text-free: greenish, cloudy water with leaves before the visit;
 * clear blue water after it. `variant` moves the clouds, leaves and ripples around.
 */
function poolScene(kind: PhotoKind, variant: number) {
  const random = prng(9_000 + variant * 17 + (kind === 'before' ? 0 : 1))
  const before = kind === 'before'
  const [top, bottom] = before ? ['#8aa257', '#5b7736'] : ['#40c8ee', '#0a74b4']
  const shade = before ? '#2f4416' : '#04456e'
  const at = (min: number, span: number) => Math.round(min + random() * span)
  let water = ''
  if (before) {
    for (let i = 0; i < 8; i++) {
      water += `<ellipse cx="${at(200, 800)}" cy="${at(220, 460)}" rx="${at(110, 160)}" ry="${at(60, 90)}" fill="url(#cloud)"/>`
    }
    water += '<rect x="120" y="140" width="960" height="620" fill="url(#edge)"/>'
    for (let i = 0; i < 14; i++) {
      const x = at(180, 840)
      const y = at(200, 500)
      water += `<ellipse cx="${x}" cy="${y}" rx="17" ry="7" fill="#6b4a22" opacity="0.85" transform="rotate(${at(0, 180)} ${x} ${y})"/>`
    }
  } else {
    for (let i = 0; i < 9; i++) {
      const y = 190 + i * 62 + at(0, 20)
      water += `<path d="M150 ${y} C 330 ${y - 30}, 480 ${y + 30}, 650 ${y} S 950 ${y - 25}, 1060 ${y + 5}" stroke="#ffffff" stroke-width="${at(3, 4)}" fill="none" opacity="0.3"/>`
    }
    water += '<rect x="120" y="140" width="960" height="620" fill="url(#edge)"/>'
  }
  const pavers = Array.from({ length: 12 }, (_, i) => {
    const x = i * 100 + 50
    return `<line x1="${x}" y1="0" x2="${x}" y2="900" stroke="#d8ccb2" stroke-width="3"/>`
  }).join('')
  const rungs = [0, 1, 2].map((i) => `<rect x="860" y="${170 + i * 40}" width="84" height="8" rx="4" fill="#b8bcc2"/>`)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900" viewBox="0 0 1200 900">
  <defs>
    <linearGradient id="w" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>
    <radialGradient id="cloud"><stop offset="0" stop-color="#dfe6bf" stop-opacity="0.55"/><stop offset="1" stop-color="#dfe6bf" stop-opacity="0"/></radialGradient>
    <radialGradient id="edge" cx="0.5" cy="0.5" r="0.75"><stop offset="0.6" stop-color="${shade}" stop-opacity="0"/><stop offset="1" stop-color="${shade}" stop-opacity="${before ? 0.7 : 0.35}"/></radialGradient>
    <clipPath id="pool"><rect x="120" y="140" width="960" height="620" rx="60"/></clipPath>
  </defs>
  <rect width="1200" height="900" fill="#e9dfc9"/>${pavers}
  <rect x="96" y="116" width="1008" height="668" rx="76" fill="#f7f3ea"/>
  <g clip-path="url(#pool)"><rect x="120" y="140" width="960" height="620" fill="url(#w)"/>${water}</g>
  <rect x="860" y="96" width="14" height="200" rx="7" fill="#b8bcc2"/>
  <rect x="930" y="96" width="14" height="200" rx="7" fill="#b8bcc2"/>${rungs.join('')}
</svg>`
}

const DEMO_PHOTO_VARIANTS = 2
let demoPhotos: Promise<Record<PhotoKind, Array<{ full: Buffer; thumb: Buffer }>>> | undefined

/** The demo images, rendered once per process (rendering is the slow part; storing is cheap). */
function renderDemoPhotos() {
  demoPhotos ??= (async () => {
    const render = async (kind: PhotoKind, variant: number) => {
      const full = await sharp(Buffer.from(poolScene(kind, variant)))
        .jpeg({ quality: 80, mozjpeg: true })
        .toBuffer()
      const thumb = await sharp(full)
        .resize(THUMB_PHOTO_EDGE, THUMB_PHOTO_EDGE, { fit: 'inside' })
        .jpeg({ quality: 78, mozjpeg: true })
        .toBuffer()
      return { full, thumb }
    }
    const variants = Array.from({ length: DEMO_PHOTO_VARIANTS }, (_, i) => i)
    const [before, after] = await Promise.all([
      Promise.all(variants.map((v) => render('before', v))),
      Promise.all(variants.map((v) => render('after', v))),
    ])
    return { before, after }
  })()
  // A failed render is retried next time instead of being remembered.
  demoPhotos.catch(() => {
    demoPhotos = undefined
  })
  return demoPhotos
}

/**
 * Gives the demo's newest completed jobs of each company, and every completed visit of the
 * portal customers (Dana Whitfield, Marco Ruiz), a before and an after photo, stored through
 * the photo storage under the usual keys. Jobs that already have a photo are left alone, so
 * running it again adds nothing.
 */
export async function seedDemoPhotos(database: Database) {
  const demoCompanies = await database
    .select({ id: companies.id })
    .from(companies)
    .where(inArray(companies.name, [BLUE_LAGOON.name, SUNSET.name]))
  const columns = {
    id: jobs.id,
    companyId: jobs.companyId,
    completedAt: jobs.completedAt,
    beforeUrl: jobs.beforeUrl,
    afterUrl: jobs.afterUrl,
  }
  const recent = await Promise.all(
    demoCompanies.map((company) =>
      database
        .select(columns)
        .from(jobs)
        .where(and(eq(jobs.companyId, company.id), isNotNull(jobs.completedAt)))
        .orderBy(desc(jobs.completedAt))
        .limit(DEMO_PHOTO_JOBS_PER_COMPANY),
    ),
  )
  const portalVisits = await database
    .select(columns)
    .from(jobs)
    .innerJoin(customers, and(eq(customers.companyId, jobs.companyId), eq(customers.id, jobs.customerId)))
    .innerJoin(user, eq(user.id, customers.portalUserId))
    .where(
      and(
        inArray(user.email, [BLUE_LAGOON.portalCustomer.email, SUNSET.portalCustomer.email]),
        isNotNull(jobs.completedAt),
      ),
    )
  const targets = new Map<string, (typeof portalVisits)[number]>()
  for (const job of [...recent.flat(), ...portalVisits]) {
    if (!job.beforeUrl && !job.afterUrl && job.completedAt) targets.set(job.id, job)
  }
  if (targets.size === 0) return 0

  const images = await renderDemoPhotos()
  const list = [...targets.values()]
  // A few at a time: quick on disk, and polite to a remote bucket.
  for (let start = 0; start < list.length; start += 8) {
    await Promise.all(
      list.slice(start, start + 8).map(async (job, offset) => {
        const index = start + offset
        const completedAt = job.completedAt ?? new Date()
        const beforeKey = photoKey(job.id, 'before', 'demo-before.jpg', new Date(completedAt.getTime() - 40 * 60_000))
        const afterKey = photoKey(job.id, 'after', 'demo-after.jpg', completedAt)
        const before = images.before[index % DEMO_PHOTO_VARIANTS]
        const after = images.after[(index + 1) % DEMO_PHOTO_VARIANTS]
        if (!before || !after) throw new Error('demo photos missing')
        await Promise.all([storePhotoFiles(beforeKey, before), storePhotoFiles(afterKey, after)])
        await database
          .update(jobs)
          .set({ beforeUrl: beforeKey, afterUrl: afterKey })
          .where(and(eq(jobs.companyId, job.companyId), eq(jobs.id, job.id)))
      }),
    )
  }
  return list.length
}
