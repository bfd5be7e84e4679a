// The permission matrix of docs/product.md "Roles", as one table: every route's loader (GET) and every
// action (POST, each intent) is called as each persona, and the outcome must be exactly the
// one listed. Each route module is called on its own, because a layout's check does not
// protect its children. A route, or an intent declared anywhere under app/ (a route's source, a
// schema, a handler or a form reached from a route), that the table does not list fails the
// completeness tests, so new routes and new intents cannot skip the matrix.
//
// Actions are posted with no fields besides the intent: a persona who passes the gate gets a
// validation answer (or a harmless success), so the matrix changes nothing a later row reads.
import fs from 'node:fs'
import path from 'node:path'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  matchPath,
  type Register,
  RouterContextProvider,
} from 'react-router'
import { beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER } from '~/auth/better-auth.server'
import {
  bodiesOfWater,
  customers,
  equipment,
  inventoryItems,
  invitations,
  invoices,
  priceBookItems,
  profiles,
  quoteLines,
  quotes,
  quoteVersions,
  serviceLocations,
  visitPhotos,
  visits,
  workOrders,
} from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { resetCalendarFeed } from '~/models/calendar-feed.server'
import { addChecklistItem } from '~/models/checklist.server'
import routeConfig from '~/routes'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../helpers/customers'
import { TEST_ORIGIN } from '../helpers/requests'
import { signInAs } from '../helpers/session'
import { useDemoData } from '../helpers/test-database'

const PERSONAS = [
  'anonymous',
  'platformAdmin',
  'owner',
  'admin',
  'dispatcher',
  'tech',
  'otherTech',
  'customer',
  'otherCustomer',
  'otherOwner',
] as const
type Persona = (typeof PERSONAS)[number]

const PERSONA_EMAILS: Record<Exclude<Persona, 'anonymous'>, string> = {
  platformAdmin: 'admin@poolbud.test',
  owner: 'owner@bluelagoon.test',
  admin: 'office@bluelagoon.test',
  dispatcher: 'dispatch@bluelagoon.test',
  tech: 'tech@bluelagoon.test', // assigned to the visit under test
  otherTech: 'tech2@bluelagoon.test', // same company, not assigned to it
  customer: 'customer@bluelagoon.test', // the customer record under test
  otherCustomer: 'second-customer@bluelagoon.test', // another customer of the same company
  otherOwner: 'owner@sunsetpools.test',
}

/**
 * pass: got past the gate (a 2xx, or a 400 validation answer to an empty form);
 * login: redirected to /login; 401: a script told to sign in again; 403: the guard card; 404: as if the record did
 * not exist;
 * 405: the address does not take that method (the API's one-record addresses take PATCH and DELETE, not POST);
 * 409: got past the gate, and the record's state refused the change (it is already finished);
 * `to:/path`: redirected to that path (prefix match).
 */
type Outcome = 'pass' | 'login' | 401 | 403 | 404 | 405 | 409 | `to:${string}`
type Expectations = Record<Persona, Outcome>

type Fixtures = {
  visitId: string
  /** A completed visit of the same customer and technician, with photos. */
  photoVisitId: string
  /** One of that visit's photos. */
  photoId: string
  /** A photo id no visit has (removing it changes nothing for anyone). */
  missingPhotoId: string
  customerId: string
  /** The service location of the visit under test (Dana's pool). */
  locationId: string
  otherCustomerId: string
  /** A customer of the company whom rows may archive and restore. */
  spareCustomerId: string
  itemId: string
  /** A teammate who has not finished setup (an invitation is pending). */
  pendingMemberId: string
  /** An open invitation of another account, which no persona may accept or decline. */
  invitationId: string
  /** The calendar-feed token of a technician no row changes (the rows' "Reset link" would revoke their own). */
  feedToken: string
  /** The technician of the visit under test (their route for a day). */
  technicianId: string
  /** An item added to Blue Lagoon's checklist for the rows to rename, move, remove and restore. */
  checklistItemId: string
  /** Dana's opening-balance invoice (sent, owing). */
  invoiceId: string
  /** A void invoice of the spare customer: "Void invoice" on it changes nothing. */
  voidInvoiceId: string
  /** Dana's approved quote (one version, sent): every change to it is refused, so the rows change nothing. */
  quoteId: string
  /** A Blue Lagoon price book item the rows archive and restore. */
  priceBookItemId: string
  /** The work order of Dana's quote: no visits (so "Complete" is refused) and already invoiced (nothing is made). */
  workOrderId: string
  /** A pump on Dana's pool: its page (history and warranty). */
  equipmentId: string
}

/** A route file of app/routes.ts, relative to app/ (React Router's typegen lists them). */
type RouteFile = Exclude<keyof Register['routeFiles'], 'root.tsx'>

type Case = {
  file: RouteFile
  method: 'GET' | 'POST'
  intent?: string
  path: (f: Fixtures) => string
  /** Form fields besides the intent (ids that name the record under test). */
  fields?: (f: Fixtures) => Record<string, string>
  expect: Expectations
}

/** Builds a row: everyone gets `rest`, except the personas named. */
function outcomes(rest: Outcome, named: Partial<Expectations> = {}): Expectations {
  return Object.fromEntries(PERSONAS.map((p) => [p, named[p] ?? rest])) as Expectations
}

/** The same row, with `pass` answered by a redirect instead (actions that send you on). */
function passBy(row: Expectations, outcome: Outcome): Expectations {
  return Object.fromEntries(PERSONAS.map((p) => [p, row[p] === 'pass' ? outcome : row[p]])) as Expectations
}

const PUBLIC = outcomes('pass')
/** Signed-in pages every staff role may open (platform admins included). */
const ANY_STAFF = outcomes('pass', { anonymous: 'login', customer: 403, otherCustomer: 403 })
/** The app itself: customers are sent to their own portal instead. */
const APP_HOME = { ...ANY_STAFF, customer: 'to:/customer/', otherCustomer: 'to:/customer/' } satisfies Expectations
/** The office: owner, admin, dispatcher of a company (the other company's owner sees their own). */
const OFFICE = outcomes(403, {
  anonymous: 'login',
  owner: 'pass',
  admin: 'pass',
  dispatcher: 'pass',
  otherOwner: 'pass',
})
const OWNER_ADMIN = outcomes(403, { anonymous: 'login', owner: 'pass', admin: 'pass', otherOwner: 'pass' })
/** The staff area: platform admins only. */
const STAFF = outcomes(403, { anonymous: 'login', platformAdmin: 'pass' })
/** One Blue Lagoon visit: office and its technician; the other company gets a 404. */
const VISIT_WORK = outcomes(403, {
  anonymous: 'login',
  owner: 'pass',
  admin: 'pass',
  dispatcher: 'pass',
  tech: 'pass',
  otherTech: 404,
  otherOwner: 404,
})
/**
 * The visit's own work posted by a plain form (a reading, a chemical, a skip…): past the gate for the company's
 * members who work visits, a teammate too. Whether the visit is theirs to change is asked by the change itself
 * (applyFieldChange), as for the phone's queue: a teammate's filled-in form is refused (409,
 * visit-change-paths.test.ts); empty, it is the form's own refusal first.
 */
const VISIT_CHANGE = { ...VISIT_WORK, otherTech: 'pass' } satisfies Expectations
/** Viewing that visit: as above, plus platform admins read-only. */
const VISIT_VIEW = { ...VISIT_WORK, platformAdmin: 'pass' } satisfies Expectations
/** Managing that visit (assign, reschedule): office only. */
const VISIT_MANAGE = outcomes(403, {
  anonymous: 'login',
  owner: 'pass',
  admin: 'pass',
  dispatcher: 'pass',
  otherTech: 404,
  otherOwner: 404,
})
/** The customer portal of one Blue Lagoon customer. */
const PORTAL = outcomes(404, {
  anonymous: 'login',
  owner: 'pass',
  admin: 'pass',
  dispatcher: 'pass',
  customer: 'pass',
})

/** The customer's own actions in the portal: staff who may preview it may not act for the customer. */
const PORTAL_OWN = { ...PORTAL, owner: 403, admin: 403, dispatcher: 403 } satisfies Expectations

/** A technician's own things (the calendar link): only technicians, each their own. */
const TECHNICIAN = outcomes(403, { anonymous: 'login', tech: 'pass', otherTech: 'pass' })

/** Sends each signed-in persona to their own home (customer setup and the trial are not for them). */
const SENDS_HOME = outcomes('to:/app', {
  anonymous: 'login',
  customer: 'to:/customer/',
  otherCustomer: 'to:/customer/',
})

const visitPath = (f: Fixtures) => `/app/visits/${f.visitId}`
/** A technician's route on a day long past with no stops: optimize and reorder answer without changing anything. */
const routePath = (f: Fixtures) => `/app/schedule/${f.technicianId}/2020-01-06`

