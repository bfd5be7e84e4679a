// Hostile input (issue #8 §2): random and adversarial strings — huge, unicode, control
// characters, NUL bytes, SQL and HTML fragments — posted to every form action and typed into
// every search box. Each answer must be a clear 4xx or a correct save; never a server error.
import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER } from '~/auth/better-auth.server'
import { companies, customers, inventoryItems, invoices, profiles, visits } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { action as billingAction, loader as billingLoader } from '~/routes/app/billing'
import { action as customerAction } from '~/routes/app/customer'
import { action as addCustomerAction } from '~/routes/app/customer-new'
import { action as customersAction, loader as customersLoader } from '~/routes/app/customers'
import { action as dashboardAction } from '~/routes/app/dashboard'
import { action as inventoryAction, loader as inventoryLoader } from '~/routes/app/inventory'
import { action as invoiceAction } from '~/routes/app/invoice'
import { action as settingsAction } from '~/routes/app/settings'
import { action as teamAction } from '~/routes/app/team'
import { action as visitAction } from '~/routes/app/visit'
import { action as forgotAction } from '~/routes/auth/forgot-password'
import { action as loginAction } from '~/routes/auth/login'
import { action as startAction } from '~/routes/auth/start'
import { loader as pickerLoader } from '~/routes/resources/customer-picker'
import { action as staffAction } from '~/routes/staff/setup'
import { db } from '~/utils/db.server'
import { findTestCustomer } from '../helpers/customers'
import { formRequest, routeArgs, SAME_ORIGIN, TEST_ORIGIN } from '../helpers/requests'
import { signInAs } from '../helpers/session'
import { useDemoData } from '../helpers/test-database'

const ADVERSARIAL = [
  "' OR 1=1 --",
  "'; DROP TABLE customers; --",
  '%',
  '_',
  '\\',
  '%_\\%',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  '\u0000',
  'a\u0000b',
  '\u202eevil',
  '\u200b',
  '𝕡𝕠𝕠𝕝 🏊‍♀️',
  'Zoë Ñúñez',
  '   ',
  '\r\n\t',
  '../../etc/passwd',
  '1e309',
  'NaN',
  'Infinity',
  '-0',
  '0x10',
  '７.２',
  '12.345',
  '-1',
  '99999999999999999999',
  'pk_live_<b>',
  'javascript:alert(1)',
  'a@b',
  'x@example.test',
]

/** One hostile field value. */
const hostile = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ADVERSARIAL) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 200_000 }).map((n) => 'x'.repeat(n)) },
)

/** A form: every field hostile, or sometimes missing. */
function formOf(fields: readonly string[]) {
  return fc.record(Object.fromEntries(fields.map((name) => [name, hostile])), { requiredKeys: [] }) as fc.Arbitrary<
    Record<string, string>
  >
}

type Handler = (args: never) => unknown

function statusOf(value: unknown): number {
  if (value instanceof Response) return value.status
  if (value && typeof value === 'object' && (value as { type?: string }).type === 'DataWithResponseInit') {
    return (value as { init?: { status?: number } | null }).init?.status ?? 200
  }
  return 200
}

/** Calls a loader or action and returns its status; a thrown Error (a would-be 500) fails. */
async function statusFrom(handler: Handler, request: Request, params: Record<string, string> = {}) {
  try {
    return statusOf(await handler(routeArgs(request, params)))
  } catch (thrown) {
    if (thrown instanceof Error) throw new Error(`server error: ${thrown.message}`)
    return statusOf(thrown)
  }
}

let clientCounter = 0
/** A form posted from a client address of its own, so the rate limits stay out of the way of the fuzzing. */
function post(path: string, cookie: string | undefined, fields: Record<string, string>) {
  clientCounter++
  const client = `198.51.${Math.floor(clientCounter / 250) % 250}.${clientCounter % 250}`
  return formRequest(path, fields, cookie, { ...SAME_ORIGIN, [CLIENT_IP_HEADER]: client })
}

const RUNS = { numRuns: 30 }
/** Statuses that tell the user something clear; anything else (a 5xx) is a bug. */
const CLEAR = [200, 201, 204, 302, 303, 400, 404, 409, 413, 422, 429]

let owner: string
let visitId: string
let itemId: string
let customerId: string
let companyId: string

beforeAll(async () => {
  await useDemoData()
  owner = await signInAs('owner@bluelagoon.test')
  const [me] = await db()
    .select({ companyId: profiles.companyId })
    .from(profiles)
    .where(eq(profiles.email, 'owner@bluelagoon.test'))
  companyId = me?.companyId as string
  const [visit] = await db().select({ id: visits.id }).from(visits).where(eq(visits.companyId, companyId)).limit(1)
  const [item] = await db()
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(eq(inventoryItems.companyId, companyId))
    .limit(1)
  const [customer] = await db()
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.companyId, companyId))
    .limit(1)
  visitId = visit?.id as string
  itemId = item?.id as string
  customerId = customer?.id as string
})

