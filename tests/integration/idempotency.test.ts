// Fault drill #3: a create or a reading sent again with the same idempotency key (a retry after a dropped
// connection, the offline app replaying its queue) is written once, and every copy is told it succeeded. Each form
// that creates or records is posted through its real route action, as the signed-in user's browser would.
import { randomUUID } from 'node:crypto'
import { and, count, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  chemLogs,
  companies,
  customers,
  emailOutbox,
  idempotencyKeys,
  inventoryItems,
  profiles,
  serviceLocations,
  visitChemicalAdditions,
  visits,
} from '~/db/schema'
import { KEY_REUSED, MALFORMED_KEY, requestHash } from '~/models/idempotency.server'
import { action as addCustomerAction } from '~/routes/app/customer-new'
import { action as dashboardAction } from '~/routes/app/dashboard'
import { action as inventoryAction } from '~/routes/app/inventory'
import { action as visitAction } from '~/routes/app/visit'
import { CHEMICAL_MESSAGES } from '~/utils/chemicals'
import { db } from '~/utils/db.server'
import { formRequest } from '../helpers/requests'
import { signInAs } from '../helpers/session'
import { useDemoData } from '../helpers/test-database'

type Company = 'blue' | 'sunset'
type Setup = { id: string; cookie: string; visitId: string; customerId: string; stockId: string }
const companiesUnderTest = {} as Record<Company, Setup>

const STOCK_START = 1_000

/** An action's answer as the browser gets it: a status, and the reply's data (null for a redirect). */
type Answer = { status: number; body: Record<string, unknown> | null; location: string | null }

function answerOf(result: unknown): Answer {
  if (result instanceof Response) return { status: result.status, body: null, location: result.headers.get('Location') }
  const value = result as { type?: string; data?: Record<string, unknown>; init?: { status?: number } | null }
  if (value?.type === 'DataWithResponseInit') {
    return { status: value.init?.status ?? 200, body: value.data ?? null, location: null }
  }
  return { status: 200, body: result as Record<string, unknown>, location: null }
}

/** The form errors of a Conform reply, or the dashboard's `error`. */
function messagesOf(answer: Answer) {
  const body = answer.body as { error?: unknown; result?: { error?: Record<string, string[] | null> } } | null
  if (typeof body?.error === 'string') return [body.error]
  return Object.values(body?.result?.error ?? {})
    .flat()
    .filter(Boolean)
}

/**
 * One form that creates or records: how its company's user posts it (`tag` names one filled-in form), how many
 * rows it has written, and whether an answer says it succeeded.
 */
type FormCase = {
  name: string
  submit: (company: Company, fields: Record<string, string>) => Promise<unknown>
  fields: (company: Company, tag: string) => Record<string, string>
  rows: (company: Company) => Promise<number>
  succeeded: (answer: Answer) => boolean
  /** The same form with something else typed in it (what a reused key must not be answered for). */
  otherwise: (fields: Record<string, string>) => Record<string, string>
  /** What must still hold however many copies were sent (e.g. stock taken once per recorded addition). */
  consistent?: (company: Company) => Promise<void>
}

const onCompany = (company: Company) => companiesUnderTest[company]

async function countRows(query: Promise<Array<{ n: number }>>) {
  const [row] = await query
  return row?.n ?? 0
}