const CASES: Case[] = [
  // Public pages (the marketing layout's loader only asks whether someone is signed in).
  { file: 'routes/marketing/layout.tsx', method: 'GET', path: () => '/', expect: PUBLIC },
  { file: 'routes/resources/healthz.ts', method: 'GET', path: () => '/healthz', expect: PUBLIC },
  { file: 'routes/not-found.tsx', method: 'GET', path: () => '/no-such-page', expect: outcomes(404) },
  { file: 'routes/not-found.tsx', method: 'POST', path: () => '/no-such-page', expect: outcomes(404) },

  // Sign-in pages: visitors see them; signed-in people are sent where they belong.
  {
    file: 'routes/auth/login.tsx',
    method: 'GET',
    path: () => '/login',
    expect: outcomes('to:/app', { anonymous: 'pass', customer: 'to:/customer/', otherCustomer: 'to:/customer/' }),
  },
  { file: 'routes/auth/login.tsx', method: 'POST', intent: 'login', path: () => '/login', expect: PUBLIC },
  { file: 'routes/auth/login.tsx', method: 'POST', intent: 'signup', path: () => '/login', expect: PUBLIC },
  { file: 'routes/auth/forgot-password.tsx', method: 'POST', path: () => '/forgot-password', expect: PUBLIC },
  { file: 'routes/auth/reset-password.tsx', method: 'GET', path: () => '/reset-password', expect: PUBLIC },
  { file: 'routes/auth/reset-password.tsx', method: 'POST', path: () => '/reset-password', expect: PUBLIC },
  {
    file: 'routes/auth/welcome.tsx',
    method: 'GET',
    path: () => '/welcome',
    expect: outcomes('to:/app', { anonymous: 'login', customer: 'to:/customer/', otherCustomer: 'to:/customer/' }),
  },
  {
    file: 'routes/auth/welcome.tsx',
    method: 'POST',
    path: () => '/welcome',
    expect: outcomes('to:/app', { anonymous: 'login', customer: 'to:/customer/', otherCustomer: 'to:/customer/' }),
  },
  {
    file: 'routes/auth/customer-setup.tsx',
    method: 'GET',
    path: (f) => `/customer-setup?customerId=${f.customerId}`,
    expect: SENDS_HOME,
  },
  {
    file: 'routes/auth/customer-setup.tsx',
    method: 'POST',
    path: (f) => `/customer-setup?customerId=${f.customerId}`,
    expect: SENDS_HOME,
  },

  // The self-serve trial is only for someone signed in without a role; everyone else goes home.
  { file: 'routes/auth/start.tsx', method: 'GET', path: () => '/start', expect: SENDS_HOME },
  { file: 'routes/auth/start.tsx', method: 'POST', path: () => '/start', expect: SENDS_HOME },
  // Accepting an invitation is only for someone who may join a company (no membership, or a trial of their own
  // that nobody else joined); every persona here belongs somewhere and is sent home, deciding nothing.
  { file: 'routes/auth/invitations.tsx', method: 'GET', path: () => '/invitations', expect: SENDS_HOME },
  ...(['accept', 'decline'] as const).map(
    (intent): Case => ({
      file: 'routes/auth/invitations.tsx',
      method: 'POST',
      intent,
      path: () => '/invitations',
      fields: (f) => ({ invitationId: f.invitationId }),
      expect: SENDS_HOME,
    }),
  ),

  // The app shell and dashboard.
  {
    file: 'routes/app/layout.tsx',
    method: 'GET',
    path: () => '/app',
    // The shell sends customers to their portal (the dashboard alone answers with the card).
    expect: APP_HOME,
  },
  { file: 'routes/app/dashboard.tsx', method: 'GET', path: () => '/app', expect: ANY_STAFF },
  { file: 'routes/app/dashboard.tsx', method: 'POST', intent: 'create-visit', path: () => '/app', expect: OFFICE },
  { file: 'routes/app/dashboard.tsx', method: 'POST', intent: 'assign', path: () => '/app', expect: OFFICE },
  { file: 'routes/app/dispatch.tsx', method: 'GET', path: () => '/app/dispatch', expect: OFFICE },
  {
    file: 'routes/app/dispatch.tsx',
    method: 'POST',
    intent: 'create-visit',
    path: () => '/app/dispatch',
    expect: OFFICE,
  },
  { file: 'routes/app/dispatch.tsx', method: 'POST', intent: 'assign', path: () => '/app/dispatch', expect: OFFICE },
  { file: 'routes/app/schedule.tsx', method: 'GET', path: () => '/app/schedule', expect: OFFICE },
  {
    file: 'routes/app/schedule.tsx',
    method: 'POST',
    intent: 'move-visit',
    path: () => '/app/schedule',
    fields: (f) => ({ visitId: f.visitId }),
    expect: OFFICE,
  },
  { file: 'routes/app/account.tsx', method: 'GET', path: () => '/app/account', expect: ANY_STAFF },
  { file: 'routes/app/account.tsx', method: 'POST', path: () => '/app/account', expect: ANY_STAFF },
  {
    file: 'routes/app/account.tsx',
    method: 'POST',
    intent: 'change-password',
    path: () => '/app/account',
    expect: ANY_STAFF,
  },
  ...(['create-feed', 'reset-feed'] as const).map(
    (intent): Case => ({
      file: 'routes/app/account.tsx',
      method: 'POST',
      intent,
      path: () => '/app/account',
      expect: TECHNICIAN,
    }),
  ),
  { file: 'routes/app/customers.tsx', method: 'GET', path: () => '/app/customers', expect: OFFICE },
  { file: 'routes/app/customer-new.tsx', method: 'GET', path: () => '/app/customers/new', expect: OFFICE },
  { file: 'routes/app/customer-new.tsx', method: 'POST', path: () => '/app/customers/new', expect: OFFICE },
  {
    file: 'routes/resources/customer-picker.ts',
    method: 'GET',
    path: () => '/app/customers/picker?q=a',
    expect: OFFICE,
  },
  // The office emails a customer a link to save a card (billing: owner and admin). Without Stripe (as here) the
  // record says "Online payment is not set up"; another company's customer is a 404.
  {
    file: 'routes/app/customer-autopay.ts',
    method: 'POST',
    path: (f) => `/app/customers/${f.customerId}/autopay`,
    expect: passBy({ ...OWNER_ADMIN, otherOwner: 404 }, 'to:/app/customers/'),
  },
  {
    file: 'routes/app/customer-autopay.ts',
    method: 'GET',
    path: (f) => `/app/customers/${f.customerId}/autopay`,
    expect: passBy(OWNER_ADMIN, 'to:/app/customers/'),
  },
  {
    file: 'routes/app/customer.tsx',
    method: 'GET',
    path: (f) => `/app/customers/${f.customerId}`,
    expect: { ...OFFICE, otherOwner: 404 },
  },
  // "Suggest a day and technician" on "Add service plan": the office; another company's location is a 404.
  {
    file: 'routes/app/plan-suggest.tsx',
    method: 'GET',
    path: (f) => `/app/customers/${f.customerId}/locations/${f.locationId}/suggest?frequencyWeeks=1`,
    expect: { ...OFFICE, otherOwner: 404 },
  },
  // Forms posted empty: the office gets the form's errors (400), the other company a 404 before any validation.
  ...(
    [
      'contact',
      'add-location',
      'edit-location',
      'add-equipment',
      'edit-equipment',
      'add-plan',
      'end-plan',
      'edit-plan',
      'pause-plan',
    ] as const
  ).map(
    (intent): Case => ({
      file: 'routes/app/customer.tsx',
      method: 'POST',
      intent,
      path: (f) => `/app/customers/${f.customerId}`,
      expect: { ...OFFICE, otherOwner: 404 },
    }),
  ),
  // Changes to a piece that is not there (no id): 404 for the office too.
  ...(['remove-location', 'add-body', 'edit-body', 'remove-body', 'remove-equipment', 'resume-plan'] as const).map(
    (intent): Case => ({
      file: 'routes/app/customer.tsx',
      method: 'POST',
      intent,
      path: (f) => `/app/customers/${f.customerId}`,
      expect: { ...OFFICE, owner: 404, admin: 404, dispatcher: 404, otherOwner: 404 },
    }),
  ),
  // "Notices by email / by text" posted without a channel: the office gets the form's errors, the other company a 404.
  {
    file: 'routes/app/customer.tsx',
    method: 'POST',
    intent: 'notice-preference',
    path: (f) => `/app/customers/${f.customerId}`,
    expect: { ...OFFICE, otherOwner: 404 },
  },
  // "Record payment" on the record posted empty: owners and admins get the form's errors; dispatchers, who see the
  // customer's billing, do not record money.
  {
    file: 'routes/app/customer.tsx',
    method: 'POST',
    intent: 'record-payment',
    path: (f) => `/app/customers/${f.customerId}`,
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  // Archive and restore a customer kept for it (archiving Dana would end the portal rows' access).
  ...(['archive', 'restore'] as const).map(
    (intent): Case => ({
      file: 'routes/app/customer.tsx',
      method: 'POST',
      intent,
      path: (f) => `/app/customers/${f.spareCustomerId}`,
      expect: passBy({ ...OFFICE, otherOwner: 404 }, 'to:/app/customers/'),
    }),
  ),
  {
    file: 'routes/app/customers.tsx',
    method: 'POST',
    intent: 'invite',
    path: () => '/app/customers',
    fields: (f) => ({ customerId: f.customerId }),
    expect: { ...OFFICE, otherOwner: 404 },
  },
  // Import and export (a preview or import with no upload is a validation answer; uploads are per company).
  { file: 'routes/app/customers-import.tsx', method: 'GET', path: () => '/app/customers/import', expect: OFFICE },
  ...(['upload', 'preview', 'import'] as const).map(
    (intent): Case => ({
      file: 'routes/app/customers-import.tsx',
      method: 'POST',
      intent,
      path: () => '/app/customers/import',
      expect: OFFICE,
    }),
  ),
  {
    file: 'routes/resources/customers-export.ts',
    method: 'GET',
    path: () => '/app/customers/export.csv',
    expect: OFFICE,
  },
  {
    file: 'routes/resources/data-export.ts',
    method: 'GET',
    path: () => '/app/settings/export.zip',
    expect: OWNER_ADMIN,
  },
  // "Export for QuickBooks": owners and admins; the other company's owner gets their own company's month.
  {
    file: 'routes/resources/quickbooks-iif.ts',
    method: 'GET',
    path: () => '/app/billing/quickbooks.iif?month=2026-11',
    expect: OWNER_ADMIN,
  },
  {
    file: 'routes/resources/quickbooks-csv.ts',
    method: 'GET',
    path: () => '/app/billing/quickbooks.csv?month=2026-11',
    expect: OWNER_ADMIN,
  },
  // The print batch of "Send invoices" (customers with no email): owners and admins, each their own company's.
  {
    file: 'routes/resources/invoices-print.ts',
    method: 'GET',
    path: () => '/app/billing/print.pdf?month=2026-11',
    expect: OWNER_ADMIN,
  },
  // "Profit per pool" and its CSV: owners and admins (each company its own pools).
  {
    file: 'routes/app/profit-report.tsx',
    method: 'GET',
    path: () => '/app/reports/profit?sort=revenue&dir=asc',
    expect: OWNER_ADMIN,
  },
  {
    file: 'routes/resources/profit-report-csv.ts',
    method: 'GET',
    path: () => '/app/reports/profit.csv',
    expect: OWNER_ADMIN,
  },
  {
    file: 'routes/app/inventory.tsx',
    method: 'GET',
    path: () => '/app/inventory',
    expect: { ...OFFICE, tech: 'pass', otherTech: 'pass' },
  },
  {
    file: 'routes/app/inventory.tsx',
    method: 'POST',
    intent: 'save',
    path: () => '/app/inventory',
    expect: OWNER_ADMIN,
  },
  {
    file: 'routes/app/inventory.tsx',
    method: 'POST',
    intent: 'adjust',
    path: () => '/app/inventory',
    fields: (f) => ({ itemId: f.itemId }),
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  // Truck stock (issue 33 item 5, decision 060): an item's locations and history for everyone who searches stock;
  // "Transfer", "Receive" and "Count" for owners and admins; another company's item is a 404.
  {
    file: 'routes/app/inventory-item.tsx',
    method: 'GET',
    path: (f) => `/app/inventory/${f.itemId}`,
    expect: { ...OFFICE, tech: 'pass', otherTech: 'pass', otherOwner: 404 },
  },
  ...(['transfer', 'receive', 'count', 'minimum'] as const).map(
    (intent): Case => ({
      file: 'routes/app/inventory-item.tsx',
      method: 'POST',
      intent,
      path: (f) => `/app/inventory/${f.itemId}`,
      expect: { ...OWNER_ADMIN, otherOwner: 404 },
    }),
  ),
  // "My truck": read-only, each member their own (only a technician has a truck).
  {
    file: 'routes/app/truck.tsx',
    method: 'GET',
    path: () => '/app/truck',
    expect: { ...OFFICE, tech: 'pass', otherTech: 'pass' },
  },
  // Settings → "Price book" (issue 33 item 1): owners and admins, each their own company's items.
  {
    file: 'routes/app/settings-price-book.tsx',
    method: 'GET',
    path: () => '/app/settings/price-book',
    expect: OWNER_ADMIN,
  },
  {
    file: 'routes/app/settings-price-book.tsx',
    method: 'POST',
    intent: 'save',
    path: () => '/app/settings/price-book',
    expect: OWNER_ADMIN,
  },
  ...(['archive', 'restore'] as const).map(
    (intent): Case => ({
      file: 'routes/app/settings-price-book.tsx',
      method: 'POST',
      intent,
      path: () => '/app/settings/price-book',
      fields: (f) => ({ itemId: f.priceBookItemId }),
      expect: { ...OWNER_ADMIN, otherOwner: 404 },
    }),
  ),
  // Quotes (issue 33 items 2–3): the office; another company's quote does not exist. "New quote" posted without a
  // customer is the form's refusal. Dana's quote is approved, so its terms and "Send quote" are refused (409) and an
  // empty line is the form's refusal: nothing changes.
  { file: 'routes/app/quotes.tsx', method: 'GET', path: () => '/app/quotes?status=Sent', expect: OFFICE },
  { file: 'routes/app/quotes.tsx', method: 'POST', intent: 'create', path: () => '/app/quotes', expect: OFFICE },
  // "New quote" from an equipment item that is not Dana's (an id no item has): refused as not found for everyone,
  // so nothing is started; the other company does not even have Dana.
  {
    file: 'routes/app/quotes.tsx',
    method: 'POST',
    intent: 'create',
    path: () => '/app/quotes',
    fields: (f) => ({ customerId: f.customerId, equipmentId: f.missingPhotoId }),
    expect: { ...OFFICE, owner: 404, admin: 404, dispatcher: 404, otherOwner: 404 },
  },
  // An equipment item's page (issue 33 item 7): the office that keeps customer records; another company's is a 404.
  {
    file: 'routes/app/equipment.tsx',
    method: 'GET',
    path: (f) => `/app/equipment/${f.equipmentId}`,
    expect: { ...OFFICE, otherOwner: 404 },
  },
  {
    file: 'routes/app/quote.tsx',
    method: 'GET',
    path: (f) => `/app/quotes/${f.quoteId}`,
    expect: { ...OFFICE, otherOwner: 404 },
  },
  {
    file: 'routes/resources/quote-pdf.ts',
    method: 'GET',
    path: (f) => `/app/quotes/${f.quoteId}.pdf`,
    expect: { ...OFFICE, otherOwner: 404 },
  },
  ...(['add-line', 'remove-line', 'mark-approved'] as const).map(
    (intent): Case => ({
      file: 'routes/app/quote.tsx',
      method: 'POST',
      intent,
      path: (f) => `/app/quotes/${f.quoteId}`,
      expect: { ...OFFICE, otherOwner: 404 },
    }),
  ),
  ...(['terms', 'send'] as const).map(
    (intent): Case => ({
      file: 'routes/app/quote.tsx',
      method: 'POST',
      intent,
      path: (f) => `/app/quotes/${f.quoteId}`,
      expect: { ...OFFICE, owner: 409, admin: 409, dispatcher: 409, otherOwner: 404 },
    }),
  ),
  // Work orders (issue 33 items 4 and 6, docs/work-orders.md): the office; another company's is a 404. "Create work
  // order" and "Record deposit" posted empty are the forms' refusals; a deposit is money (owners and admins). The
  // fixture's work order has no visit done ("Complete" is refused) and is invoiced ("Create invoice" answers its
  // invoice), so nothing changes.
  { file: 'routes/app/work-orders.tsx', method: 'GET', path: () => '/app/work-orders?state=open', expect: OFFICE },
  {
    file: 'routes/app/work-order.tsx',
    method: 'GET',
    path: (f) => `/app/work-orders/${f.workOrderId}`,
    expect: { ...OFFICE, otherOwner: 404 },
  },
  {
    file: 'routes/app/work-order.tsx',
    method: 'POST',
    intent: 'complete',
    path: (f) => `/app/work-orders/${f.workOrderId}`,
    expect: { ...OFFICE, owner: 409, admin: 409, dispatcher: 409, otherOwner: 404 },
  },
  {
    file: 'routes/app/work-order.tsx',
    method: 'POST',
    intent: 'create-invoice',
    path: (f) => `/app/work-orders/${f.workOrderId}`,
    expect: { ...OFFICE, owner: 'to:/app/invoices/', admin: 'to:/app/invoices/', dispatcher: 403, otherOwner: 404 },
  },
  {
    file: 'routes/app/quote.tsx',
    method: 'POST',
    intent: 'create-work-order',
    path: (f) => `/app/quotes/${f.quoteId}`,
    expect: { ...OFFICE, otherOwner: 404 },
  },
  {
    file: 'routes/app/quote.tsx',
    method: 'POST',
    intent: 'record-deposit',
    path: (f) => `/app/quotes/${f.quoteId}`,
    expect: { ...OFFICE, dispatcher: 403, otherOwner: 404 },
  },
  // A technician's route for a day: the office of their company; another company's technician does not exist.
  {
    file: 'routes/app/route-day.tsx',
    method: 'GET',
    path: routePath,
    expect: { ...OFFICE, otherOwner: 404 },
  },
  ...(['optimize', 'reorder'] as const).map(
    (intent): Case => ({
      file: 'routes/app/route-day.tsx',
      method: 'POST',
      intent,
      path: routePath,
      expect: { ...OFFICE, otherOwner: 404 },
    }),
  ),
  { file: 'routes/app/settings.tsx', method: 'GET', path: () => '/app/settings', expect: OFFICE },
  // "Change prices" (docs/product.md "Easy to get wrong": owners and admins): posted empty, they get the form's errors
  // and nothing changes ("Undo" without a change: 400).
  { file: 'routes/app/billing-prices.tsx', method: 'GET', path: () => '/app/billing/prices', expect: OWNER_ADMIN },
  ...(['preview', 'apply', 'undo'] as const).map(
    (intent): Case => ({
      file: 'routes/app/billing-prices.tsx',
      method: 'POST',
      intent,
      path: () => '/app/billing/prices',
      expect: OWNER_ADMIN,
    }),
  ),
  // Billing (docs/product.md "Easy to get wrong"): owners and admins; dispatchers see balances on the customer record
  // only.
  { file: 'routes/app/billing.tsx', method: 'GET', path: () => '/app/billing', expect: OWNER_ADMIN },
  {
    file: 'routes/app/invoice.tsx',
    method: 'GET',
    path: (f) => `/app/invoices/${f.invoiceId}`,
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  // "Download PDF": the invoice page's guard.
  {
    file: 'routes/resources/invoice-pdf.ts',
    method: 'GET',
    path: (f) => `/app/invoices/${f.invoiceId}.pdf`,
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  // "Create invoices" and "Send invoices" posted without the month they are for: refused before anything is done.
  ...(['create', 'send'] as const).map(
    (intent): Case => ({
      file: 'routes/app/billing.tsx',
      method: 'POST',
      intent,
      path: () => '/app/billing',
      expect: OWNER_ADMIN,
    }),
  ),
  // "Record payment" posted empty: the form's errors. Sending the sent invoice and voiding the void one: the
  // office gets the refusal, so the matrix changes nothing. Another company's invoice does not exist.
  {
    file: 'routes/app/invoice.tsx',
    method: 'POST',
    intent: 'record-payment',
    path: (f) => `/app/invoices/${f.invoiceId}`,
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  // "Refund" posted without a payment or amount: the form's refusal (nothing reaches Stripe). Owners and admins only.
  {
    file: 'routes/app/invoice.tsx',
    method: 'POST',
    intent: 'refund',
    path: (f) => `/app/invoices/${f.invoiceId}`,
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  // "Void payment" posted without a reason: the refusal (nothing is voided). Whoever may record payments may void them.
  {
    file: 'routes/app/invoice.tsx',
    method: 'POST',
    intent: 'void-payment',
    path: (f) => `/app/invoices/${f.invoiceId}`,
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  {
    file: 'routes/app/invoice.tsx',
    method: 'POST',
    intent: 'send',
    path: (f) => `/app/invoices/${f.invoiceId}`,
    expect: passBy({ ...OWNER_ADMIN, otherOwner: 404 }, 409),
  },
  {
    file: 'routes/app/invoice.tsx',
    method: 'POST',
    intent: 'void',
    path: (f) => `/app/invoices/${f.voidInvoiceId}`,
    expect: passBy({ ...OWNER_ADMIN, otherOwner: 404 }, 409),
  },
  // The draft editor (issue 31 item 1), posted empty to the sent invoice: the form's refusal (400) before anything
  // changes; "Note for customer" and "Re-issue" get past the gate and are refused by the sent invoice's state (409).
  ...(['add-line', 'edit-line', 'remove-line', 'add-discount'] as const).map(
    (intent): Case => ({
      file: 'routes/app/invoice.tsx',
      method: 'POST',
      intent,
      path: (f) => `/app/invoices/${f.invoiceId}`,
      expect: { ...OWNER_ADMIN, otherOwner: 404 },
    }),
  ),
  ...(['save-note', 'reissue'] as const).map(
    (intent): Case => ({
      file: 'routes/app/invoice.tsx',
      method: 'POST',
      intent,
      path: (f) => `/app/invoices/${f.invoiceId}`,
      expect: passBy({ ...OWNER_ADMIN, otherOwner: 404 }, 409),
    }),
  ),
  { file: 'routes/app/team.tsx', method: 'GET', path: () => '/app/team', expect: OWNER_ADMIN },
  { file: 'routes/app/team.tsx', method: 'POST', intent: 'invite', path: () => '/app/team', expect: OWNER_ADMIN },
  {
    file: 'routes/app/team.tsx',
    method: 'POST',
    intent: 'resend',
    path: () => '/app/team',
    fields: (f) => ({ memberId: f.pendingMemberId }),
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  ...(['change-role', 'deactivate', 'reactivate'] as const).map(
    (intent): Case => ({
      file: 'routes/app/team.tsx',
      method: 'POST',
      intent,
      path: () => '/app/team',
      fields: (f) => ({ memberId: f.pendingMemberId, role: 'tech' }),
      expect: { ...OWNER_ADMIN, admin: 403, otherOwner: 404 },
    }),
  ),
  { file: 'routes/app/settings.tsx', method: 'POST', path: () => '/app/settings', expect: OWNER_ADMIN },
  // Settings → "Checklist": owners and admins; another company's item does not exist. In this order, so that the
  // item is still on the checklist for each row before "Remove", and back after "Undo".
  {
    file: 'routes/app/settings.tsx',
    method: 'POST',
    intent: 'checklist-add',
    path: () => '/app/settings',
    expect: OWNER_ADMIN,
  },
  ...(
    [
      ['checklist-rename', { label: 'Matrix spare item' }],
      ['checklist-move', { direction: 'up' }],
      ['checklist-photo', {}],
      ['checklist-remove', {}],
      ['checklist-restore', {}],
    ] as const
  ).map(
    ([intent, fields]): Case => ({
      file: 'routes/app/settings.tsx',
      method: 'POST',
      intent,
      path: () => '/app/settings',
      fields: (f) => ({ itemId: f.checklistItemId, ...fields }),
      expect: { ...OWNER_ADMIN, otherOwner: 404 },
    }),
  ),
  // Settings → "Customer notices" posted empty: owners and admins get the form's errors (quiet hours are required).
  {
    file: 'routes/app/settings.tsx',
    method: 'POST',
    intent: 'notice-settings',
    path: () => '/app/settings',
    expect: OWNER_ADMIN,
  },
  // Settings → "Billing" posted empty: owners and admins get the form's errors (the terms are required).
  {
    file: 'routes/app/settings.tsx',
    method: 'POST',
    intent: 'billing-settings',
    path: () => '/app/settings',
    expect: OWNER_ADMIN,
  },

  // Settings → company logo: owners and admins; posted without a file, the form's error ("Remove logo" with no logo
  // changes nothing).
  ...(['logo-upload', 'logo-remove'] as const).map(
    (intent): Case => ({
      file: 'routes/app/settings.tsx',
      method: 'POST',
      intent,
      path: () => '/app/settings',
      expect: OWNER_ADMIN,
    }),
  ),
  // Settings → "API keys" and "Webhooks" (docs/api.md): owners and admins of the company; posted empty, the form's
  // errors; another company's key or endpoint does not exist.
  {
    file: 'routes/app/settings-api-keys.tsx',
    method: 'GET',
    path: () => '/app/settings/api-keys',
    expect: OWNER_ADMIN,
  },
  ...(['create', 'revoke'] as const).map(
    (intent): Case => ({
      file: 'routes/app/settings-api-keys.tsx',
      method: 'POST',
      intent,
      path: () => '/app/settings/api-keys',
      expect: OWNER_ADMIN,
    }),
  ),
  {
    file: 'routes/app/settings-webhooks.tsx',
    method: 'GET',
    path: () => '/app/settings/webhooks',
    expect: OWNER_ADMIN,
  },
  ...(['add-endpoint', 'endpoint-test', 'endpoint-resend', 'endpoint-enable', 'endpoint-delete'] as const).map(
    (intent): Case => ({
      file: 'routes/app/settings-webhooks.tsx',
      method: 'POST',
      intent,
      path: () => '/app/settings/webhooks',
      expect: OWNER_ADMIN,
    }),
  ),
  // Settings → "Tax rates" (docs/decisions/052-tax-rates.md): the office reads; owners and admins change. "Add rate"
  // and "Save rate" posted empty get the form's errors; "Remove" and "Make default" of no rate are a 404 for them too.
  { file: 'routes/app/settings-tax-rates.tsx', method: 'GET', path: () => '/app/settings/tax-rates', expect: OFFICE },
  ...(['tax-rate-add', 'tax-rate-update'] as const).map(
    (intent): Case => ({
      file: 'routes/app/settings-tax-rates.tsx',
      method: 'POST',
      intent,
      path: () => '/app/settings/tax-rates',
      expect: OWNER_ADMIN,
    }),
  ),
  ...(['tax-rate-remove', 'tax-rate-default'] as const).map(
    (intent): Case => ({
      file: 'routes/app/settings-tax-rates.tsx',
      method: 'POST',
      intent,
      path: () => '/app/settings/tax-rates',
      expect: { ...OWNER_ADMIN, owner: 404, admin: 404, otherOwner: 404 },
    }),
  ),
  // Team → technician (pay, hourly cost, start and end): owners and admins; another company's member does not exist.
  {
    file: 'routes/app/team-member.tsx',
    method: 'GET',
    path: (f) => `/app/team/${f.technicianId}`,
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  {
    file: 'routes/app/team-member.tsx',
    method: 'POST',
    path: (f) => `/app/team/${f.technicianId}`,
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  // "Timesheets" (docs/time.md): owners and admins; another company's technician does not exist. An edit of a day
  // with no start is refused by the model (400); "Reopen week" of a week never approved is a conflict (409); an
  // "Approve week" with no week is refused by its schema. The payroll CSV: each company its own approved weeks.
  { file: 'routes/app/timesheets.tsx', method: 'GET', path: () => '/app/timesheets', expect: OWNER_ADMIN },
  {
    file: 'routes/app/timesheets.tsx',
    method: 'GET',
    path: (f) => `/app/timesheets?technician=${f.technicianId}&week=2020-01-06`,
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  {
    file: 'routes/app/timesheets.tsx',
    method: 'POST',
    intent: 'edit-day',
    path: () => '/app/timesheets',
    fields: (f) => ({ technicianId: f.technicianId, date: '2020-01-06', start: '', end: '09:00', reason: 'Matrix' }),
    expect: { ...OWNER_ADMIN, otherOwner: 404 },
  },
  {
    file: 'routes/app/timesheets.tsx',
    method: 'POST',
    intent: 'approve-week',
    path: () => '/app/timesheets',
    fields: (f) => ({ technicianId: f.technicianId, weekStart: 'not-a-week' }),
    expect: OWNER_ADMIN,
  },
  {
    file: 'routes/app/timesheets.tsx',
    method: 'POST',
    intent: 'reopen-week',
    path: () => '/app/timesheets',
    fields: (f) => ({ technicianId: f.technicianId, weekStart: '2020-01-06', reason: 'Matrix' }),
    expect: { ...OWNER_ADMIN, owner: 409, admin: 409, otherOwner: 404 },
  },
  {
    file: 'routes/resources/payroll-csv.ts',
    method: 'GET',
    path: () => '/app/timesheets/payroll.csv?from=2020-01-06',
    expect: OWNER_ADMIN,
  },
  // The technician's clock (JSON; a form body is refused as unreadable, 400): technicians only; a script is told 401.
  {
    file: 'routes/resources/field-clock.ts',
    method: 'POST',
    path: () => '/app/field/clock',
    expect: outcomes(403, { anonymous: 401, tech: 'pass', otherTech: 'pass' }),
  },
  // "Balance the day" and "Cover this day" (docs/routing.md): the office, on a day long past with no stops; "Apply"
  // and "Undo" posted empty are refused by their schema.
  {
    file: 'routes/app/schedule-balance.tsx',
    method: 'GET',
    path: () => '/app/schedule/balance/2020-01-06',
    expect: OFFICE,
  },
  ...(['apply', 'undo'] as const).map(
    (intent): Case => ({
      file: 'routes/app/schedule-balance.tsx',
      method: 'POST',
      intent,
      path: () => '/app/schedule/balance/2020-01-06',
      expect: OFFICE,
    }),
  ),
  {
    file: 'routes/app/route-cover.tsx',
    method: 'GET',
    path: (f) => `${routePath(f)}/cover`,
    expect: { ...OFFICE, otherOwner: 404 },
  },
  ...(['apply', 'undo'] as const).map(
    (intent): Case => ({
      file: 'routes/app/route-cover.tsx',
      method: 'POST',
      intent,
      path: (f) => `${routePath(f)}/cover`,
      expect: { ...OFFICE, otherOwner: 404 },
    }),
  ),
  // The dispatcher's lists behind their counts ("Unassigned this week", "Overdue", "Skipped this week").
  { file: 'routes/app/visits.tsx', method: 'GET', path: () => '/app/visits?show=overdue', expect: OFFICE },
  // A company's logo is public by its unguessable address (decision 044): an unknown one is a 404 for everyone.
  {
    file: 'routes/resources/company-logo.ts',
    method: 'GET',
    path: () => '/logo/00000000000000000000000000000000.png',
    expect: outcomes(404),
  },
  // The public API (docs/api.md): its document and reference are public; every resource needs an API key, so a
  // browser session — anyone's — is a 401, and an unknown API path is the API's own 404. Each row: the address, and
  // what a POST gets (401 where POST creates; 405 where the record takes PATCH and DELETE instead; null: no action).
  { file: 'routes/marketing/developers.tsx', method: 'GET', path: () => '/developers', expect: PUBLIC },
  { file: 'routes/api/openapi.ts', method: 'GET', path: () => '/api/v1/openapi.json', expect: PUBLIC },
  { file: 'routes/api/not-found.ts', method: 'GET', path: () => '/api/v1/no-such-thing', expect: outcomes(404) },
  { file: 'routes/api/not-found.ts', method: 'POST', path: () => '/api/v1/no-such-thing', expect: outcomes(404) },
  ...(
    [
      ['routes/api/customers.ts', '/api/v1/customers', 401],
      ['routes/api/customer.ts', '/api/v1/customers/00000000-0000-4000-8000-000000000000', 405],
      ['routes/api/visits.ts', '/api/v1/visits', 401],
      ['routes/api/visit.ts', '/api/v1/visits/00000000-0000-4000-8000-000000000000', null],
      ['routes/api/service-plans.ts', '/api/v1/service-plans', null],
      ['routes/api/service-plan.ts', '/api/v1/service-plans/00000000-0000-4000-8000-000000000000', null],
      ['routes/api/invoices.ts', '/api/v1/invoices', null],
      ['routes/api/invoice.ts', '/api/v1/invoices/00000000-0000-4000-8000-000000000000', null],
      ['routes/api/payments.ts', '/api/v1/payments', null],
      ['routes/api/payment.ts', '/api/v1/payments/00000000-0000-4000-8000-000000000000', null],
      ['routes/api/technicians.ts', '/api/v1/technicians', null],
      ['routes/api/technician.ts', '/api/v1/technicians/00000000-0000-4000-8000-000000000000', null],
      ['routes/api/webhook-endpoints.ts', '/api/v1/webhook-endpoints', 401],
      ['routes/api/webhook-endpoint.ts', '/api/v1/webhook-endpoints/00000000-0000-4000-8000-000000000000', 405],
    ] as const
  ).flatMap(([file, path, post]): Case[] => [
    { file, method: 'GET', path: () => path, expect: outcomes(401) },
    ...(post ? [{ file, method: 'POST' as const, path: () => path, expect: outcomes(post) }] : []),
  ]),

  // The platform's staff area: platform admins only, on every page and action.
  { file: 'routes/staff/layout.tsx', method: 'GET', path: () => '/staff', expect: STAFF },
  {
    file: 'routes/staff/index.tsx',
    method: 'GET',
    path: () => '/staff',
    expect: { ...STAFF, platformAdmin: 'to:/staff/setup' },
  },
  { file: 'routes/staff/setup.tsx', method: 'GET', path: () => '/staff/setup', expect: STAFF },
  ...(['invite-owner', 'update-company', 'assign-owner'] as const).map(
    (intent): Case => ({
      file: 'routes/staff/setup.tsx',
      method: 'POST',
      intent,
      path: () => '/staff/setup',
      expect: STAFF,
    }),
  ),

  // One visit, its photos, and the short /visits/:id link.
  { file: 'routes/app/visit.tsx', method: 'GET', path: visitPath, expect: VISIT_VIEW },
  { file: 'routes/app/visit.tsx', method: 'POST', intent: 'reading', path: visitPath, expect: VISIT_CHANGE },
  { file: 'routes/app/visit.tsx', method: 'POST', intent: 'chemical', path: visitPath, expect: VISIT_CHANGE },
  { file: 'routes/app/visit.tsx', method: 'POST', intent: 'assign', path: visitPath, expect: VISIT_MANAGE },
  { file: 'routes/app/visit.tsx', method: 'POST', intent: 'move-visit', path: visitPath, expect: VISIT_MANAGE },
  { file: 'routes/app/visit.tsx', method: 'POST', intent: 'skip-visit', path: visitPath, expect: VISIT_CHANGE },
  // "Record part used" (a work order's visit, docs/work-orders.md): the visit's own technician and the office; posted
  // empty it is the form's refusal.
  { file: 'routes/app/visit.tsx', method: 'POST', intent: 'part-used', path: visitPath, expect: VISIT_WORK },
  // Canceling is asked of the completed photo visit, so the matrix changes nothing: the office gets its refusal.
  {
    file: 'routes/app/visit.tsx',
    method: 'POST',
    intent: 'cancel-visit',
    path: (f) => `/app/visits/${f.photoVisitId}`,
    expect: passBy(VISIT_MANAGE, 409),
  },
  // The visit's own work without JavaScript: an empty checklist (nothing ticked yet, nothing changes) and empty notes,
  // which a teammate may not save on a visit that is not theirs (409).
  {
    file: 'routes/app/visit.tsx',
    method: 'POST',
    intent: 'checklist',
    path: visitPath,
    expect: passBy(VISIT_CHANGE, 'to:/app/visits/'),
  },
  {
    file: 'routes/app/visit.tsx',
    method: 'POST',
    intent: 'notes',
    path: visitPath,
    expect: { ...passBy(VISIT_WORK, 'to:/app/visits/'), otherTech: 409 },
  },
  // Reopening is asked of the open visit, so the matrix changes nothing: the office gets its refusal.
  {
    file: 'routes/app/visit.tsx',
    method: 'POST',
    intent: 'reopen',
    path: visitPath,
    expect: passBy(VISIT_MANAGE, 409),
  },
  {
    file: 'routes/resources/visit-photo.ts',
    method: 'GET',
    path: (f) => `/app/visits/${f.photoVisitId}/photos/${f.photoId}`,
    expect: VISIT_VIEW,
  },
  {
    file: 'routes/resources/visit-photos.ts',
    method: 'POST',
    path: (f) => `/app/visits/${f.visitId}/photos`,
    // No file: back to the visit with 'Choose a photo to upload.' A teammate passes the gate too: a photo queued
    // offline for a visit given to someone else since is refused with that reason (409, visit-photos.test.ts).
    expect: { ...passBy(VISIT_WORK, 'to:/app/visits/'), otherTech: 'to:/app/visits/' },
  },
  // Removing a photo no visit has, on the completed visit: the office is told there is no such photo; its
  // technician, that the visit is completed, and a teammate that it is not theirs (a technician changes only their
  // own open visits); another company, nothing.
  {
    file: 'routes/resources/visit-photo.ts',
    method: 'POST',
    intent: 'remove',
    path: (f) => `/app/visits/${f.photoVisitId}/photos/${f.missingPhotoId}`,
    expect: { ...passBy(VISIT_WORK, 404), tech: 'to:/app/visits/', otherTech: 'to:/app/visits/' },
  },
  // The phone's queued changes (JSON; a form body is refused as unreadable, 400): members who work visits get past
  // the gate — which visit they may change is decided per change (field-changes.test.ts); a script is told 401.
  {
    file: 'routes/resources/field-changes.ts',
    method: 'POST',
    path: () => '/app/field/changes',
    expect: outcomes(403, {
      anonymous: 401,
      owner: 'pass',
      admin: 'pass',
      dispatcher: 'pass',
      tech: 'pass',
      otherTech: 'pass',
      otherOwner: 'pass',
    }),
  },
  // The short link only forwards; the visit page decides.
  {
    file: 'routes/app/visit-redirect.tsx',
    method: 'GET',
    path: (f) => `/visits/${f.visitId}`,
    expect: outcomes('to:/app/visits/', { anonymous: 'login' }),
  },
  // A visit's old addresses only forward, whoever asks (docs/decisions/069-one-word-visit-and-us-spelling.md).
  {
    file: 'routes/old-visit-urls.ts',
    method: 'GET',
    path: (f) => `/app/jobs/${f.visitId}`,
    expect: outcomes(`to:/app/visits/`),
  },
  {
    file: 'routes/old-visit-urls.ts',
    method: 'POST',
    path: (f) => `/app/jobs/${f.visitId}/photos`,
    expect: outcomes(`to:/app/visits/`),
  },

  // The customer portal and its photos.
  { file: 'routes/portal/customer.tsx', method: 'GET', path: (f) => `/customer/${f.customerId}`, expect: PORTAL },
  // The portal's "Notifications": only the customer's own login saves them (docs/decisions/047-customer-times.md).
  {
    file: 'routes/portal/customer.tsx',
    method: 'POST',
    intent: 'notifications',
    path: (f) => `/customer/${f.customerId}`,
    expect: PORTAL_OWN,
  },
  {
    file: 'routes/portal/customer.tsx',
    method: 'GET',
    path: (f) => `/customer/${f.otherCustomerId}`,
    expect: { ...PORTAL, customer: 404, otherCustomer: 'pass' },
  },
  {
    file: 'routes/portal/visit.tsx',
    method: 'GET',
    path: (f) => `/customer/${f.customerId}/visits/${f.photoVisitId}`,
    expect: PORTAL,
  },
  // Card payments from the portal: only the customer's own login (staff previewing are refused); without Stripe (as
  // here) the customer is sent back with "Online payment is not set up".
  {
    file: 'routes/portal/invoice-pay.ts',
    method: 'POST',
    path: (f) => `/customer/${f.customerId}/invoices/${f.invoiceId}/pay`,
    expect: { ...PORTAL_OWN, customer: 'to:/customer/' },
  },
  {
    file: 'routes/portal/invoice-pay.ts',
    method: 'GET',
    path: (f) => `/customer/${f.customerId}/invoices/${f.invoiceId}/pay`,
    expect: passBy(PORTAL, 'to:/customer/'),
  },
  {
    file: 'routes/portal/autopay.ts',
    method: 'POST',
    path: (f) => `/customer/${f.customerId}/autopay`,
    expect: { ...PORTAL_OWN, customer: 'to:/customer/' },
  },
  {
    file: 'routes/portal/autopay.ts',
    method: 'GET',
    path: (f) => `/customer/${f.customerId}/autopay`,
    expect: passBy(PORTAL, 'to:/customer/'),
  },
  {
    file: 'routes/portal/invoice.tsx',
    method: 'GET',
    path: (f) => `/customer/${f.customerId}/invoices/${f.invoiceId}`,
    expect: PORTAL,
  },
  {
    file: 'routes/portal/invoice-pdf.ts',
    method: 'GET',
    path: (f) => `/customer/${f.customerId}/invoices/${f.invoiceId}.pdf`,
    expect: PORTAL,
  },
  // A quote in the portal and its PDF (issue 33 item 2): the customer's own, at the latest version sent.
  {
    file: 'routes/portal/quote.tsx',
    method: 'GET',
    path: (f) => `/customer/${f.customerId}/quotes/${f.quoteId}`,
    expect: PORTAL,
  },
  // "Approve" and "Decline" (issue 33 item 3): only the customer's own login; posted empty, the form's refusal.
  ...(['approve', 'decline'] as const).map(
    (intent): Case => ({
      file: 'routes/portal/quote.tsx',
      method: 'POST',
      intent,
      path: (f) => `/customer/${f.customerId}/quotes/${f.quoteId}`,
      expect: PORTAL_OWN,
    }),
  ),
  // "Pay deposit" (decision 062): only the customer's own login; here Stripe is not set, so the customer is sent
  // back to the quote with the reason. Another customer (or company) gets the 404.
  {
    file: 'routes/portal/quote.tsx',
    method: 'POST',
    intent: 'pay-deposit',
    path: (f) => `/customer/${f.customerId}/quotes/${f.quoteId}`,
    expect: passBy(PORTAL_OWN, 'to:/customer/'),
  },
  {
    file: 'routes/portal/quote-pdf.ts',
    method: 'GET',
    path: (f) => `/customer/${f.customerId}/quotes/${f.quoteId}.pdf`,
    expect: PORTAL,
  },
  {
    file: 'routes/portal/customer-photo.ts',
    method: 'GET',
    path: (f) => `/customer/${f.customerId}/photos/${f.photoVisitId}/${f.photoId}`,
    expect: PORTAL,
  },

  // Live updates: company members only (platform admins' read-only view does not stream).
  {
    file: 'routes/resources/events.ts',
    method: 'GET',
    path: () => '/app/events',
    expect: { ...ANY_STAFF, platformAdmin: 403 },
  },
  // A technician's calendar feed: phones send no session, so the secret URL is the credential, the same for
  // everyone; any other URL is a 404.
  {
    file: 'routes/resources/calendar-feed.ts',
    method: 'GET',
    path: (f) => `/calendar/${f.feedToken}.ics`,
    expect: PUBLIC,
  },
  {
    file: 'routes/resources/calendar-feed.ts',
    method: 'GET',
    path: () => `/calendar/${'A'.repeat(43)}.ics`,
    expect: outcomes(404),
  },
  // Twilio's inbound-text webhook: no session; only Twilio's signature counts (sms-webhook.test.ts). Without Twilio
  // configured (as here) it does not exist for anyone.
  { file: 'routes/resources/sms-webhook.ts', method: 'POST', path: () => '/webhooks/sms', expect: outcomes(404) },
  // Stripe's webhook: no session; only Stripe's signature counts (stripe-webhook.test.ts). Without Stripe configured
  // (as here) it does not exist for anyone.
  { file: 'routes/resources/stripe-webhook.ts', method: 'POST', path: () => '/webhooks/stripe', expect: outcomes(404) },
  // Search-engine files: public, the same for everyone.
  { file: 'routes/resources/sitemap.ts', method: 'GET', path: () => '/sitemap.xml', expect: outcomes('pass') },
  { file: 'routes/resources/robots.ts', method: 'GET', path: () => '/robots.txt', expect: outcomes('pass') },
  // The local mailbox is never shown to a request from the network (tests send no loopback IP).
  { file: 'routes/resources/dev-mailbox.tsx', method: 'GET', path: () => '/dev/mailbox', expect: outcomes(404) },

  // Completing a visit is last but one among visit rows: it changes the visit's state. The first who may (the owner)
  // completes it and goes to the dashboard; the others are told it was already completed, and a teammate that it is
  // not theirs (409), as the phone's queue is.
  {
    file: 'routes/app/visit.tsx',
    method: 'POST',
    intent: 'complete',
    path: visitPath,
    expect: { ...VISIT_WORK, owner: 'to:/app', admin: 409, dispatcher: 409, tech: 409, otherTech: 409 },
  },
  // Logging out is last: it ends the persona's session.
  { file: 'routes/auth/logout.tsx', method: 'GET', path: () => '/logout', expect: outcomes('to:/') },
  { file: 'routes/auth/logout.tsx', method: 'POST', path: () => '/logout', expect: outcomes('to:/') },
]

/** Routes outside the matrix, and why. */
const NOT_IN_MATRIX: Partial<Record<RouteFile, string>> = {
  'routes/resources/auth.ts': "better-auth's own API (sessions, sign-in); its rate limits are tested in login.test.ts",
}

// ---------------------------------------------------------------------------------------------

const routeModules = import.meta.glob<RouteModule>('/app/routes/**/*.{ts,tsx}')
type RouteModule = {
  loader?: (args: LoaderFunctionArgs) => unknown
  action?: (args: ActionFunctionArgs) => unknown
}

type FlatRoute = { file: RouteFile; pattern: string }

/** Every route of app/routes.ts with its full URL pattern. */
function flattenRoutes(entries: RouteConfigEntry[], parent = ''): FlatRoute[] {
  return entries.flatMap((entry) => {
    const pattern = entry.path ? `${parent.replace(/\/$/, '')}/${entry.path}` : parent || '/'
    return [{ file: entry.file as RouteFile, pattern }, ...flattenRoutes(entry.children ?? [], pattern)]
  })
}
const ROUTES = flattenRoutes(routeConfig)

/** What React Router hands `file`'s loader or action for `request`: its params and pattern from app/routes.ts. */
function argsFor(file: RouteFile, request: Request): LoaderFunctionArgs & ActionFunctionArgs {
  const url = new URL(request.url)
  for (const route of ROUTES.filter((r) => r.file === file)) {
    const match = matchPath({ path: route.pattern, end: false }, url.pathname)
    if (match)
      return { request, url, params: match.params, pattern: route.pattern, context: new RouterContextProvider() }
  }
  return { request, url, params: {}, pattern: url.pathname, context: new RouterContextProvider() }
}

function statusOf(value: unknown): number | undefined {
  if (value instanceof Response) return value.status
  const init = (value as { init?: { status?: number } | null } | null)?.init
  if (value && typeof value === 'object' && (value as { type?: string }).type === 'DataWithResponseInit') {
    return init?.status ?? 200
  }
  return undefined
}

function classify(value: unknown, threw: boolean): Outcome | string {
  if (value instanceof Response && value.status >= 300 && value.status < 400) {
    const location = value.headers.get('Location') ?? ''
    return location.startsWith('/login') ? 'login' : `to:${location}`
  }
  const status = statusOf(value)
  if (status === undefined) return threw ? `error: ${String(value)}` : 'pass'
  if (status === 401 || status === 403 || status === 404 || status === 405 || status === 409) return status
  if ((status >= 200 && status < 300) || status === 400) return 'pass'
  return `status ${status}`
}

function matches(actual: Outcome | string, expected: Outcome) {
  if (typeof expected === 'string' && expected.startsWith('to:') && typeof actual === 'string') {
    return actual.startsWith(expected)
  }
  return actual === expected
}

async function run(testCase: Case, fixtures: Fixtures, cookie: string | undefined) {
  const module = await routeModules[`/app/${testCase.file}`]?.()
  const fn = testCase.method === 'GET' ? module?.loader : module?.action
  if (!fn) throw new Error(`${testCase.file} has no ${testCase.method === 'GET' ? 'loader' : 'action'}`)
  const url = new URL(testCase.path(fixtures), TEST_ORIGIN)
  // Requests come from the network, as behind the production server (never a loopback client).
  const headers = new Headers({ [CLIENT_IP_HEADER]: '203.0.113.7', ...(cookie ? { cookie } : {}) })
  let body: URLSearchParams | undefined
  if (testCase.method === 'POST') {
    headers.set('content-type', 'application/x-www-form-urlencoded')
    headers.set('origin', TEST_ORIGIN)
    body = new URLSearchParams({
      ...(testCase.intent ? { intent: testCase.intent } : {}),
      ...testCase.fields?.(fixtures),
    })
  }
  const request = new Request(url, { method: testCase.method, headers, body })
  try {
    const value = await fn(argsFor(testCase.file, request))
    // A streamed answer (live updates) is closed at once; only its status matters here.
    if (value instanceof Response) await value.body?.cancel()
    return classify(value, false)
  } catch (thrown) {
    return classify(thrown, true)
  }
}

/** The intents a route's source reacts to (`intent === 'x'`, `case 'x'`), for the completeness check. */
function intentsInSource(file: string) {
  const source = fs.readFileSync(path.join('app', file), 'utf8')
  const found = new Set<string>()
  for (const match of source.matchAll(/intent(?:'\))? === '([a-z][a-z-]*)'/g)) found.add(match[1] as string)
  for (const match of source.matchAll(/case '([a-z][a-z-]*)':/g)) found.add(match[1] as string)
  return found
}

/**
 * The intents a module declares or reacts to, wherever it sits under app/: `intent === 'x'` (or `!==`), the cases of
 * a `switch (….intent)`, `intent: z.literal('x')`, `intent: z.enum(['x', 'y'])`, an `X_INTENT = 'x'` constant and a
 * form's `name="intent" value="x"` (other switches and strings of such a module are not intents).
 */
function intentsDeclaredIn(source: string) {
  const found = new Set<string>()
  const intent = '([a-z][a-z-]*)'
  for (const pattern of [
    new RegExp(`\\bintent(?:'\\))? [!=]== '${intent}'`, 'g'),
    new RegExp(`\\bintent: z\\.literal\\('${intent}'\\)`, 'g'),
    new RegExp(`\\b[A-Z_]*INTENT = '${intent}'`, 'g'),
    new RegExp(`name="intent"\\s+value="${intent}"`, 'g'),
  ]) {
    for (const match of source.matchAll(pattern)) found.add(match[1] as string)
  }
  for (const list of source.matchAll(/\bintent: z\.enum\(\[([^\]]*)\]/g)) {
    for (const match of (list[1] as string).matchAll(/'([a-z][a-z-]*)'/g)) found.add(match[1] as string)
  }
  for (const start of source.matchAll(/switch \((?:[\w?.]+\.)?intent\) \{/g)) {
    let depth = 0
    let end = start.index
    for (; end < source.length; end++) {
      if (source[end] === '{') depth++
      if (source[end] === '}' && --depth === 0) break
    }
    for (const match of source.slice(start.index, end).matchAll(/case '([a-z][a-z-]*)':/g))
      found.add(match[1] as string)
  }
  return found
}

/** Every module under app/, tests aside, as 'features/x/y.ts'. */
function appModules(folder = 'app'): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name)
    if (entry.isDirectory()) return appModules(full)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path.relative('app', full)] : []
  })
}

/** The app modules `file` imports (`import`, `export … from`, `import()`; by `~/` or a relative path). */
function importsOf(file: string, modules: Set<string>) {
  const source = fs.readFileSync(path.join('app', file), 'utf8')
  const found: string[] = []
  for (const match of source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'([^'?]+)/g)) {
    const specifier = match[1] as string
    const base = specifier.startsWith('~/')
      ? specifier.slice(2)
      : specifier.startsWith('.')
        ? path.join(path.dirname(file), specifier)
        : null
    if (base === null) continue
    const target = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((candidate) =>
      modules.has(candidate),
    )
    if (target) found.push(target)
  }
  return found
}

/** For each module, the route files that reach it through their imports, however many modules lie between. */
function routesReaching(routeFiles: RouteFile[], modules: Set<string>) {
  const importsCache = new Map<string, string[]>()
  const reachedBy = new Map<string, RouteFile[]>()
  for (const route of routeFiles) {
    const seen = new Set<string>([route])
    const queue: string[] = [route]
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      if (!importsCache.has(next)) importsCache.set(next, importsOf(next, modules))
      for (const imported of importsCache.get(next) ?? []) {
        if (seen.has(imported)) continue
        seen.add(imported)
        queue.push(imported)
      }
    }
    for (const module of seen) reachedBy.set(module, [...(reachedBy.get(module) ?? []), route])
  }
  return reachedBy
}

let fixtures: Fixtures
const cookies = new Map<Persona, string | undefined>()

beforeAll(async () => {
  await useDemoData()
  const [blueLagoon] = await db()
    .select({ companyId: profiles.companyId })
    .from(profiles)
    .where(eq(profiles.email, 'owner@bluelagoon.test'))
  const companyId = blueLagoon?.companyId as string
  const [tech] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  const [dana] = await db()
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), isNotNull(customers.portalUserId)))
  // An open visit of this technician that has a before photo, at Dana's pool.
  const [visit] = await db()
    .select({ id: visits.id, locationId: visits.locationId })
    .from(visits)
    .where(
      and(eq(visits.technicianId, tech?.id ?? ''), eq(visits.customerId, dana?.id ?? ''), isNull(visits.completedAt)),
    )
    .limit(1)
  // A second portal login in the same company, for "customer of another record".
  const [other] = await db()
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), isNull(customers.portalUserId)))
    .limit(1)
  await createDemoLogin(db(), {
    email: PERSONA_EMAILS.otherCustomer,
    fullName: 'Second Customer',
    role: 'customer',
    companyId,
  }).then((userId) =>
    db()
      .update(customers)
      .set({ portalUserId: userId })
      .where(eq(customers.id, other?.id ?? '')),
  )
  const [photoVisit] = await db()
    .select({ id: visits.id, photoId: visitPhotos.id })
    .from(visits)
    .innerJoin(visitPhotos, and(eq(visitPhotos.companyId, visits.companyId), eq(visitPhotos.visitId, visits.id)))
    .where(
      and(
        eq(visits.technicianId, tech?.id ?? ''),
        eq(visits.customerId, dana?.id ?? ''),
        isNotNull(visits.completedAt),
      ),
    )
    .limit(1)
  const [item] = await db()
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(eq(inventoryItems.companyId, companyId))
    .limit(1)
  const [pending] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.email, 'newtech@bluelagoon.test'))
  // Someone with an account but no company, invited to Blue Lagoon.
  const joinerId = await createDemoLogin(db(), {
    email: 'joiner@example.com',
    fullName: 'Jo Iner',
    role: null,
    companyId: null,
  })
  const [invitation] = await db()
    .insert(invitations)
    .values({ companyId, userId: joinerId, role: 'tech' })
    .returning({ id: invitations.id })
  // A technician of their own for the calendar feed: the Team rows change the pending member's role and deactivate
  // them, which revokes a calendar link for good (N5).
  const feedTechId = await createDemoLogin(db(), {
    email: 'feed-tech@example.com',
    fullName: 'Feed Tech',
    role: 'tech',
    companyId,
  })
  const feed = await resetCalendarFeed(feedTechId)
  const spareItem = await addChecklistItem({ companyId, label: 'Matrix spare item' })
  const [invoice] = await db()
    .insert(invoices)
    .values({
      companyId,
      customerId: dana?.id ?? '',
      number: 9001,
      state: 'sent',
      issuedOn: '2026-11-01',
      dueOn: '2026-11-16',
      subtotalCents: 5_000,
      totalCents: 5_000,
    })
    .returning({ id: invoices.id })
  fixtures = {
    feedToken: feed.ok ? feed.token : '',
    invitationId: invitation?.id ?? '',
    pendingMemberId: pending?.id ?? '',
    visitId: visit?.id ?? '',
    photoVisitId: photoVisit?.id ?? '',
    photoId: photoVisit?.photoId ?? '',
    missingPhotoId: crypto.randomUUID(),
    customerId: dana?.id ?? '',
    locationId: visit?.locationId ?? '',
    otherCustomerId: other?.id ?? '',
    spareCustomerId: (await addTestCustomer(companyId, { customerName: 'Spare Matrix', address: '1 Spare St' })).id,
    itemId: item?.id ?? '',
    technicianId: tech?.id ?? '',
    checklistItemId: spareItem.ok ? spareItem.item.id : '',
    invoiceId: invoice?.id ?? '',
    voidInvoiceId: '',
    quoteId: '',
    priceBookItemId: '',
    workOrderId: '',
    equipmentId: '',
  }
  const [voided] = await db()
    .insert(invoices)
    .values({
      companyId,
      customerId: fixtures.spareCustomerId,
      number: 9901,
      state: 'void',
      issuedOn: '2026-01-05',
      dueOn: '2026-01-20',
      subtotalCents: 1000,
      totalCents: 1000,
      voidedAt: new Date(),
    })
    .returning({ id: invoices.id })
  fixtures.voidInvoiceId = voided?.id ?? ''
  const [quote] = await db()
    .insert(quotes)
    .values({ companyId, customerId: fixtures.customerId, number: 9001, state: 'approved' })
    .returning({ id: quotes.id })
  const [version] = await db()
    .insert(quoteVersions)
    .values({ companyId, quoteId: quote?.id ?? '', version: 1, sentAt: new Date(), subtotalCents: 0, totalCents: 0 })
    .returning({ id: quoteVersions.id })
  await db()
    .insert(quoteLines)
    .values({
      companyId,
      versionId: version?.id ?? '',
      position: 1,
      description: 'Matrix repair',
      quantityHundredths: 100,
      unitPriceCents: 0,
      amountCents: 0,
    })
  const [priceBookItem] = await db()
    .insert(priceBookItems)
    .values({ companyId, name: 'Matrix part', kind: 'part', priceCents: 100 })
    .returning({ id: priceBookItems.id })
  fixtures.quoteId = quote?.id ?? ''
  fixtures.priceBookItemId = priceBookItem?.id ?? ''
  const [workOrder] = await db()
    .insert(workOrders)
    .values({
      companyId,
      customerId: fixtures.customerId,
      quoteId: fixtures.quoteId,
      quoteVersionId: version?.id ?? '',
      number: 9001,
      invoiceId: fixtures.voidInvoiceId,
    })
    .returning({ id: workOrders.id })
  fixtures.workOrderId = workOrder?.id ?? ''
  const [pool] = await db()
    .select({ id: bodiesOfWater.id })
    .from(bodiesOfWater)
    .where(and(eq(bodiesOfWater.companyId, companyId), eq(bodiesOfWater.locationId, fixtures.locationId)))
    .limit(1)
  const [pump] = await db()
    .insert(equipment)
    .values({ companyId, bodyOfWaterId: pool?.id ?? '', kind: 'pump', make: 'Pentair', warrantyUntil: '2030-01-01' })
    .returning({ id: equipment.id })
  fixtures.equipmentId = pump?.id ?? ''
  expect(Object.values(fixtures).every(Boolean)).toBe(true)
  cookies.set('anonymous', undefined)
  for (const [persona, email] of Object.entries(PERSONA_EMAILS)) cookies.set(persona as Persona, await signInAs(email))
})

