// The demo data of docs/product.md "Demo": the same every time (a fixed pseudo-random sequence),
// relative to "now" in each company's timezone, and idempotent (a second run adds nothing).
import { randomUUID } from 'node:crypto'
import { hashPassword } from 'better-auth/crypto'
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import sharp from 'sharp'
import type { PoolBudPlan } from '~/billing/pool-bud-plans'
import {
  account,
  bodiesOfWater,
  chemLogs,
  companies,
  customers,
  equipment,
  inventoryItems,
  invoiceLines,
  invoices,
  profiles,
  serviceLocations,
  servicePlans,
  user,
  visitChemicalAdditions,
  visitPhotos,
  visits,
} from '~/db/schema'
import type { Role } from '~/db/schema/profiles'
import { addDefaultChecklist } from '~/models/checklist.server'
import { photoKey, storePhotoFiles, THUMB_PHOTO_EDGE } from '~/models/photo.server'
import { type IsoWeekday, type LocalDate, localDateAt } from '~/schedule/local-date'
import { type FrequencyWeeks, isOccurrence } from '~/schedule/recurrence'
import { formatAddress } from '~/utils/address'
import type { EquipmentKind } from '~/utils/customer-fields'
import { startOfZonedDay, zonedParts, zonedTimeToUtc } from '~/utils/dates'
import type { Database } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import { toE164 } from '~/utils/phone'
import type { Sanitizer, Surface } from '~/water/targets'
import { prng } from './prng'
import { type RouteArea, seedRoutes } from './routes.server'

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

/** A body of water as the demo describes it; equipment comes from the kits below, by position. */
type DemoBody = {
  name: string
  gallons: number
  surface: Surface
  sanitizer: Sanitizer
  indoor: boolean
}

type DemoLocation = {
  label?: string
  street: string
  city: string
  zip: string
  lat: number
  lng: number
  gateCode?: string
  /** Set: there is a dog, described in the access notes. */
  dog?: string
  accessNotes?: string
  /** Bodies beyond the pool: a spa, or the HOA's own list. */
  spa?: boolean
  bodies?: DemoBody[]
  /** Every two weeks instead of weekly; an HOA's pool twice a week. */
  visits?: 'weekly' | 'every-2-weeks' | 'twice-weekly'
}

type DemoCustomer = {
  name: string
  email?: string
  phone: string
  balance: number
  billingAddress?: string
  notes?: string
  locations: DemoLocation[]
}

type CompanySpec = {
  name: string
  timezone: string
  /** Its Pool Bud plan (Settings → "Plan"): one that fits its team (advanced roles are the Business plan's). */
  plan: PoolBudPlan
  stripeAccountId: string | null
  city: string
  state: string
  /** The yard routes start from ("Optimize route"). */
  start: { address: string; lat: number; lng: number }
  /** The houses on the technicians' weekly routes: their neighbourhoods, phone area code and stops a day. */
  routes: { areas: RouteArea[]; areaCode: string; stopsPerDay: number; surnames: 0 | 1 }
  customers: DemoCustomer[]
  /** `hourlyCostCents`: what an hour of a technician costs the company (Team → technician; "Profit per pool"). */
  staff: Array<{
    email: string
    role: Role
    fullName: string
    phone: string
    done?: boolean
    hourlyCostCents?: number
  }>
  portalCustomer: { email: string; name: string }
  /** `costCents`: what a unit costs the company ("Profit per pool"), a little over half its price. */
  inventory: Array<{ name: string; sku: string; qty: number; priceCents: number; costCents: number }>
  /** Days of history and future, and visits per weekday. */
  pastDays: number
  futureDays: number
  visitsPerDay: number
  seed: number
}

const home = (street: string, city: string, zip: string, lat: number, lng: number, extra: Partial<DemoLocation> = {}) =>
  ({ street, city, zip, lat, lng, ...extra }) satisfies DemoLocation