const FORMS: FormCase[] = [
  {
    name: 'create visit (dispatch board)',
    submit: (company, fields) =>
      dashboardAction({
        request: formRequest('/app', fields, onCompany(company).cookie),
        params: {},
        context: {},
      } as never),
    fields: (company, tag) => ({
      intent: 'create-visit',
      customerId: onCompany(company).customerId,
      customerName: `Idempotent ${tag}`,
      address: '1 Retry Lane',
      scheduledAt: '2026-12-03T09:00',
      technicianId: '',
    }),
    rows: (company) =>
      countRows(
        db()
          .select({ n: count() })
          .from(visits)
          .where(and(eq(visits.companyId, onCompany(company).id), eq(visits.address, '1 Retry Lane'))),
      ),
    succeeded: (answer) =>
      answer.status === 200 && answer.body?.ok === 'Visit created.' && Boolean(answer.body?.visitId),
    otherwise: (fields) => ({ ...fields, scheduledAt: '2026-12-04T10:00' }),
  },
  {
    name: 'save a chemistry reading (visit page)',
    submit: (company, fields) =>
      visitAction({
        request: formRequest(`/app/visits/${onCompany(company).visitId}`, fields, onCompany(company).cookie),
        params: { visitId: onCompany(company).visitId },
        context: {},
      } as never),
    fields: () => ({ intent: 'reading', ph: '7.4', chlorinePpm: '3', alkalinity: '90' }),
    rows: (company) =>
      countRows(
        db()
          .select({ n: count() })
          .from(chemLogs)
          .where(eq(chemLogs.visitId, onCompany(company).visitId)),
      ),
    succeeded: (answer) => answer.status === 200 && answer.body?.ok === 'Readings saved.',
    otherwise: (fields) => ({ ...fields, ph: '7.8' }),
  },
  {
    name: 'add a chemical from stock (visit page)',
    submit: (company, fields) =>
      visitAction({
        request: formRequest(`/app/visits/${onCompany(company).visitId}`, fields, onCompany(company).cookie),
        params: { visitId: onCompany(company).visitId },
        context: {},
      } as never),
    fields: (company) => ({ intent: 'chemical', inventoryItemId: onCompany(company).stockId, quantity: '1' }),
    rows: (company) =>
      countRows(
        db()
          .select({ n: count() })
          .from(visitChemicalAdditions)
          .where(eq(visitChemicalAdditions.inventoryItemId, onCompany(company).stockId)),
      ),
    succeeded: (answer) => answer.status === 200 && answer.body?.ok === CHEMICAL_MESSAGES.saved,
    otherwise: (fields) => ({ ...fields, quantity: '2' }),
    consistent: async (company) => {
      // Stock went down once per recorded addition, never for a replay.
      const [item] = await db()
        .select({ qty: inventoryItems.qty })
        .from(inventoryItems)
        .where(eq(inventoryItems.id, onCompany(company).stockId))
      const additions = await FORMS[2]?.rows(company)
      expect(item?.qty).toBe(STOCK_START - (additions ?? 0))
    },
  },
  {
    name: 'add customer (with an email: the portal invite goes once)',
    // A save redirects to the new record with its message (a thrown redirect).
    submit: (company, fields) =>
      addCustomerAction({
        request: formRequest('/app/customers/new', fields, onCompany(company).cookie),
        params: {},
        context: {},
      } as never).catch((thrown: unknown) => {
        if (thrown instanceof Response) return thrown
        throw thrown
      }),
    fields: (company, tag) => ({
      customerName: `Idempotent ${tag}`,
      'location.street': '2 Retry Lane',
      email: `idem-${company}-${tag}@example.test`.toLowerCase(),
    }),
    rows: (company) =>
      countRows(
        db()
          .select({ n: count() })
          .from(customers)
          .innerJoin(serviceLocations, eq(serviceLocations.customerId, customers.id))
          .where(and(eq(customers.companyId, onCompany(company).id), eq(serviceLocations.street, '2 Retry Lane'))),
      ),
    succeeded: (answer) => answer.status === 302 && answer.location?.startsWith('/app/customers/') === true,
    otherwise: (fields) => ({ ...fields, customerName: `${fields.customerName} Jr.` }),
    consistent: async (company) => {
      // One invitation email per customer created, however many copies of the form arrived.
      const created = await db()
        .select({ email: customers.email })
        .from(customers)
        .innerJoin(serviceLocations, eq(serviceLocations.customerId, customers.id))
        .where(and(eq(customers.companyId, onCompany(company).id), eq(serviceLocations.street, '2 Retry Lane')))
      for (const { email } of created) {
        const invites = await countRows(
          db()
            .select({ n: count() })
            .from(emailOutbox)
            .where(eq(emailOutbox.to, email ?? '')),
        )
        expect(invites, `invitations to ${email}`).toBe(1)
      }
    },
  },
  {
    name: 'add inventory item',
    submit: (company, fields) =>
      inventoryAction({
        request: formRequest('/app/inventory', fields, onCompany(company).cookie),
        params: {},
        context: {},
      } as never),
    fields: (_company, tag) => ({ intent: 'save', name: 'Retry tabs', sku: `RETRY-${tag}`, price: '9.99', qty: '4' }),
    rows: (company) =>
      countRows(
        db()
          .select({ n: count() })
          .from(inventoryItems)
          .where(and(eq(inventoryItems.companyId, onCompany(company).id), eq(inventoryItems.name, 'Retry tabs'))),
      ),
    succeeded: (answer) => answer.status === 200 && answer.body?.ok === true && answer.body?.message === 'Item saved.',
    otherwise: (fields) => ({ ...fields, qty: '5' }),
  },
]