describe('permission matrix (docs/product.md "Roles")', () => {
  it('lists every route and every intent of the app', () => {
    const listed = new Set([...CASES.map((c) => c.file), ...Object.keys(NOT_IN_MATRIX)])
    const withHandlers = [...new Set(ROUTES.map((r) => r.file))].filter((file) => {
      const source = fs.readFileSync(path.join('app', file), 'utf8')
      return /export (async )?function (loader|action)\b/.test(source)
    })
    expect(withHandlers.filter((file) => !listed.has(file))).toEqual([])
    for (const file of withHandlers) {
      if (NOT_IN_MATRIX[file]) continue
      const source = fs.readFileSync(path.join('app', file), 'utf8')
      for (const [method, name] of [
        ['GET', 'loader'],
        ['POST', 'action'],
      ] as const) {
        if (new RegExp(`export (async )?function ${name}\\b`).test(source)) {
          expect(
            CASES.some((c) => c.file === file && c.method === method),
            `${method} ${file}`,
          ).toBe(true)
        }
      }
      const missing = [...intentsInSource(file)].filter(
        (intent) => !CASES.some((c) => c.file === file && c.method === 'POST' && c.intent === intent),
      )
      expect(missing, `intents of ${file} missing from the matrix`).toEqual([])
    }
  })

  it('lists every intent declared anywhere under app/, under a route that reaches its module or handles it', () => {
    const routeFiles = [...new Set(ROUTES.map((r) => r.file))]
    const modules = new Set(appModules())
    const reachedBy = routesReaching(routeFiles, modules)
    // A form may post to another route than the page's (a photo's "Remove" posts to the photo's own route): an intent
    // is handled by a route whose own source, or a module it reaches (its schema), declares it.
    const handledBy = new Map(routeFiles.map((route) => [route, new Set(intentsInSource(route))]))
    for (const file of modules) {
      const intents = intentsDeclaredIn(fs.readFileSync(path.join('app', file), 'utf8'))
      for (const route of reachedBy.get(file) ?? []) for (const intent of intents) handledBy.get(route)?.add(intent)
    }
    const declared = new Map<string, Set<string>>()
    const unlisted: string[] = []
    for (const file of modules) {
      const intents = intentsDeclaredIn(fs.readFileSync(path.join('app', file), 'utf8'))
      if (intents.size === 0) continue
      declared.set(file, intents)
      const callers = reachedBy.get(file) ?? []
      for (const intent of intents) {
        const listed = CASES.some(
          (c) =>
            c.method === 'POST' &&
            c.intent === intent &&
            (callers.includes(c.file) || handledBy.get(c.file)?.has(intent)),
        )
        if (!listed) unlisted.push(`${file}: '${intent}' (reached from ${callers.join(', ') || 'no route'})`)
      }
    }
    // The scan finds each way of declaring an intent, in the modules it is meant for …
    expect(declared.get('features/billing/billing-month.ts')).toEqual(new Set(['create', 'send'])) // z.enum
    expect(declared.get('features/schedule/route-order.ts')).toEqual(new Set(['optimize', 'reorder'])) // z.literal
    expect(declared.get('features/visits/create-visit-schema.ts')).toEqual(new Set(['create-visit'])) // a constant
    expect(declared.get('features/settings/checklist-actions.server.ts')).toContain('checklist-move') // a switch
    // … and follows imports through modules: a customer's record reaches "Record payment" through its actions.
    expect(reachedBy.get('features/billing/record-payment.server.ts')).toContain('routes/app/customer.tsx')
    expect(unlisted).toEqual([])
  })

  it('answers every persona exactly as the table says', async () => {
    const mismatches: string[] = []
    for (const testCase of CASES) {
      for (const persona of PERSONAS) {
        const actual = await run(testCase, fixtures, cookies.get(persona))
        const expected = testCase.expect[persona]
        if (!matches(actual, expected)) {
          mismatches.push(
            `${testCase.method} ${testCase.path(fixtures)}${testCase.intent ? ` [${testCase.intent}]` : ''} as ${persona}: expected ${expected}, got ${actual}`,
          )
        }
      }
    }
    expect(mismatches).toEqual([])
  })

  it('gives the gate code to staff of the company only: never to a portal customer, a platform admin or another company', async () => {
    const gateCode = 'GATE-MATRIX-8642'
    const [visit] = await db()
      .select({ locationId: visits.locationId })
      .from(visits)
      .where(eq(visits.id, fixtures.visitId))
    await db()
      .update(serviceLocations)
      .set({ gateCode, accessNotes: 'Matrix access notes' })
      .where(eq(serviceLocations.id, visit?.locationId ?? ''))
    // Every page that shows this visit, its location or its customer, to anyone.
    const pages: { file: RouteFile; path: string }[] = [
      { file: 'routes/app/visit.tsx', path: `/app/visits/${fixtures.visitId}` },
      { file: 'routes/app/dashboard.tsx', path: '/app' },
      { file: 'routes/app/customer.tsx', path: `/app/customers/${fixtures.customerId}` },
      { file: 'routes/portal/customer.tsx', path: `/customer/${fixtures.customerId}` },
      { file: 'routes/portal/visit.tsx', path: `/customer/${fixtures.customerId}/visits/${fixtures.photoVisitId}` },
    ]
    const seen = new Map<Persona, string[]>()
    // Fresh sessions: the matrix above runs every intent, "Change password" (which ends other sessions) among them.
    for (const [persona, email] of Object.entries(PERSONA_EMAILS))
      cookies.set(persona as Persona, await signInAs(email))
    for (const persona of PERSONAS) {
      for (const page of pages) {
        const payload = await loaderPayload(page.file, page.path, cookies.get(persona))
        if (payload.includes(gateCode)) seen.set(persona, [...(seen.get(persona) ?? []), page.path])
      }
    }
    // The office and the visit's technician see it where they work: the visit (and the office the record).
    for (const persona of ['owner', 'admin', 'dispatcher', 'tech'] as const) {
      expect(seen.get(persona), persona).toContain(`/app/visits/${fixtures.visitId}`)
    }
    for (const persona of ['owner', 'admin', 'dispatcher'] as const) {
      expect(seen.get(persona), persona).toContain(`/app/customers/${fixtures.customerId}`)
    }
    for (const persona of ['anonymous', 'platformAdmin', 'customer', 'otherCustomer', 'otherOwner'] as const) {
      expect(seen.get(persona) ?? [], persona).toEqual([])
    }
  })
})

/** Everything a loader answered (or threw) for `path`, as text, to look for a value in. */
async function loaderPayload(file: RouteFile, pathname: string, cookie: string | undefined) {
  const module = await routeModules[`/app/${file}`]?.()
  if (!module?.loader) throw new Error(`${file} has no loader`)
  const url = new URL(pathname, TEST_ORIGIN)
  const headers = new Headers({ [CLIENT_IP_HEADER]: '203.0.113.7', ...(cookie ? { cookie } : {}) })
  let value: unknown
  try {
    value = await module.loader(argsFor(file, new Request(url, { headers })))
  } catch (thrown) {
    value = thrown
  }
  if (value instanceof Response) return value.body ? await value.text() : ''
  return JSON.stringify(value) ?? ''
}
