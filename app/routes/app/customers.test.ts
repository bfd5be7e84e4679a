import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { customers, profiles } from '~/db/schema'
import { seedDemoData } from '~/db/seed.server'
import { db } from '~/utils/db.server'
import { INVALID_PHONE } from '~/utils/phone'
import { findTestCustomer, firstPoolOf } from '../../../tests/helpers/customers'
import { pageRequest, settle, signInAs, TEST_ORIGIN } from '../../../tests/helpers/session'
import { action, loader } from './customers'

const call = (request: Request) => ({ request, params: {}, context: {} }) as never

function post(cookie: string, fields: Record<string, string>, search = '') {
  return new Request(`${TEST_ORIGIN}/app/customers${search}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
}

const status = (thrown: unknown) =>
  (thrown as { init?: { status?: number } })?.init?.status ?? (thrown as Response)?.status

type PageData = {
  kind: 'customers'
  q: string
  page: number
  total: number
  flash: { notice: string; invite: { ok: boolean; message: string } | null } | null
  editing: { id: string; customerName: string; address: string; email: string; phone: string } | null
  customers: Array<{
    id: string
    customerName: string
    balanceDue: string
    created: string
    portalStatus: string
    email: string | null
  }>
}

/** The loader's payload and any cookie it set, for the page at `path`. */
async function page(cookie: string, path = '/app/customers') {
  const result = (await loader(call(pageRequest(path, cookie)))) as unknown as {
    data: PageData | { kind: 'no-company'; message: string }
    init?: { headers?: Record<string, string> }
  }
  return result.data
}

async function listPage(cookie: string, path?: string) {
  const data = await page(cookie, path)
  if (data.kind !== 'customers') throw new Error('expected the customers page')
  return data
}

/** An action's `data(…)` reply with its status. */
function reply(result: unknown) {
  const value = result as { data: { message?: string } & Record<string, unknown>; init?: { status?: number } }
  return { ...value.data, status: value.init?.status ?? 200 }
}

/** The messages of a Conform reply, field and form errors together. */
function errorsOf(result: unknown) {
  const value = (result as { data: { result?: { error?: Record<string, string[] | null> } } }).data
  return Object.values(value.result?.error ?? {})
    .flat()
    .filter(Boolean)
}

/** Follows a save's redirect like a browser: the cookie it sets goes with the next page load. */
function redirected(result: unknown, cookie: string) {
  expect(result).toBeInstanceOf(Response)
  const response = result as Response
  expect(response.status).toBe(302)
  const setCookies = response.headers.getSetCookie()
  // The path must cover '/app/customers.data' too, where client-side navigations load the page.
  expect(setCookies.join('\n')).toMatch(/; Path=\/app(;|$)/)
  const flash = setCookies.map((c) => c.split(';')[0])
  return { location: response.headers.get('Location') ?? '', cookie: [cookie, ...flash].join('; ') }
}

/** The customer row, with the service address (their first location's) as the form shows it. */
async function customerByName(name: string) {
  const [row] = await db().select().from(customers).where(eq(customers.customerName, name))
  return row && { ...row, address: (await findTestCustomer(name)).address }
}

let dispatcher: string
let blueCustomerId: string

beforeAll(async () => {
  await seedDemoData(db())
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  blueCustomerId = (await customerByName('Marcus Bell'))?.id ?? ''
})

describe('customers page', () => {
  it("lists the company's customers with balance, portal status and created date", async () => {
    const data = await listPage(dispatcher)
    expect(data.total).toBe(32)
    expect(data.editing).toBeNull()
    const dana = data.customers.find((c) => c.customerName === 'Dana Whitfield')
    expect(dana).toMatchObject({ balanceDue: '$240.00', portalStatus: 'active', email: 'customer@bluelagoon.test' })
    expect(dana?.created).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/)
    expect(data.customers.map((c) => c.customerName)).not.toContain('Marco Ruiz')
  })

  it('searches on the server by name, address or email, with any text', async () => {
    expect((await listPage(dispatcher, '/app/customers?q=priya')).customers.map((c) => c.customerName)).toEqual([
      'Priya Raman',
    ])
    expect((await listPage(dispatcher, '/app/customers?q=bayshore')).total).toBeGreaterThan(0)
    expect((await listPage(dispatcher, '/app/customers?q=sam.c%40example')).customers).toHaveLength(1)
    for (const q of ['%25', '_', "'", '%5C', ')']) {
      const data = await listPage(dispatcher, `/app/customers?q=${q}`)
      expect(data.customers).toEqual([])
    }
  })

  it('opens the form in edit mode for one of its customers', async () => {
    const data = await listPage(dispatcher, `/app/customers?edit=${blueCustomerId}&q=marcus`)
    expect(data.editing).toEqual({
      id: blueCustomerId,
      customerName: 'Marcus Bell',
      address: expect.any(String),
      email: 'marcus.bell@example.com',
      phone: '(813) 555-0102',
      poolVolumeGallons: expect.stringMatching(/^\d+$/),
      poolSurface: expect.any(String),
      poolSanitiser: expect.any(String),
      poolSetting: expect.any(String),
    })
    expect(data.q).toBe('marcus')
    const { thrown } = await settle(loader(call(pageRequest('/app/customers?edit=not-an-id', dispatcher))))
    expect(status(thrown)).toBe(404)
  })
})

describe('saving', () => {
  it("answers a blank name or address with the spec's message and saves nothing", async () => {
    const cases: Array<Record<string, string>> = [
      { customerName: '   ', address: '1 Pool Way' },
      { customerName: 'Blank Address', address: '' },
      { customerName: 'No Address Field' },
    ]
    for (const fields of cases) {
      const result = await action(call(post(dispatcher, { intent: 'save', ...fields })))
      expect(reply(result).status).toBe(400)
      expect(errorsOf(result)).toContain('Name and address are required.')
    }
    expect(await customerByName('Blank Address')).toBeUndefined()
    expect(await customerByName('No Address Field')).toBeUndefined()
  })

  it('rejects a malformed email', async () => {
    const result = await action(
      call(post(dispatcher, { intent: 'save', customerName: 'Bad Email', address: '1 A St', email: 'not-an-email' })),
    )
    expect(reply(result).status).toBe(400)
    expect(errorsOf(result)).toContain('Enter a valid email address.')
    expect(await customerByName('Bad Email')).toBeUndefined()
  })

  it('refuses a phone number that is not one, and shows stored numbers as people write them', async () => {
    for (const phone of ['555', '(555) 123-4567', 'call me']) {
      const result = await action(
        call(post(dispatcher, { intent: 'save', customerName: 'Bad Phone', address: '1 A St', phone })),
      )
      expect(reply(result).status).toBe(400)
      expect(errorsOf(result)).toContain(INVALID_PHONE)
    }
    expect(await customerByName('Bad Phone')).toBeUndefined()
    const data = await listPage(dispatcher, '/app/customers?q=whitfield')
    expect(data.customers[0]).toMatchObject({ phone: '(813) 555-0101', phoneHref: '+18135550101' })
  })

  it('creates a customer, storing blank email and phone as null, and says so after the redirect', async () => {
    const result = await action(
      call(
        post(
          dispatcher,
          {
            intent: 'save',
            customerId: '',
            customerName: '  Wendy Wave ',
            address: ' 5 Surf Rd ',
            email: ' ',
            phone: '',
          },
          '?q=wendy&page=3',
        ),
      ),
    )
    const next = redirected(result, dispatcher)
    // Back to the list in add mode, keeping the search.
    expect(next.location).toBe('/app/customers?q=wendy')
    const row = await customerByName('Wendy Wave')
    expect(row).toMatchObject({ address: '5 Surf Rd', email: null, phone: null, balanceDue: 0 })
    const data = await listPage(next.cookie, next.location)
    expect(data.flash).toEqual({ id: expect.any(String), notice: 'Customer saved.', invite: null })
    expect(data.editing).toBeNull()
    expect(data.customers.map((c) => c.customerName)).toEqual(['Wendy Wave'])
  })

  it('creates a customer with an email and reports the invitation outcome, keeping the customer', async () => {
    const result = await action(
      call(
        post(dispatcher, {
          intent: 'save',
          customerName: 'Ivan Invite',
          address: '7 Cove Ct',
          email: '  Ivan.Invite@Example.com ',
          phone: '(813) 555-0177',
        }),
      ),
    )
    const next = redirected(result, dispatcher)
    const row = await customerByName('Ivan Invite')
    expect(row).toMatchObject({ email: 'ivan.invite@example.com', phone: '+18135550177' })
    const data = await listPage(next.cookie, next.location)
    expect(data.flash?.notice).toBe('Customer saved.')
    // Whatever the invitation said, it is shown to the staff member.
    expect(data.flash?.invite).toEqual({ ok: expect.any(Boolean), message: expect.any(String) })
    expect(data.flash?.invite?.message.length).toBeGreaterThan(0)
  })

  it('refuses an email that belongs to staff, but still saves the customer', async () => {
    const result = await action(
      call(
        post(dispatcher, {
          intent: 'save',
          customerName: 'Staff Email',
          address: '8 Cove Ct',
          email: 'owner@bluelagoon.test',
        }),
      ),
    )
    const next = redirected(result, dispatcher)
    expect(await customerByName('Staff Email')).toMatchObject({ email: 'owner@bluelagoon.test', portalUserId: null })
    const data = await listPage(next.cookie, next.location)
    expect(data.flash?.notice).toBe('Customer saved.')
    expect(data.flash?.invite?.ok).toBe(false)
    expect(data.flash?.invite?.message).toBeTruthy()
  })

  it('edits a customer and returns to add mode on the same page of the list', async () => {
    const created = await action(
      call(post(dispatcher, { intent: 'save', customerName: 'Edit Me', address: '1 Old Rd' })),
    )
    redirected(created, dispatcher)
    const id = (await customerByName('Edit Me'))?.id ?? ''
    const result = await action(
      call(
        post(
          dispatcher,
          {
            intent: 'save',
            customerId: id,
            customerName: 'Edited Name',
            address: '2 New Rd',
            email: 'EDITED@example.com',
            phone: ' 813.555.0142 ',
          },
          `?q=edit&page=2&edit=${id}`,
        ),
      ),
    )
    const next = redirected(result, dispatcher)
    expect(next.location).toBe('/app/customers?q=edit&page=2')
    // Phones are stored in E.164 (issue #17).
    expect(await customerByName('Edited Name')).toMatchObject({
      customerName: 'Edited Name',
      address: '2 New Rd',
      email: 'edited@example.com',
      phone: '+18135550142',
    })
    // An edit does not send an invitation.
    const data = await listPage(next.cookie, '/app/customers?q=edit')
    expect(data.flash).toMatchObject({ notice: 'Customer saved.', invite: null })
  })

  it('reports the invite outcome in the row, and refuses a customer without email', async () => {
    const withEmail = await customerByName('Marcus Bell')
    const result = reply(await action(call(post(dispatcher, { intent: 'invite', customerId: withEmail?.id ?? '' }))))
    expect(result).toMatchObject({ intent: 'invite', customerId: withEmail?.id, ok: expect.any(Boolean) })
    expect(String(result.message).length).toBeGreaterThan(0)
    const noEmail = await customerByName('Tom Okafor')
    const refused = reply(await action(call(post(dispatcher, { intent: 'invite', customerId: noEmail?.id ?? '' }))))
    expect(refused).toMatchObject({ ok: false, status: 400, message: 'Add an email address for this customer first.' })
    expect(await customerByName('Marcus Bell')).toMatchObject({ email: withEmail?.email, customerName: 'Marcus Bell' })
  })
})

describe('permissions', () => {
  it('turns technicians away from the page and every action', async () => {
    const tech = await signInAs('tech@bluelagoon.test')
    const page = await settle(loader(call(pageRequest('/app/customers', tech))))
    expect(status(page.thrown)).toBe(403)
    expect((page.thrown as { data?: { reason?: string } }).data?.reason).toBe('no-access')
    const attempts: Array<Record<string, string>> = [
      { intent: 'save', customerName: 'Tech Made', address: '1 Tech St' },
      { intent: 'save', customerId: blueCustomerId, customerName: 'Tech Edit', address: '1 Tech St' },
      { intent: 'invite', customerId: blueCustomerId },
    ]
    for (const fields of attempts) {
      const { thrown } = await settle(action(call(post(tech, fields))))
      expect(status(thrown)).toBe(403)
    }
    expect(await customerByName('Tech Made')).toBeUndefined()
    expect(await customerByName('Tech Edit')).toBeUndefined()
  })

  it('lets owners and admins in, and turns the platform admin and customers away', async () => {
    for (const email of ['owner@bluelagoon.test', 'office@bluelagoon.test']) {
      expect((await listPage(await signInAs(email))).total).toBeGreaterThanOrEqual(24)
    }
    const platform = await settle(loader(call(pageRequest('/app/customers', await signInAs('admin@poolbud.test')))))
    expect(status(platform.thrown)).toBe(403)
    const customer = await settle(
      loader(call(pageRequest('/app/customers', await signInAs('customer@bluelagoon.test')))),
    )
    expect(status(customer.thrown)).toBe(403)
  })

  it("is a 404 for another company's customer, on the page and when posting its id", async () => {
    const sunsetOwner = await signInAs('owner@sunsetpools.test')
    const before = await customerByName('Marcus Bell')
    const edit = await settle(loader(call(pageRequest(`/app/customers?edit=${blueCustomerId}`, sunsetOwner))))
    expect(status(edit.thrown)).toBe(404)
    const attempts: Array<Record<string, string>> = [
      { intent: 'save', customerId: blueCustomerId, customerName: 'Hijacked', address: 'Nowhere', email: '' },
      { intent: 'save', customerId: blueCustomerId, customerName: '', address: '' },
      { intent: 'invite', customerId: blueCustomerId },
    ]
    for (const fields of attempts) {
      const { thrown } = await settle(action(call(post(sunsetOwner, fields))))
      expect(status(thrown)).toBe(404)
    }
    expect(await customerByName('Marcus Bell')).toEqual(before)
    expect(await customerByName('Hijacked')).toBeUndefined()
    // Their own list holds only Sunset's customers.
    const own = await listPage(sunsetOwner)
    expect(own.customers.map((c) => c.id)).not.toContain(blueCustomerId)
    expect(own.customers.map((c) => c.customerName)).toContain('Marco Ruiz')
  })

  it('shows the missing-company message to a member without a company, and saves nothing', async () => {
    // The schema keeps members tied to a company; this file's own database drops that rule to
    // reach the page's fallback for a profile whose company link is missing.
    await db().execute(sql`alter table profiles drop constraint profiles_company_matches_role`)
    await db().update(profiles).set({ companyId: null }).where(eq(profiles.email, 'office@bluelagoon.test'))
    const admin = await signInAs('office@bluelagoon.test')
    expect(await page(admin)).toEqual({
      kind: 'no-company',
      message: "Your profile isn't linked to a company. Contact an owner for access.",
    })
    const result = await action(call(post(admin, { intent: 'save', customerName: 'Orphan', address: '1 Lost Ln' })))
    expect(reply(result).status).toBe(400)
    expect(errorsOf(result)).toEqual(['No company context.'])
    expect(await customerByName('Orphan')).toBeUndefined()
  })
})

describe('the pool profile on the customer form', () => {
  it('saves volume, surface, sanitiser and setting, shows them when editing, and clears them when blanked', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const name = `Pool Profile ${crypto.randomUUID().slice(0, 8)}`
    const fields = { intent: 'save', customerName: name, address: '9 Reef Rd, Tampa, FL' }
    const created = await action(
      call(
        post(cookie, {
          ...fields,
          poolVolumeGallons: '18000',
          poolSurface: 'vinyl',
          poolSanitiser: 'salt',
          poolSetting: 'indoor',
        }),
      ),
    )
    expect(created).toBeInstanceOf(Response)
    // The pool profile is the first body of water at the customer's first location.
    const [saved] = await db().select({ id: customers.id }).from(customers).where(eq(customers.customerName, name))
    expect(await firstPoolOf(saved?.id ?? '')).toMatchObject({
      volume: 18_000,
      surface: 'vinyl',
      sanitiser: 'salt',
      indoor: true,
    })
    const editing = (await page(cookie, `/app/customers?edit=${saved?.id}`)) as PageData & {
      editing: Record<string, string>
    }
    expect(editing.editing).toMatchObject({
      poolVolumeGallons: '18000',
      poolSurface: 'vinyl',
      poolSanitiser: 'salt',
      poolSetting: 'indoor',
    })

    await action(
      call(
        post(cookie, {
          ...fields,
          customerId: saved?.id ?? '',
          poolVolumeGallons: '',
          poolSurface: '',
          poolSanitiser: '',
          poolSetting: '',
        }),
      ),
    )
    expect(await firstPoolOf(saved?.id ?? '')).toEqual({ volume: null, surface: null, sanitiser: null, indoor: null })
  })

  it('refuses an impossible volume or surface with a clear message and saves nothing', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const name = `Bad Pool ${crypto.randomUUID().slice(0, 8)}`
    const result = await action(
      call(
        post(cookie, {
          intent: 'save',
          customerName: name,
          address: '1 Dry Ln',
          poolVolumeGallons: '12.5',
          poolSurface: 'marble',
        }),
      ),
    )
    expect(reply(result).status).toBe(400)
    expect(errorsOf(result)).toEqual(
      expect.arrayContaining([
        'Pool volume must be a whole number of gallons.',
        'Choose plaster, vinyl or fibreglass.',
      ]),
    )
    const rows = await db().select({ id: customers.id }).from(customers).where(eq(customers.customerName, name))
    expect(rows).toHaveLength(0)
  })
})