async function setUp(company: Company, companyName: string, owner: string): Promise<Setup> {
  const [row] = await db().select({ id: companies.id }).from(companies).where(eq(companies.name, companyName))
  const id = row?.id as string
  const [customer] = await db().select({ id: customers.id }).from(customers).where(eq(customers.companyId, id)).limit(1)
  const [visit] = await db()
    .select({ id: visits.id })
    .from(visits)
    .where(and(eq(visits.companyId, id), isNull(visits.completedAt)))
    .limit(1)
  const [stock] = await db()
    .insert(inventoryItems)
    .values({ companyId: id, name: 'Idempotency test tabs', sku: `IDEM-${company}`, qty: STOCK_START, priceCents: 100 })
    .returning({ id: inventoryItems.id })
  return {
    id,
    cookie: await signInAs(owner),
    visitId: visit?.id as string,
    customerId: customer?.id as string,
    stockId: stock?.id as string,
  }
}

let tags = 0
const nextTag = () => `t${++tags}`

beforeAll(async () => {
  await useDemoData()
  companiesUnderTest.blue = await setUp('blue', 'Blue Lagoon Pool Co.', 'owner@bluelagoon.test')
  companiesUnderTest.sunset = await setUp('sunset', 'Sunset Pool Care', 'owner@sunsetpools.test')
  // Every user above is an owner of their company (the role that may use all five forms).
  const owners = await db()
    .select({ role: profiles.role })
    .from(profiles)
    .where(eq(profiles.email, 'owner@sunsetpools.test'))
  expect(owners).toEqual([{ role: 'owner' }])
})

describe.each(FORMS)('$name', (form) => {
  it('posted twice with the same key: one row, both answers report success; another key makes another row', async () => {
    const before = await form.rows('blue')
    const fields = { ...form.fields('blue', nextTag()), idempotencyKey: randomUUID() }
    const first = answerOf(await form.submit('blue', fields))
    const second = answerOf(await form.submit('blue', fields))
    expect(form.succeeded(first), JSON.stringify(first)).toBe(true)
    expect(form.succeeded(second), JSON.stringify(second)).toBe(true)
    // The retry gets the first answer (the same visit, for a created visit).
    expect(second.body?.visitId).toEqual(first.body?.visitId)
    expect(await form.rows('blue')).toBe(before + 1)

    // The next entry, with a key of its own, is a second row.
    const next = answerOf(
      await form.submit('blue', { ...form.fields('blue', nextTag()), idempotencyKey: randomUUID() }),
    )
    expect(form.succeeded(next), JSON.stringify(next)).toBe(true)
    expect(await form.rows('blue')).toBe(before + 2)
    await form.consistent?.('blue')
  })

  it('posted 5 times at once with the same key: one row, and every answer reports success', async () => {
    const before = await form.rows('blue')
    const fields = { ...form.fields('blue', nextTag()), idempotencyKey: randomUUID() }
    const answers = (await Promise.all(Array.from({ length: 5 }, () => form.submit('blue', fields)))).map(answerOf)
    for (const answer of answers) expect(form.succeeded(answer), JSON.stringify(answer)).toBe(true)
    expect(new Set(answers.map((answer) => answer.body?.visitId)).size).toBe(1)
    expect(await form.rows('blue')).toBe(before + 1)
    await form.consistent?.('blue')
  })

  it("a key of company A replayed by company B makes B's own row once, and A still gets its own answer", async () => {
    const key = randomUUID()
    const blueBefore = await form.rows('blue')
    const sunsetBefore = await form.rows('sunset')
    const blueFields = { ...form.fields('blue', nextTag()), idempotencyKey: key }
    const sunsetFields = { ...form.fields('sunset', nextTag()), idempotencyKey: key }
    const blue = answerOf(await form.submit('blue', blueFields))
    const sunset = [
      answerOf(await form.submit('sunset', sunsetFields)),
      answerOf(await form.submit('sunset', sunsetFields)),
    ]
    const blueAgain = answerOf(await form.submit('blue', blueFields))
    for (const answer of [blue, ...sunset, blueAgain]) expect(form.succeeded(answer), JSON.stringify(answer)).toBe(true)
    if (blue.body?.visitId) {
      // B's answer is B's visit, never A's; A's replay is still A's.
      expect(sunset[0]?.body?.visitId).not.toBe(blue.body.visitId)
      expect(sunset[1]?.body?.visitId).toBe(sunset[0]?.body?.visitId)
      expect(blueAgain.body?.visitId).toBe(blue.body.visitId)
    }
    expect(await form.rows('blue')).toBe(blueBefore + 1)
    expect(await form.rows('sunset')).toBe(sunsetBefore + 1)
    await form.consistent?.('blue')
    await form.consistent?.('sunset')
  })

  it('the same key with something else typed is refused (422) and writes nothing; the first answer still replays', async () => {
    const before = await form.rows('blue')
    const fields = { ...form.fields('blue', nextTag()), idempotencyKey: randomUUID() }
    const first = answerOf(await form.submit('blue', fields))
    expect(form.succeeded(first), JSON.stringify(first)).toBe(true)
    const refused = answerOf(await form.submit('blue', form.otherwise(fields)))
    expect(refused.status).toBe(422)
    expect(messagesOf(refused)).toEqual([KEY_REUSED])
    // The same fields in another order are the same content: a true copy.
    const reordered = Object.fromEntries(Object.entries(fields).reverse())
    const again = answerOf(await form.submit('blue', reordered))
    expect(form.succeeded(again), JSON.stringify(again)).toBe(true)
    expect(again.body?.visitId).toEqual(first.body?.visitId)
    expect(await form.rows('blue')).toBe(before + 1)
    await form.consistent?.('blue')
  })

  it('a malformed key is refused with 400 and a clear message and writes nothing; no key saves as before', async () => {
    const before = await form.rows('blue')
    const fields = form.fields('blue', nextTag())
    for (const malformed of ['not-a-uuid', '', `${randomUUID()}x`]) {
      const answer = answerOf(await form.submit('blue', { ...fields, idempotencyKey: malformed }))
      expect(answer.status).toBe(400)
      expect(messagesOf(answer)).toEqual([MALFORMED_KEY])
    }
    expect(await form.rows('blue')).toBe(before)

    // A page from before keys (no field at all) saves every time, as it always did.
    expect(form.succeeded(answerOf(await form.submit('blue', fields)))).toBe(true)
    // The inventory form refuses a second item with the same SKU; the others save a second row.
    const second = form.name === 'add inventory item' ? form.fields('blue', nextTag()) : fields
    expect(form.succeeded(answerOf(await form.submit('blue', second)))).toBe(true)
    expect(await form.rows('blue')).toBe(before + 2)
  })
})