const BLUE_LAGOON: CompanySpec = {
  name: 'Blue Lagoon Pool Co.',
  timezone: 'America/New_York',
  plan: 'business',
  stripeAccountId: 'acct_1BlueLagoonDemo',
  city: 'Tampa',
  state: 'FL',
  start: { address: '2502 N Rocky Point Dr, Tampa, FL 33607', lat: 27.96611, lng: -82.56222 },
  routes: {
    areas: [
      { city: 'Tampa', zip: '33629', lat: 27.915, lng: -82.49 },
      { city: 'Tampa', zip: '33618', lat: 28.05, lng: -82.5 },
      { city: 'Tampa', zip: '33647', lat: 28.13, lng: -82.36 },
      { city: 'Tampa', zip: '33626', lat: 28.06, lng: -82.61 },
      { city: 'St. Petersburg', zip: '33704', lat: 27.79, lng: -82.67 },
      { city: 'Clearwater', zip: '33755', lat: 27.975, lng: -82.76 },
      { city: 'Brandon', zip: '33511', lat: 27.94, lng: -82.3 },
    ],
    areaCode: '813',
    stopsPerDay: 14,
    surnames: 0,
  },
  // The Tampa Bay area: South Tampa, Davis Islands, New Tampa, Westchase, Carrollwood, St. Petersburg, Clearwater
  // and Brandon. Coordinates are where such a house would be (to five decimals), for routes and maps.
  customers: [
    {
      name: 'Dana Whitfield',
      email: 'customer@bluelagoon.test',
      phone: '(813) 555-0101',
      balance: 24000,
      locations: [
        home('4107 W San Miguel St', 'Tampa', '33629', 27.91834, -82.50693, {
          spa: true,
          gateCode: '2580#',
          dog: 'Biscuit, a friendly golden retriever: keep the side gate latched.',
        }),
      ],
    },
    {
      name: 'Marcus Bell',
      email: 'marcus.bell@example.com',
      phone: '(813) 555-0102',
      balance: 0,
      locations: [home('2814 W Prospect Rd', 'Tampa', '33629', 27.92411, -82.48851)],
    },
    {
      name: 'Priya Raman',
      email: 'priya.raman@example.com',
      phone: '(813) 555-0103',
      balance: 12000,
      locations: [
        home('812 S Dakota Ave', 'Tampa', '33606', 27.93652, -82.47823, {
          dog: 'Two small terriers; they stay inside if you text on arrival.',
        }),
      ],
    },
    {
      name: 'Tom Okafor',
      phone: '(813) 555-0104',
      balance: 0,
      locations: [home('35 Martinique Ave', 'Tampa', '33606', 27.91302, -82.45604, { gateCode: '4471' })],
    },
    {
      name: 'Elena Vasquez',
      email: 'elena.v@example.com',
      phone: '(813) 555-0105',
      balance: 36000,
      notes: 'Prefers texts to calls. Pays by check at the end of the month.',
      locations: [home('1107 S Orleans Ave', 'Tampa', '33606', 27.93302, -82.47941)],
    },
    {
      name: 'Grace Kim',
      phone: '(813) 555-0106',
      balance: 0,
      locations: [home('3717 W Euclid Ave', 'Tampa', '33629', 27.92031, -82.50114, { spa: true })],
    },
    {
      name: 'Henry Adeyemi',
      email: 'h.adeyemi@example.com',
      phone: '(813) 555-0107',
      balance: 12000,
      locations: [home('4312 W Azeele St', 'Tampa', '33609', 27.94042, -82.51641)],
    },
    {
      name: 'Olivia Brennan',
      phone: '(813) 555-0108',
      balance: 0,
      locations: [
        home('2915 W Knights Ave', 'Tampa', '33611', 27.90003, -82.49302, {
          dog: 'Large shepherd in the yard on weekdays. Call before opening the gate.',
        }),
      ],
    },
    {
      name: 'Sam Castellano',
      email: 'sam.c@example.com',
      phone: '(813) 555-0109',
      balance: 0,
      locations: [home('18012 Cypress Haven Dr', 'Tampa', '33647', 28.13853, -82.35431, { gateCode: '1122' })],
    },
    {
      name: 'Rita Moreno-Hall',
      phone: '(813) 555-0110',
      balance: 18000,
      locations: [home('10519 Bridlewood Ave', 'Tampa', '33626', 28.05602, -82.61104, { spa: true })],
    },
    {
      name: 'Jamal Price',
      email: 'jamal.price@example.com',
      phone: '(813) 555-0111',
      balance: 0,
      locations: [home('13309 Lake Carroll Way', 'Tampa', '33618', 28.06221, -82.50163)],
    },
    {
      name: 'Lena Fischer',
      phone: '(813) 555-0112',
      balance: 0,
      locations: [
        home('1640 Snell Isle Blvd NE', 'St. Petersburg', '33704', 27.79382, -82.61951, {
          dog: 'Old beagle, harmless, naps by the pool equipment.',
        }),
      ],
    },
    {
      name: 'Victor Huang',
      email: 'victor.huang@example.com',
      phone: '(813) 555-0113',
      balance: 24000,
      locations: [
        home('2120 Coffee Pot Blvd NE', 'St. Petersburg', '33704', 27.79493, -82.62682, {
          spa: true,
          gateCode: '7301',
        }),
      ],
    },
    {
      name: 'Nora Lindqvist',
      phone: '(813) 555-0114',
      balance: 0,
      locations: [home('842 Brightwaters Blvd NE', 'St. Petersburg', '33704', 27.78741, -82.62343)],
    },
    {
      name: 'Carlos Mendez',
      email: 'carlos.mendez@example.com',
      phone: '(813) 555-0115',
      balance: 0,
      locations: [
        home('3915 Shore Acres Blvd NE', 'St. Petersburg', '33703', 27.81472, -82.60671, {
          dog: 'Friendly lab; may try to follow you out.',
        }),
      ],
    },
    {
      name: 'Bianca Rossi',
      phone: '(813) 555-0116',
      balance: 12000,
      locations: [home('2431 Dartmouth Ave N', 'St. Petersburg', '33713', 27.77403, -82.66952)],
    },
    {
      name: 'Derek Osei',
      email: 'derek.osei@example.com',
      phone: '(813) 555-0117',
      balance: 0,
      locations: [
        home('840 Mandalay Ave', 'Clearwater', '33767', 27.98804, -82.82703, {
          gateCode: '0914',
          accessNotes: 'Park on the street; the driveway is shared.',
        }),
      ],
    },
    {
      name: 'Fiona MacLeod',
      phone: '(813) 555-0118',
      balance: 0,
      locations: [home('1502 Druid Rd E', 'Clearwater', '33756', 27.95753, -82.78382)],
    },
    {
      name: 'Isaac Turner',
      email: 'isaac.t@example.com',
      phone: '(813) 555-0119',
      balance: 6000,
      locations: [home('1210 Sedeeva Cir N', 'Clearwater', '33755', 27.97721, -82.78154)],
    },
    {
      name: 'Yuki Tanaka',
      phone: '(813) 555-0120',
      balance: 0,
      locations: [
        home('2707 Sabal Springs Dr', 'Clearwater', '33761', 28.04404, -82.72752, {
          dog: 'Small dog inside; the pool cage door sticks, lift it as you close it.',
        }),
      ],
    },
    {
      name: 'Aisha Rahman',
      email: 'aisha.rahman@example.com',
      phone: '(813) 555-0121',
      balance: 0,
      locations: [home('907 Bryan Rd', 'Brandon', '33511', 27.93523, -82.29304)],
    },
    {
      name: 'Ben Whitaker',
      phone: '(813) 555-0122',
      balance: 30000,
      locations: [home('1725 Dunhill Dr', 'Brandon', '33511', 27.90512, -82.28103, { spa: true })],
    },
    {
      name: 'Sofia Alvarez',
      email: 'sofia.alvarez@example.com',
      phone: '(813) 555-0123',
      balance: 0,
      locations: [home('618 Oakfield Dr', 'Brandon', '33511', 27.92733, -82.30004, { gateCode: '3690' })],
    },
    {
      name: 'Paul Nguyen',
      phone: '(813) 555-0124',
      balance: 0,
      locations: [
        home('2202 Providence Lakes Blvd', 'Brandon', '33511', 27.91604, -82.27702, {
          dog: 'Two rescue dogs in the yard until noon.',
        }),
      ],
    },
    {
      // A landlord: one account, three rental houses.
      name: 'Vance Rental Properties',
      email: 'leasing@vancerentals.example.com',
      phone: '(813) 555-0125',
      balance: 48000,
      billingAddress: '100 N Tampa St, Suite 2200, Tampa, FL 33602',
      notes: 'Tenants change; send reports to the leasing office, not the tenants.',
      locations: [
        home('6210 N Central Ave', 'Tampa', '33604', 28.00302, -82.46103, {
          label: 'Seminole Heights house',
          gateCode: '5150',
          visits: 'every-2-weeks',
        }),
        home('1128 Lakewood Dr', 'Brandon', '33510', 27.95361, -82.29832, {
          label: 'Brandon rental',
          visits: 'every-2-weeks',
        }),
        home('4450 7th Ave N', 'St. Petersburg', '33713', 27.77922, -82.69503, {
          label: 'St. Pete rental',
          accessNotes: 'Lockbox on the back door; code from the leasing office.',
          visits: 'every-2-weeks',
        }),
      ],
    },
    {
      // An HOA: a large community pool and a spa at the clubhouse.
      name: 'Bayshore Palms HOA',
      email: 'board@bayshorepalms.example.com',
      phone: '(813) 555-0126',
      balance: 0,
      billingAddress: 'c/o Gulfview Community Management, 4830 W Kennedy Blvd, Suite 600, Tampa, FL 33609',
      notes: 'Post the chemical log on the clubhouse board after every visit.',
      locations: [
        home('3800 Bayshore Palms Dr', 'Tampa', '33611', 27.89402, -82.48904, {
          label: 'Clubhouse',
          gateCode: '#1957 (clubhouse keypad)',
          accessNotes: 'Equipment room key is in the lockbox by the pool gate. Pool closes at 10 pm.',
          visits: 'twice-weekly',
          bodies: [
            { name: 'Community pool', gallons: 85_000, surface: 'plaster', sanitizer: 'chlorine', indoor: false },
            { name: 'Spa', gallons: 1_500, surface: 'plaster', sanitizer: 'chlorine', indoor: false },
          ],
        }),
      ],
    },
    {
      name: 'Lucia Ferreira',
      email: 'lucia.ferreira@example.com',
      phone: '(813) 555-0127',
      balance: 0,
      locations: [home('2711 W Palmira Ave', 'Tampa', '33629', 27.92702, -82.48931)],
    },
    {
      name: 'Owen Gallagher',
      phone: '(727) 555-0128',
      balance: 9000,
      locations: [home('1645 S Highland Ave', 'Clearwater', '33756', 27.94593, -82.77651, { spa: true })],
    },
    {
      name: 'Rafael Ortiz',
      email: 'rafael.ortiz@example.com',
      phone: '(813) 555-0129',
      balance: 0,
      locations: [home('2011 Rolling Oaks Dr', 'Brandon', '33510', 27.94412, -82.31721, { gateCode: '8008' })],
    },
    {
      name: 'Claire Donovan',
      phone: '(727) 555-0130',
      balance: 0,
      locations: [home('270 Roland Ct NE', 'St. Petersburg', '33701', 27.78023, -82.62902)],
    },
    {
      name: 'Mei Lin',
      email: 'mei.lin@example.com',
      phone: '(813) 555-0131',
      balance: 15000,
      locations: [
        home('20306 Heritage Point Dr', 'Tampa', '33647', 28.15503, -82.34702, {
          dog: 'Husky; very friendly, escapes given the chance.',
        }),
      ],
    },
    {
      name: 'Andrew Kowalski',
      phone: '(813) 555-0132',
      balance: 0,
      locations: [home('12011 Glenmore Dr', 'Tampa', '33626', 28.05881, -82.60623)],
    },
  ],
  staff: [
    { email: 'owner@bluelagoon.test', role: 'owner', fullName: 'Olivia Marsh', phone: '(813) 555-0001' },
    { email: 'office@bluelagoon.test', role: 'admin', fullName: 'Andre Collins', phone: '(813) 555-0002' },
    { email: 'dispatch@bluelagoon.test', role: 'dispatcher', fullName: 'Dina Patel', phone: '(813) 555-0003' },
    {
      email: 'tech@bluelagoon.test',
      role: 'tech',
      fullName: 'Tyler Brooks',
      phone: '(813) 555-0004',
      hourlyCostCents: 2650,
    },
    {
      email: 'tech2@bluelagoon.test',
      role: 'tech',
      fullName: 'Maya Flores',
      phone: '(813) 555-0005',
      hourlyCostCents: 2475,
    },
    {
      email: 'newtech@bluelagoon.test',
      role: 'tech',
      fullName: 'Noah Reed',
      phone: '(813) 555-0006',
      done: false,
      hourlyCostCents: 2400,
    },
  ],
  portalCustomer: { email: 'customer@bluelagoon.test', name: 'Dana Whitfield' },
  inventory: [
    { name: 'Liquid Chlorine 12.5% (1 gal)', sku: 'CHL-LIQ-1G', qty: 48, priceCents: 699, costCents: 389 },
    { name: 'Liquid Chlorine 12.5% (4 × 1 gal case)', sku: 'CHL-LIQ-4PK', qty: 4, priceCents: 2499, costCents: 1479 },
    { name: 'Chlorine Tablets 3" (25 lb)', sku: 'CHL-TAB-25', qty: 12, priceCents: 11999, costCents: 7450 },
    { name: 'Chlorine Tablets 1" (5 lb)', sku: 'CHL-TAB-5', qty: 3, priceCents: 3499, costCents: 2150 },
    { name: 'Cal-Hypo Shock 73% (1 lb)', sku: 'CHL-SHOCK-1', qty: 30, priceCents: 599, costCents: 325 },
    { name: 'Muriatic Acid 31.45% (1 gal)', sku: 'ACID-MUR-1G', qty: 20, priceCents: 1199, costCents: 649 },
    { name: 'Sodium Bicarbonate (50 lb)', sku: 'ALK-BICARB-50', qty: 5, priceCents: 3299, costCents: 1899 },
    { name: 'Cyanuric Acid Stabilizer (4 lb)', sku: 'CYA-4', qty: 9, priceCents: 2799, costCents: 1620 },
    { name: 'Calcium Chloride 77% (25 lb)', sku: 'CAL-CHL-25', qty: 2, priceCents: 2699, costCents: 1540 },
    { name: 'Pool Salt (40 lb)', sku: 'SALT-40', qty: 25, priceCents: 899, costCents: 520 },
    { name: 'Phosphate Remover (1 qt)', sku: 'PHOS-1Q', qty: 7, priceCents: 2899, costCents: 1650 },
    { name: 'DPD Test Reagent Kit', sku: 'TEST-DPD', qty: 1, priceCents: 4599, costCents: 2700 },
    { name: 'Skimmer Basket (standard)', sku: 'PART-SKIM-BSK', qty: 6, priceCents: 1899, costCents: 980 },
    { name: 'Filter Cartridge 100 sq ft', sku: 'PART-CART-100', qty: 0, priceCents: 6499, costCents: 3875 },
  ],
  pastDays: 60,
  futureDays: 30,
  visitsPerDay: 4,
  seed: 20240601,
}