describe('NUL characters (PostgreSQL text cannot hold them)', () => {
  it('are dropped from a saved form, which then saves what was meant', async () => {
    const status = await statusFrom(
      addCustomerAction,
      post('/app/customers/new', owner, { customerName: 'Nul\u0000 Tester', 'location.street': '1 Null Way\u0000' }),
    )
    expect(status).toBe(302)
    expect((await findTestCustomer('Nul Tester')).address).toBe('1 Null Way')
  })

  it('are ignored in every search box', async () => {
    const get = (path: string) => new Request(`${TEST_ORIGIN}${path}`, { headers: { cookie: owner } })
    expect(await statusFrom(customersLoader, get('/app/customers?q=a%00b'))).toBe(200)
    expect(await statusFrom(inventoryLoader, get('/app/inventory?q=chlor%00ine'))).toBe(200)
    expect(await statusFrom(pickerLoader, get('/app/customers/picker?q=a%00b'))).toBe(200)
  })

  it('cannot reach an action that reads the raw form (every action uses readForm)', () => {
    const offenders = fs
      .readdirSync('app/routes', { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !file.includes('.test.'))
      .filter((file) => fs.readFileSync(path.join('app/routes', file), 'utf8').includes('request.formData()'))
    expect(offenders).toEqual([])
  })
})

describe('hostile input gets a clear answer, never a server error', () => {
  it('customers: add, invite, and every change on the record; a successful add stores exactly what was typed', async () => {
    await fc.assert(
      fc.asyncProperty(
        formOf(['customerName', 'location.street', 'email', 'phone', 'bodyOfWater.gallons']),
        async (fields) => {
          const status = await statusFrom(addCustomerAction, post('/app/customers/new', owner, fields))
          expect(CLEAR).toContain(status)
          if (status < 400) {
            const name = (fields.customerName ?? '').replaceAll('\u0000', '').trim()
            const rows = await db().select().from(customers).where(eq(customers.customerName, name))
            expect(rows.length, `saved customer named ${JSON.stringify(name)}`).toBeGreaterThan(0)
          }
        },
      ),
      RUNS,
    )
    await fc.assert(
      fc.asyncProperty(formOf(['customerId']), async (fields) => {
        expect(CLEAR).toContain(
          await statusFrom(customersAction, post('/app/customers', owner, { intent: 'invite', ...fields })),
        )
      }),
      RUNS,
    )
    await fc.assert(
      fc.asyncProperty(
        formOf(['customerName', 'street', 'name', 'gallons', 'kind', 'installedOn', 'minutesOnSite', 'lat', 'lng']),
        fc.constantFrom(
          'contact',
          'add-location',
          'edit-location',
          'add-body',
          'edit-body',
          'add-equipment',
          'remove-body',
        ),
        fc.constantFrom(customerId, 'garbage'),
        async (fields, intent, target) => {
          const status = await statusFrom(
            customerAction,
            post(`/app/customers/${target}`, owner, { intent, targetId: fields.name ?? '', ...fields }),
            { customerId: target },
          )
          expect(CLEAR).toContain(status)
        },
      ),
      RUNS,
    )
  })

  it('billing: create and send a month, record a payment on an invoice and on the record; the page’s filters', async () => {
    const [invoice] = await db()
      .select({ id: invoices.id, customerId: invoices.customerId })
      .from(invoices)
      .where(eq(invoices.companyId, companyId))
      .limit(1)
    const invoiceId = invoice?.id as string
    await fc.assert(
      fc.asyncProperty(formOf(['month']), fc.constantFrom('create', 'send', 'other'), async (fields, intent) => {
        expect(CLEAR).toContain(await statusFrom(billingAction, post('/app/billing', owner, { intent, ...fields })))
      }),
      RUNS,
    )
    await fc.assert(
      fc.asyncProperty(
        formOf(['amount', 'receivedOn', 'method', 'reference', 'appliesTo', 'idempotencyKey']),
        fc.constantFrom(invoiceId, 'garbage'),
        async (fields, target) => {
          const status = await statusFrom(
            invoiceAction,
            post(`/app/invoices/${target}`, owner, { intent: 'record-payment', ...fields }),
            { invoiceId: target },
          )
          expect(CLEAR).toContain(status)
          const onRecord = await statusFrom(
            customerAction,
            post(`/app/customers/${invoice?.customerId}`, owner, { intent: 'record-payment', ...fields }),
            { customerId: invoice?.customerId as string },
          )
          expect(CLEAR).toContain(onRecord)
        },
      ),
      RUNS,
    )
    await fc.assert(
      fc.asyncProperty(formOf(['month', 'status', 'customer', 'page', 'preview', 'confirm']), async (fields) => {
        const search = new URLSearchParams(fields).toString()
        const request = new Request(`${TEST_ORIGIN}/app/billing?${search}`, { headers: { cookie: owner } })
        expect(CLEAR).toContain(await statusFrom(billingLoader, request))
      }),
      RUNS,
    )
  })

  it('inventory: save and adjust; a successful save stores exactly what was typed', async () => {
    await fc.assert(
      fc.asyncProperty(
        formOf(['name', 'sku', 'price', 'qty', 'change', 'reason']),
        fc.constantFrom('save', 'adjust'),
        fc.boolean(),
        async (fields, intent, existing) => {
          const status = await statusFrom(
            inventoryAction,
            post('/app/inventory', owner, { intent, ...fields, ...(existing ? { itemId } : {}) }),
          )
          expect(CLEAR).toContain(status)
          if (intent === 'save' && status < 400) {
            const rows = await db()
              .select()
              .from(inventoryItems)
              .where(eq(inventoryItems.sku, (fields.sku ?? '').replaceAll('\u0000', '').trim()))
            expect(rows.length).toBeGreaterThan(0)
          }
        },
      ),
      RUNS,
    )
  })

  it('settings: save', async () => {
    await fc.assert(
      fc.asyncProperty(
        formOf(['name', 'timezone', 'defaultServiceWindow', 'cardPublishableKey', 'customerPortalUrl']),
        async (fields) => {
          expect(CLEAR).toContain(await statusFrom(settingsAction, post('/app/settings', owner, fields)))
        },
      ),
      RUNS,
    )
    // Whatever was accepted, the company still has a usable name and timezone.
    const [company] = await db().select().from(companies).where(eq(companies.id, companyId))
    expect(company?.name.trim()).not.toBe('')
    expect(company?.name).not.toContain('\u0000')
  })

  it('dashboard: create a visit and assign one', async () => {
    await fc.assert(
      fc.asyncProperty(
        formOf(['customerId', 'customerName', 'address', 'scheduledAt', 'technicianId', 'visitId']),
        fc.constantFrom('create-visit', 'assign'),
        async (fields, intent) => {
          expect(CLEAR).toContain(await statusFrom(dashboardAction, post('/app', owner, { intent, ...fields })))
        },
      ),
      RUNS,
    )
  })

  it('visit page: readings and assignment', async () => {
    await fc.assert(
      fc.asyncProperty(
        formOf(['ph', 'chlorinePpm', 'alkalinity', 'technicianId', 'scheduledAt']),
        fc.constantFrom('reading', 'assign'),
        async (fields, intent) => {
          const status = await statusFrom(visitAction, post(`/app/visits/${visitId}`, owner, { intent, ...fields }), {
            visitId,
          })
          expect(CLEAR).toContain(status)
        },
      ),
      RUNS,
    )
  })

  it('login, sign-up and forgot-password', async () => {
    await fc.assert(
      fc.asyncProperty(
        formOf(['email', 'password', 'confirmPassword']),
        fc.constantFrom('login', 'signup', 'forgot'),
        async (fields, intent) => {
          const status =
            intent === 'forgot'
              ? await statusFrom(forgotAction, post('/forgot-password', undefined, fields))
              : await statusFrom(loginAction, post('/login', undefined, { intent, ...fields }))
          expect(CLEAR).toContain(status)
        },
      ),
      RUNS,
    )
  })

  it('team: invite, resend, change role, deactivate', async () => {
    await fc.assert(
      fc.asyncProperty(
        formOf(['role', 'fullName', 'email', 'phone', 'memberId']),
        fc.constantFrom('invite', 'resend', 'change-role', 'deactivate', 'reactivate'),
        async (fields, intent) => {
          expect(CLEAR).toContain(await statusFrom(teamAction, post('/app/team', owner, { intent, ...fields })))
        },
      ),
      RUNS,
    )
  })

  it('staff: invite an owner, edit a company, assign an owner', async () => {
    const platformAdmin = await signInAs('admin@poolbud.test')
    await fc.assert(
      fc.asyncProperty(
        formOf([
          'mode',
          'companyId',
          'companyName',
          'stripeAccountId',
          'fullName',
          'email',
          'phone',
          'name',
          'profileId',
        ]),
        fc.constantFrom('invite-owner', 'update-company', 'assign-owner'),
        async (fields, intent) => {
          const status = await statusFrom(staffAction, post('/staff/setup', platformAdmin, { intent, ...fields }))
          expect(CLEAR).toContain(status)
        },
      ),
      RUNS,
    )
  })

  it('trial: start a company', async () => {
    await createDemoLogin(db(), { email: 'hostile.trial@example.com', fullName: 'H', role: null, companyId: null })
    const roleless = await signInAs('hostile.trial@example.com')
    await fc.assert(
      fc.asyncProperty(formOf(['companyName', 'timezone']), async (fields) => {
        const status = await statusFrom(startAction, post('/start', roleless, fields))
        expect(CLEAR).toContain(status)
      }),
      { numRuns: 10 },
    )
  })

  it('search boxes: customers, inventory and the visit form’s customer picker', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (query) => {
        const q = encodeURIComponent(query)
        const get = (path: string) => new Request(`${TEST_ORIGIN}${path}`, { headers: { cookie: owner } })
        expect(CLEAR).toContain(await statusFrom(customersLoader, get(`/app/customers?q=${q}`)))
        expect(CLEAR).toContain(await statusFrom(inventoryLoader, get(`/app/inventory?q=${q}`)))
        expect(CLEAR).toContain(await statusFrom(pickerLoader, get(`/app/customers/picker?q=${q}`)))
      }),
      RUNS,
    )
  })
})