describe('a key is for one form', () => {
  it('a key already used to create a visit is refused by the reading form, which writes nothing', async () => {
    const [createVisit, saveReading] = [FORMS[0], FORMS[1]] as [FormCase, FormCase]
    const key = randomUUID()
    expect(
      createVisit.succeeded(
        answerOf(await createVisit.submit('blue', { ...createVisit.fields('blue', nextTag()), idempotencyKey: key })),
      ),
    ).toBe(true)
    const readings = await saveReading.rows('blue')
    const refused = answerOf(
      await saveReading.submit('blue', { ...saveReading.fields('blue', nextTag()), idempotencyKey: key }),
    )
    expect(refused.status).toBe(422)
    expect(messagesOf(refused)).toEqual([KEY_REUSED])
    expect(await saveReading.rows('blue')).toBe(readings)
  })
})

describe('keys stored before they were bound', () => {
  it('a key row without user, target or hash replays its first answer to its own form only', async () => {
    const [createVisit, saveReading] = [FORMS[0], FORMS[1]] as [FormCase, FormCase]
    const key = randomUUID()
    // As the table held it before the binding columns: the action and the answer only. The reading form's action is
    // the phone's ('field.change'): both reach applyFieldChange.
    await db()
      .insert(idempotencyKeys)
      .values({ companyId: onCompany('blue').id, key, action: 'field.change', response: { ok: true } })
    const readings = await saveReading.rows('blue')
    const replayed = answerOf(
      await saveReading.submit('blue', { ...saveReading.fields('blue', nextTag()), idempotencyKey: key }),
    )
    expect(saveReading.succeeded(replayed), JSON.stringify(replayed)).toBe(true)
    expect(await saveReading.rows('blue')).toBe(readings)
    const refused = answerOf(
      await createVisit.submit('blue', { ...createVisit.fields('blue', nextTag()), idempotencyKey: key }),
    )
    expect(refused.status).toBe(422)
    expect(messagesOf(refused)).toEqual([KEY_REUSED])
  })
})

describe('requestHash', () => {
  it('is the same for the same values in any order, without the key, and differs for other values', () => {
    const a = requestHash({ amount: 1100, method: 'check', nested: { b: 1, a: [2, { y: 1, x: 2 }] } })
    const b = requestHash({ nested: { a: [2, { x: 2, y: 1 }], b: 1 }, method: 'check', amount: 1100 })
    expect(a).toBe(b)
    expect(requestHash({ amount: 1100, idempotencyKey: randomUUID() })).toBe(requestHash({ amount: 1100 }))
    expect(requestHash({ amount: 700 })).not.toBe(requestHash({ amount: 1100 }))
    expect(requestHash({ a: [1, 2] })).not.toBe(requestHash({ a: [2, 1] }))
    expect(a).toMatch(/^[0-9a-f]{64}$/)
  })
})