const SUNSET: CompanySpec = {
  name: 'Sunset Pool Care',
  timezone: 'America/Phoenix',
  plan: 'team',
  stripeAccountId: null,
  city: 'Scottsdale',
  state: 'AZ',
  start: { address: '7014 E Camelback Rd, Scottsdale, AZ 85251', lat: 33.50253, lng: -111.92947 },
  routes: {
    areas: [
      { city: 'Scottsdale', zip: '85251', lat: 33.5, lng: -111.925 },
      { city: 'Scottsdale', zip: '85258', lat: 33.565, lng: -111.895 },
      { city: 'Scottsdale', zip: '85260', lat: 33.6, lng: -111.89 },
      { city: 'Scottsdale', zip: '85250', lat: 33.53, lng: -111.92 },
    ],
    areaCode: '480',
    stopsPerDay: 14,
    surnames: 1,
  },
  customers: [
    {
      name: 'Marco Ruiz',
      email: 'customer@sunsetpools.test',
      phone: '(480) 555-0131',
      balance: 9500,
      locations: [home('7415 E Camelback Rd', 'Scottsdale', '85251', 33.50181, -111.92102, { gateCode: '4040' })],
    },
    {
      name: 'Janet Cole',
      phone: '(480) 555-0132',
      balance: 0,
      locations: [home('6820 E Indian School Rd', 'Scottsdale', '85251', 33.49442, -111.93303, { spa: true })],
    },
    {
      name: 'Wes Harmon',
      email: 'wes.harmon@example.com',
      phone: '(480) 555-0133',
      balance: 0,
      locations: [
        home('8302 E Via de Ventura', 'Scottsdale', '85258', 33.55401, -111.89904, {
          dog: 'Desert tortoise in the side yard: close the gate behind you.',
        }),
      ],
    },
    {
      name: 'Ivy Chen',
      phone: '(480) 555-0134',
      balance: 12000,
      locations: [home('10435 N Hayden Rd', 'Scottsdale', '85258', 33.58102, -111.90901)],
    },
    {
      name: 'Luis Ortega',
      phone: '(480) 555-0135',
      balance: 0,
      locations: [home('9015 E Shea Blvd', 'Scottsdale', '85260', 33.58253, -111.88302, { gateCode: '2468' })],
    },
    {
      name: 'Kara Simmons',
      email: 'kara.s@example.com',
      phone: '(480) 555-0136',
      balance: 0,
      locations: [home('5625 N Scottsdale Rd', 'Scottsdale', '85250', 33.51903, -111.92604, { spa: true })],
    },
  ],
  staff: [
    { email: 'owner@sunsetpools.test', role: 'owner', fullName: 'Rosa Delgado', phone: '(480) 555-0011' },
    {
      email: 'tech@sunsetpools.test',
      role: 'tech',
      fullName: 'Eli Warner',
      phone: '(480) 555-0012',
      hourlyCostCents: 2800,
    },
  ],
  portalCustomer: { email: 'customer@sunsetpools.test', name: 'Marco Ruiz' },
  inventory: [
    { name: 'Liquid Chlorine 12.5% (1 gal)', sku: 'SPC-CHL-1G', qty: 15, priceCents: 749, costCents: 415 },
    { name: 'Chlorine Tablets 3" (25 lb)', sku: 'SPC-TAB-25', qty: 3, priceCents: 12499, costCents: 7725 },
    { name: 'Muriatic Acid 31.45% (1 gal)', sku: 'SPC-ACID-1G', qty: 8, priceCents: 1249, costCents: 680 },
    { name: 'Sodium Bicarbonate (25 lb)', sku: 'SPC-BICARB-25', qty: 6, priceCents: 1999, costCents: 1150 },
  ],
  pastDays: 30,
  futureDays: 14,
  visitsPerDay: 2,
  seed: 20240715,
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

/** The pool the end-to-end tests dose against: 15,000 gallons, chlorine, plaster, outdoors. */
const STANDARD_POOL = {
  gallons: 15_000,
  surface: 'plaster',
  sanitizer: 'chlorine',
  indoor: false,
} as const satisfies Partial<typeof bodiesOfWater.$inferInsert>

/** Salt pools and other surfaces: the variety the office sees, kept off the first technician's visits. */
const isShowcasePool = (index: number) => index % 4 === 1 || index % 5 === 4

/** A varied, complete pool profile per demo customer (by position, so it is the same every time). */
function demoPool(index: number): DemoBody {
  const volumes = [15_000, 18_000, 12_000, 22_000, 16_000, 20_000, 14_000, 25_000]
  return {
    name: 'Pool',
    gallons: volumes[index % volumes.length] ?? 15_000,
    surface: index % 3 === 1 ? 'vinyl' : index % 7 === 2 ? 'fiberglass' : 'plaster',
    sanitizer: index % 4 === 1 ? 'salt' : 'chlorine',
    // A screened lanai is still outdoors; one customer has a pool house.
    indoor: index % 9 === 8,
  }
}

/** A spa next to the pool: small, plaster, on the pool's sanitizer. */
function demoSpa(pool: DemoBody, index: number): DemoBody {
  return {
    name: 'Spa',
    gallons: [600, 800, 1_000][index % 3] ?? 800,
    surface: 'plaster',
    sanitizer: pool.sanitizer,
    indoor: false,
  }
}

type Kit = { kind: EquipmentKind; make: string; model: string; serial: string }

const PUMPS: Kit[] = [
  { kind: 'pump', make: 'Pentair', model: 'IntelliFlo VSF 011056', serial: 'IFV' },
  { kind: 'pump', make: 'Hayward', model: 'MaxFlo VS SP2303VSP', serial: 'HMX' },
  { kind: 'pump', make: 'Jandy', model: 'VS FloPro 1.65 HP VSFHP165AUT', serial: 'JFP' },
  { kind: 'pump', make: 'Pentair', model: 'SuperFlo VS 342001', serial: 'PSF' },
]
const FILTERS: Kit[] = [
  { kind: 'filter', make: 'Hayward', model: 'SwimClear C4030 cartridge', serial: 'HSC' },
  { kind: 'filter', make: 'Pentair', model: 'Clean & Clear Plus 420 cartridge', serial: 'PCC' },
  { kind: 'filter', make: 'Jandy', model: 'CV460 cartridge', serial: 'JCV' },
  { kind: 'filter', make: 'Pentair', model: 'Triton II TR60 sand', serial: 'PTR' },
]
const HEATERS: Kit[] = [
  { kind: 'heater', make: 'Jandy', model: 'JXi 400 gas heater JXi400N', serial: 'JXI' },
  { kind: 'heater', make: 'Pentair', model: 'MasterTemp 400 gas heater', serial: 'PMT' },
  { kind: 'heater', make: 'Hayward', model: 'HeatPro HP21404T heat pump', serial: 'HHP' },
]
const SALT_CELLS: Kit[] = [
  { kind: 'chlorinator', make: 'Pentair', model: 'IntelliChlor IC40 salt cell', serial: 'IC4' },
  { kind: 'chlorinator', make: 'Hayward', model: 'AquaRite TurboCell T-CELL-15', serial: 'T15' },
]
const FEEDER: Kit = { kind: 'chlorinator', make: 'Pentair', model: 'Rainbow 320 tablet feeder', serial: 'R32' }
const CLEANERS: Kit[] = [
  { kind: 'cleaner', make: 'Polaris', model: '280 pressure cleaner', serial: 'P28' },
  { kind: 'cleaner', make: 'Polaris', model: 'P965iQ robotic cleaner', serial: 'P96' },
  { kind: 'cleaner', make: 'Hayward', model: 'TigerShark QC robotic cleaner', serial: 'HTS' },
]
const AUTOMATION: Kit[] = [
  { kind: 'automation', make: 'Pentair', model: 'EasyTouch 8', serial: 'PET' },
  { kind: 'automation', make: 'Jandy', model: 'iAquaLink RS-P4', serial: 'JIA' },
  { kind: 'automation', make: 'Hayward', model: 'OmniLogic', serial: 'HOL' },
]

/** The equipment of the n-th body of water: always a pump and filter; the rest as real pools have them. */
function demoEquipment(body: DemoBody, n: number) {
  const pick = <T>(items: readonly T[]) => items[n % items.length] as T
  const kits: Kit[] = [pick(PUMPS), pick(FILTERS)]
  if (body.name === 'Spa' || n % 3 === 0) kits.push(pick(HEATERS))
  if (body.sanitizer === 'salt') kits.push(pick(SALT_CELLS))
  else if (n % 2 === 0) kits.push(FEEDER)
  if (body.name !== 'Spa' && n % 4 !== 3) kits.push(pick(CLEANERS))
  if (n % 5 === 0) kits.push(pick(AUTOMATION))
  return kits.map((kit, i) => ({
    kind: kit.kind,
    make: kit.make,
    model: kit.model,
    serial: `${kit.serial}${String(104_729 * (n + 1) + 7_919 * i).slice(-7)}`,
    // Installed over the last ten years, on a date that is the same every time.
    installedOn: `${2016 + ((n + i) % 9)}-${String(1 + ((n * 5 + i) % 12)).padStart(2, '0')}-${String(1 + ((n * 7 + i * 3) % 28)).padStart(2, '0')}`,
  }))
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
      plan: spec.plan,
      stripeAccountId: spec.stripeAccountId,
      defaultServiceWindow: 'morning',
      customerPortalUrl: null,
      startAddress: spec.start.address,
      startLat: spec.start.lat,
      startLng: spec.start.lng,
    })
    .returning({ id: companies.id })
  if (!company) throw new Error('company insert returned nothing')
  await addDefaultChecklist(tx, company.id)
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
      hourlyCostCents: member.hourlyCostCents ?? null,
    })
    if (member.role === 'tech' && done) techIds.push(id)
  }

  const insertedCustomers = await tx
    .insert(customers)
    .values(
      spec.customers.map((c, i) => ({
        companyId,
        customerName: c.name,
        billingAddress: c.billingAddress ?? null,
        phone: toE164(c.phone),
        email: c.email ?? null,
        notes: c.notes ?? null,
        createdAt: new Date(now.getTime() - (120 - i) * 86_400_000),
      })),
    )
    .returning({ id: customers.id, name: customers.customerName })

  await seedOpeningBalances(tx, companyId, spec, insertedCustomers, now)

  // Locations in customer order, then their bodies of water and equipment, each in one insert.
  const locationSpecs = spec.customers.flatMap((customer, index) =>
    customer.locations.map((location, position) => ({ customer: insertedCustomers[index], index, position, location })),
  )
  const insertedLocations = await tx
    .insert(serviceLocations)
    .values(
      locationSpecs.map(({ customer, index, position, location }, n) => ({
        companyId,
        customerId: customer?.id ?? '',
        label: location.label ?? null,
        street: location.street,
        city: location.city,
        state: spec.state,
        postalCode: location.zip,
        lat: location.lat,
        lng: location.lng,
        gateCode: location.gateCode ?? null,
        accessNotes: [location.dog, location.accessNotes].filter(Boolean).join('\n') || null,
        dogOnSite: Boolean(location.dog),
        // 15 to 60 minutes: a small pool is quick, a pool and spa or a community pool takes longer.
        minutesOnSite: location.bodies ? 60 : location.spa ? 45 : [30, 25, 35, 20, 40, 15][(index + n) % 6],
        position,
        createdAt: new Date(now.getTime() - (120 - index) * 86_400_000),
      })),
    )
    .returning({ id: serviceLocations.id, customerId: serviceLocations.customerId })
  const bodySpecs = locationSpecs.flatMap(({ index, location }, n) => {
    const pool = demoPool(index)
    const bodies = location.bodies ?? (location.spa ? [pool, demoSpa(pool, index)] : [pool])
    return bodies.map((body, position) => ({ locationId: insertedLocations[n]?.id ?? '', body, position }))
  })
  const insertedBodies = await tx
    .insert(bodiesOfWater)
    .values(bodySpecs.map(({ locationId, body, position }) => ({ companyId, locationId, ...body, position })))
    .returning({ id: bodiesOfWater.id, locationId: bodiesOfWater.locationId })
  await tx
    .insert(equipment)
    .values(
      bodySpecs.flatMap(({ body }, n) =>
        demoEquipment(body, n).map((item) => ({ companyId, bodyOfWaterId: insertedBodies[n]?.id ?? '', ...item })),
      ),
    )

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

  const stocked = await tx
    .insert(inventoryItems)
    .values(spec.inventory.map((item) => ({ ...item, companyId })))
    .returning({ id: inventoryItems.id, name: inventoryItems.name, sku: inventoryItems.sku })

  // Service plans: each location's weekday and technician, weekly (a landlord's rentals every two weeks, the HOA's
  // pool twice a week), running since half a year ago.
  const [firstTech, secondTech] = techIds
  const showcaseIds = new Set(insertedCustomers.filter((_, index) => isShowcasePool(index)).map((c) => c.id))
  const startsOn = localDateAt(startOfZonedDay(now, spec.timezone, -182), spec.timezone)
  const planRows = locationSpecs.flatMap(
    ({ customer, index, location }, n): Array<typeof servicePlans.$inferInsert> => {
      const locationId = insertedLocations[n]?.id ?? ''
      const technicianId = (showcaseIds.has(customer?.id ?? '') ? secondTech : firstTech) ?? null
      const weekday = 1 + ((index + n) % 5)
      const base = {
        companyId,
        locationId,
        technicianId,
        startsOn,
        serviceWindow: n % 3 === 0 ? ('afternoon' as const) : ('morning' as const),
      }
      if (location.visits === 'twice-weekly') {
        return [1, 4].map((day) => ({ ...base, weekday: day, rateCents: 32_000, rateType: 'monthly' as const }))
      }
      return [
        {
          ...base,
          weekday,
          frequencyWeeks: location.visits === 'every-2-weeks' ? 2 : 1,
          rateCents: n % 2 === 0 ? 4_500 + (n % 4) * 500 : 16_000 + (n % 3) * 2_000,
          rateType: n % 2 === 0 ? ('per-visit' as const) : ('monthly-plus-chemicals' as const),
        },
      ]
    },
  )
  await tx.insert(servicePlans).values(planRows)

  // Visits: every weekday from pastDays ago to futureDays ahead, at morning and afternoon slots, each at one of the
  // customer's locations. Past visits are completed (a few left open: overdue); some future ones are unassigned;
  // the portal customer gets a visit every week so their history is full.
  const slots = [8, 9, 10, 11, 13, 14, 15]
  const locationsOf = (customerId: string) =>
    locationSpecs.flatMap((locationSpec, n) =>
      locationSpec.customer?.id === customerId
        ? [
            {
              id: insertedLocations[n]?.id ?? '',
              address: formatAddress({
                ...locationSpec.location,
                state: spec.state,
                postalCode: locationSpec.location.zip,
              }),
            },
          ]
        : [],
    )
  // The first technician's open visits become standard pools below; which visits are open depends on the clock,
  // so showcase pools go to the next technician instead, or some clock time would standardize them all.
  const visitRows: Array<typeof visits.$inferInsert> = []
  const nowParts = zonedParts(now, spec.timezone)
  const technicianFor = (picked: string, customerId: string, completed: boolean) =>
    !completed && picked === firstTech && secondTech && showcaseIds.has(customerId) ? secondTech : picked
  for (let offset = -spec.pastDays; offset <= spec.futureDays; offset++) {
    const day = startOfZonedDay(now, spec.timezone, offset)
    const parts = zonedParts(day, spec.timezone)
    // Sundays are days off, except today: the demo always has work to show.
    if (parts.weekday === 0 && offset !== 0) continue
    const count = offset === 0 ? spec.visitsPerDay + 2 : spec.visitsPerDay
    for (let n = 0; n < count; n++) {
      const customer = n === 0 && parts.weekday === 2 ? portal : pick(insertedCustomers)
      const places = locationsOf(customer.id)
      const place = places.length > 1 ? pick(places) : places[0]
      if (!place) throw new Error(`no location for ${customer.name}`)
      const hour = slots[n % slots.length] ?? 9
      const scheduledAt = zonedTimeToUtc(
        { year: parts.year, month: parts.month, day: parts.day, hour, minute: n % 2 ? 30 : 0 },
        spec.timezone,
      )
      const isPast = scheduledAt < now
      const overdue = isPast && random() < 0.06
      const completed = isPast && !overdue && (offset < 0 || hour < nowParts.hour - 1)
      const unassigned = !completed && random() < (offset === 0 ? 0.3 : 0.2)
      visitRows.push({
        companyId,
        customerId: customer.id,
        locationId: place.id,
        customerName: customer.name,
        address: place.address,
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
  const insertedVisits = await tx
    .insert(visits)
    .values(visitRows)
    .returning({ id: visits.id, locationId: visits.locationId, completedAt: visits.completedAt })

  // The pools of the first technician's open visits and the portal customer's are the standard 15,000-gallon
  // chlorine plaster pool that the end-to-end tests dose against (docs/product.md "Demo": the same every time). The
  // pool is a location's first body of water.
  const firstTechId = staffIds.get(spec.staff.find((member) => member.role === 'tech')?.email ?? '')
  const standardLocations = new Set(locationsOf(portal.id).map((place) => place.id))
  for (const visit of visitRows) {
    if (!visit.completedAt && firstTechId && visit.technicianId === firstTechId) standardLocations.add(visit.locationId)
  }
  const firstBodies = bodySpecs.flatMap(({ locationId, position }, n) =>
    position === 0 && standardLocations.has(locationId) ? [insertedBodies[n]?.id ?? ''] : [],
  )
  await tx
    .update(bodiesOfWater)
    .set(STANDARD_POOL)
    .where(and(eq(bodiesOfWater.companyId, companyId), inArray(bodiesOfWater.id, firstBodies)))

  const poolAt = new Map<string, string>()
  for (const [n, { locationId, position }] of bodySpecs.entries()) {
    if (position === 0) poolAt.set(locationId, insertedBodies[n]?.id ?? '')
  }
  const readings: Array<typeof chemLogs.$inferInsert> = []
  // A separate sequence for the optional readings, so adding them did not move any other demo value.
  const extra = prng(spec.seed + 1)
  for (const visit of insertedVisits) {
    if (!visit.completedAt) continue
    const round = (value: number, digits: number) => Number(value.toFixed(digits))
    // About two visits in three had the full kit: stabilizer, hardness and temperature (salt on salt pools is
    // not tracked per visit here, so it is left out).
    const full = extra() < 0.65
    readings.push({
      companyId,
      visitId: visit.id,
      bodyOfWaterId: poolAt.get(visit.locationId) ?? null,
      ph: round(7.1 + random() * 0.8, 1),
      chlorinePpm: round(0.5 + random() * 4.5, 1),
      alkalinity: Math.round(70 + random() * 70),
      cyanuricAcid: full ? Math.round(25 + extra() * 40) : null,
      calciumHardness: full ? Math.round(180 + extra() * 240) : null,
      waterTempF: full ? Math.round(72 + extra() * 16) : null,
      takenAt: new Date(visit.completedAt.getTime() - 10 * 60_000),
    })
  }
  if (readings.length) await tx.insert(chemLogs).values(readings)

  // What a technician already has on a date: one-off visits, and the visits generation will make from the plans above.
  const busy = (technicianId: string, date: LocalDate) =>
    visitRows.filter(
      (visit) => visit.technicianId === technicianId && localDateAt(visit.scheduledAt, spec.timezone) === date,
    ).length +
    planRows.filter(
      (plan) =>
        plan.technicianId === technicianId &&
        isOccurrence(
          {
            frequencyWeeks: (plan.frequencyWeeks ?? 1) as FrequencyWeeks,
            weekday: plan.weekday as IsoWeekday,
            startsOn: plan.startsOn,
            endsOn: null,
          },
          date,
        ),
    ).length
  await seedRoutes(tx, {
    companyId,
    timezone: spec.timezone,
    state: spec.state,
    areaCode: spec.routes.areaCode,
    areas: spec.routes.areas,
    start: { lat: spec.start.lat, lng: spec.start.lng },
    technicians: techIds.map((id) => [id, id === firstTechId] as const),
    stopsPerDay: spec.routes.stopsPerDay,
    busy,
    surnames: spec.routes.surnames,
    now,
    seed: spec.seed + 2,
  })
  // Every completed visit, the routes' too, records what went into the water.
  const completed = await tx
    .select({ id: visits.id, completedAt: visits.completedAt })
    .from(visits)
    .where(and(eq(visits.companyId, companyId), isNotNull(visits.completedAt)))
    .orderBy(visits.completedAt, visits.id)
  await seedChemicalAdditions(tx, companyId, completed, stocked, spec.seed + 3)
  return companyId
}

/** The stock a visit doses from (by SKU): liquid chlorine most visits, acid often, shock or bicarbonate sometimes. */
const DOSES: Array<{ sku: RegExp; chance: number; most: number }> = [
  { sku: /CHL-LIQ-1G$|SPC-CHL-1G$/, chance: 0.85, most: 3 },
  { sku: /ACID-MUR-1G$|SPC-ACID-1G$/, chance: 0.4, most: 1 },
  { sku: /CHL-SHOCK-1$/, chance: 0.2, most: 2 },
  { sku: /ALK-BICARB-50$|SPC-BICARB-25$/, chance: 0.05, most: 1 },
]

/**
 * What went into the water on each completed visit, from the company's stock items (so "Profit per pool" has
 * chemical costs to show). History from before the stock was counted: the items' quantities are left as they are. A
 * sequence of its own, so no other demo value moves.
 */
async function seedChemicalAdditions(
  tx: Tx,
  companyId: string,
  done: ReadonlyArray<{ id: string; completedAt: Date | null }>,
  stocked: ReadonlyArray<{ id: string; name: string; sku: string }>,
  seed: number,
) {
  const random = prng(seed)
  const rows: Array<typeof visitChemicalAdditions.$inferInsert> = []
  for (const visit of done) {
    if (!visit.completedAt) continue
    for (const dose of DOSES) {
      const item = stocked.find((candidate) => dose.sku.test(candidate.sku))
      if (!item || random() >= dose.chance) continue
      rows.push({
        companyId,
        visitId: visit.id,
        inventoryItemId: item.id,
        product: item.name,
        quantity: 1 + Math.floor(random() * dose.most),
        unit: 'each',
        addedAt: new Date(visit.completedAt.getTime() - 5 * 60_000),
      })
    }
  }
  if (rows.length) await tx.insert(visitChemicalAdditions).values(rows)
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
  // unreachable bucket) must not take the demo down with it: the visits simply show no photos.
  try {
    await seedDemoPhotos(database)
  } catch (error) {
    logger.error({ err: error }, 'could not store the demo photos')
  }
  return true
}

/** The demo shows a visit before and after the work. */
type DemoPhotoLabel = 'before' | 'after'

/** Completed visits per company that get demo photos (the newest ones), besides all of the portal customers'. */
export const DEMO_PHOTO_VISITS_PER_COMPANY = 12

/**
 * A pool seen from above, text-free: greenish, cloudy water with leaves before the visit;
 * clear blue water after it. `variant` moves the clouds, leaves and ripples around.
 */
function poolScene(kind: DemoPhotoLabel, variant: number) {
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
let demoPhotos: Promise<Record<DemoPhotoLabel, Array<{ full: Buffer; thumb: Buffer }>>> | undefined

/** The demo images, rendered once per process (rendering is the slow part; storing is cheap). */
function renderDemoPhotos() {
  demoPhotos ??= (async () => {
    const render = async (kind: DemoPhotoLabel, variant: number) => {
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
 * Gives the demo's newest completed visits of each company, and every completed visit of the
 * portal customers (Dana Whitfield, Marco Ruiz), a before and an after photo, stored through
 * the photo storage under the usual keys (visit_photos rows labeled before and after). Visits that already have a
 * photo are left alone, so running it again adds nothing.
 */
export async function seedDemoPhotos(database: Database) {
  const demoCompanies = await database
    .select({ id: companies.id })
    .from(companies)
    .where(inArray(companies.name, [BLUE_LAGOON.name, SUNSET.name]))
  const columns = {
    id: visits.id,
    companyId: visits.companyId,
    completedAt: visits.completedAt,
    technicianId: visits.technicianId,
    // Table names written out: in a one-table select drizzle leaves columns unqualified, which inside the subquery
    // would name visit_photos' own.
    hasPhotos: sql<boolean>`exists (select 1 from "visit_photos" where "visit_photos"."company_id" = "visits"."company_id" and "visit_photos"."visit_id" = "visits"."id")`,
  }
  const recent = await Promise.all(
    demoCompanies.map((company) =>
      database
        .select(columns)
        .from(visits)
        .where(and(eq(visits.companyId, company.id), isNotNull(visits.completedAt)))
        .orderBy(desc(visits.completedAt))
        .limit(DEMO_PHOTO_VISITS_PER_COMPANY),
    ),
  )
  const portalVisits = await database
    .select(columns)
    .from(visits)
    .innerJoin(customers, and(eq(customers.companyId, visits.companyId), eq(customers.id, visits.customerId)))
    .innerJoin(user, eq(user.id, customers.portalUserId))
    .where(
      and(
        inArray(user.email, [BLUE_LAGOON.portalCustomer.email, SUNSET.portalCustomer.email]),
        isNotNull(visits.completedAt),
      ),
    )
  const targets = new Map<string, (typeof portalVisits)[number]>()
  for (const visit of [...recent.flat(), ...portalVisits]) {
    if (!visit.hasPhotos && visit.completedAt) targets.set(visit.id, visit)
  }
  if (targets.size === 0) return 0

  const images = await renderDemoPhotos()
  const list = [...targets.values()]
  // A few at a time: quick on disk, and polite to a remote bucket.
  for (let start = 0; start < list.length; start += 8) {
    await Promise.all(
      list.slice(start, start + 8).map(async (visit, offset) => {
        const index = start + offset
        const completedAt = visit.completedAt ?? new Date()
        const beforeAt = new Date(completedAt.getTime() - 40 * 60_000)
        const beforeKey = photoKey(visit.id, 'before', 'demo-before.jpg', beforeAt)
        const afterKey = photoKey(visit.id, 'after', 'demo-after.jpg', completedAt)
        const before = images.before[index % DEMO_PHOTO_VARIANTS]
        const after = images.after[(index + 1) % DEMO_PHOTO_VARIANTS]
        if (!before || !after) throw new Error('demo photos missing')
        await Promise.all([storePhotoFiles(beforeKey, before), storePhotoFiles(afterKey, after)])
        const taken = { companyId: visit.companyId, visitId: visit.id, takenBy: visit.technicianId }
        await database.insert(visitPhotos).values([
          { ...taken, label: 'before', storageKey: beforeKey, createdAt: beforeAt },
          { ...taken, label: 'after', storageKey: afterKey, createdAt: completedAt },
        ])
      }),
    )
  }
  return list.length
}

/**
 * What the demo customers owed before they came to Pool Bud, as the migration turns a hand-typed balance into an
 * opening-balance invoice (drizzle/0012): sent a month ago, so the larger ones are past due.
 */
async function seedOpeningBalances(
  tx: Database,
  companyId: string,
  spec: CompanySpec,
  inserted: { id: string; name: string }[],
  now: Date,
) {
  const owing = spec.customers.flatMap((c, i) =>
    c.balance > 0 && inserted[i] ? [{ id: inserted[i].id, cents: c.balance }] : [],
  )
  if (owing.length === 0) return
  const issuedOn = localDateAt(startOfZonedDay(now, spec.timezone, -30), spec.timezone)
  const dueOn = localDateAt(startOfZonedDay(now, spec.timezone, -15), spec.timezone)
  const rows = await tx
    .insert(invoices)
    .values(
      owing.map((customer, i) => ({
        companyId,
        customerId: customer.id,
        number: i + 1,
        state: 'sent' as const,
        issuedOn,
        dueOn,
        subtotalCents: customer.cents,
        totalCents: customer.cents,
        sentAt: startOfZonedDay(now, spec.timezone, -30),
      })),
    )
    .returning({ id: invoices.id, totalCents: invoices.totalCents })
  await tx.insert(invoiceLines).values(
    rows.map((row) => ({
      companyId,
      invoiceId: row.id,
      position: 1,
      kind: 'opening-balance' as const,
      description: 'Opening balance',
      quantity: '1',
      unitCents: row.totalCents,
      amountCents: row.totalCents,
    })),
  )
  await tx
    .update(companies)
    .set({ nextInvoiceNumber: rows.length + 1 })
    .where(eq(companies.id, companyId))
}
