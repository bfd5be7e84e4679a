import { eq } from 'drizzle-orm'
import { type LoaderFunctionArgs, RouterContextProvider } from 'react-router'
import { beforeAll, describe, expect, it } from 'vitest'
import { getSessionUser, safeRedirectPath } from '~/auth/guards.server'
import { customers, profiles, user } from '~/db/schema'
import { loader as dashboardLoader } from '~/routes/app/dashboard'
import { loader as appLayoutLoader } from '~/routes/app/layout'
import { loader as portalLoader } from '~/routes/portal/customer'
import { currentDatabaseHandle, type DatabaseHandle, db, recordQueries } from '~/utils/db.server'
import { runInRequestScope } from '~/utils/request-scope.server'
import { pageRequest, settle } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { useDemoData } from '../../tests/helpers/test-database'

/** What React Router hands a loader for `request`, with the route's `params` (typed, so a route's own params fit). */
function args<Params extends Record<string, string> = Record<never, string>>(
  request: Request,
  params = {} as Params,
): LoaderFunctionArgs & { params: Params } {
  const url = new URL(request.url)
  // The route's pattern: the path with each param's value named again (`/customer/:customerId`).
  const pattern = Object.entries(params).reduce((path, [name, value]) => path.replace(value, `:${name}`), url.pathname)
  return { request, url, params, pattern, context: new RouterContextProvider() }
}

function expectRedirect(thrown: unknown, location: string) {
  expect(thrown).toBeInstanceOf(Response)
  const response = thrown as Response
  expect(response).toHaveRedirect(location)
}

/** A loader's thrown `data(…, { status })`, as React Router would turn it into an error response. */
function expectStatus(thrown: unknown, status: number, reason?: string) {
  const error = thrown as { type?: string; data?: { reason?: string }; init?: { status?: number } }
  expect(error?.type).toBe('DataWithResponseInit')
  expect(error.init?.status).toBe(status)
  if (reason) expect(error.data?.reason).toBe(reason)
}

let danaId: string
let marcoId: string

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: customers.id, name: customers.customerName }).from(customers)
  danaId = rows.find((r) => r.name === 'Dana Whitfield')?.id ?? ''
  marcoId = rows.find((r) => r.name === 'Marco Ruiz')?.id ?? ''
})

describe('guards', () => {
  it('send anonymous visitors to /login, remembering the page', async () => {
    const { thrown } = await settle(appLayoutLoader(args(pageRequest('/app/account?tab=1'))))
    expectRedirect(thrown, '/login?redirectTo=%2Fapp%2Faccount%3Ftab%3D1')
  })

  it('send staff who have not finished setup to /welcome', async () => {
    const cookie = await signInAs('newtech@bluelagoon.test')
    const { thrown } = await settle(dashboardLoader(args(pageRequest('/app', cookie))))
    expectRedirect(thrown, '/welcome')
  })

  it('show "Account setup incomplete" to a signed-in user without a role', async () => {
    const cookie = await signInAs('tech2@bluelagoon.test')
    // Take tech2's role away: a user with no role must not reach the app.
    const [owner] = await db().select({ id: user.id }).from(user).where(eq(user.email, 'tech2@bluelagoon.test'))
    await db()
      .update(profiles)
      .set({ role: null, companyId: null })
      .where(eq(profiles.id, owner?.id ?? ''))
    const { thrown } = await settle(appLayoutLoader(args(pageRequest('/app', cookie))))
    expectStatus(thrown, 403, 'setup-incomplete')
  })

  it('send customers from the staff app to their own portal', async () => {
    const cookie = await signInAs('customer@bluelagoon.test')
    const { thrown } = await settle(appLayoutLoader(args(pageRequest('/app', cookie))))
    expectRedirect(thrown, `/customer/${danaId}`)
  })
})

describe('a platform administrator on a company page', () => {
  it('gets the "This page is for company staff" card, not one naming a dashboard', async () => {
    const { loader } = await import('~/routes/app/customers')
    const cookie = await signInAs('admin@poolbud.test')
    for (const path of ['/app/customers', '/app/inventory', '/app/settings']) {
      const thrown = await (async () => {
        try {
          if (path === '/app/customers') await loader(args(pageRequest(path, cookie)))
          else {
            const module =
              path === '/app/inventory' ? await import('~/routes/app/inventory') : await import('~/routes/app/settings')
            await module.loader(args(pageRequest(path, cookie)))
          }
        } catch (error) {
          return error as { init?: { status?: number }; data?: { reason?: string } }
        }
        return null
      })()
      expect(thrown?.init?.status, path).toBe(403)
      expect(thrown?.data?.reason, path).toBe('company-staff-only')
    }
  })
})

describe('/app dashboard', () => {
  it('gives technicians their own route', async () => {
    const cookie = await signInAs('tech@bluelagoon.test')
    const data = (await dashboardLoader(args(pageRequest('/app', cookie)))) as { kind: string }
    expect(data.kind).toBe('tech')
  })

  it('gives each office role its own dashboard of its own company', async () => {
    for (const [email, kind] of [
      ['dispatch@bluelagoon.test', 'dispatcher'],
      ['office@bluelagoon.test', 'admin'],
      ['owner@bluelagoon.test', 'owner'],
    ]) {
      const cookie = await signInAs(email as string)
      const data = (await dashboardLoader(args(pageRequest('/app', cookie)))) as { kind: string }
      expect(data.kind).toBe(kind)
    }
  })

  it('shows the platform admin every company, read-only', async () => {
    const cookie = await signInAs('admin@poolbud.test')
    const data = (await dashboardLoader(args(pageRequest('/app', cookie)))) as {
      allCompanies: boolean
      visits: Array<{ companyName?: string }>
    }
    expect(data.allCompanies).toBe(true)
    expect(new Set(data.visits.map((j) => j.companyName))).toEqual(
      new Set(['Blue Lagoon Pool Co.', 'Sunset Pool Care']),
    )
  })
})

describe('customer portal', () => {
  it("opens for the customer's own login and for their company's staff", async () => {
    for (const email of ['customer@bluelagoon.test', 'dispatch@bluelagoon.test']) {
      const cookie = await signInAs(email)
      const data = (await portalLoader(args(pageRequest(`/customer/${danaId}`, cookie), { customerId: danaId }))) as {
        customer: { name: string }
      }
      expect(data.customer.name).toBe('Dana Whitfield')
    }
  })

  it('is a 404 for another customer, another company and technicians', async () => {
    const cases: Array<[string, string]> = [
      ['customer@sunsetpools.test', danaId],
      ['customer@bluelagoon.test', marcoId],
      ['owner@sunsetpools.test', danaId],
      ['tech@bluelagoon.test', danaId],
      ['admin@poolbud.test', danaId],
    ]
    for (const [email, customerId] of cases) {
      const cookie = await signInAs(email)
      const { thrown } = await settle(
        portalLoader(args(pageRequest(`/customer/${customerId}`, cookie), { customerId })),
      )
      expectStatus(thrown, 404)
    }
  })

  it('does not find a customer by a malformed id', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const { thrown } = await settle(
      portalLoader(args(pageRequest('/customer/not-a-uuid', cookie), { customerId: 'not-a-uuid' })),
    )
    expectStatus(thrown, 404)
  })
})

describe('safeRedirectPath', () => {
  it('keeps paths of this site, with their queries and fragments', () => {
    for (const path of [
      '/app/visits/1?tab=2#logs',
      '/app/customers?q=pool%20co&page=2',
      '/app/customers?next=//evil.example',
      '/customer/abc/visits/def',
      '/app/a%2Fb',
    ]) {
      expect(safeRedirectPath(path)).toBe(path)
    }
    // Dot segments that stay on the site resolve like a browser would.
    expect(safeRedirectPath('/app/../app/account')).toBe('/app/account')
  })

  it('refuses anything a browser or server would take off-site, before or after normalizing and decoding', () => {
    const hostile = [
      '//x',
      '/\\x',
      '/..//x',
      '/.//x',
      '/a/../..//x',
      '/%2F%2Fx',
      '/%2f/x',
      '/%5Cx',
      '/%5C%5Cx',
      '/%252F%252Fx',
      '/%2e%2e//x',
      '/.%2e//x',
      '/%09/x',
      '/%0A/x',
      '/\t/x',
      '/\n/x',
      '/\r/x',
      '/\t/evil.example',
      '/\n/evil.example',
      '/ap\tp',
      'javascript:alert(1)',
      'https://evil',
      'https://evil.example/app',
      '///x',
      '\\\\x',
      '/%E0%A4%A',
      ' /app',
      '',
      null,
      undefined,
      42,
    ]
    const followed = hostile.filter((value) => safeRedirectPath(value) !== '/app')
    expect(followed).toEqual([])
  })
})

describe('the session of one page request', () => {
  it('is looked up once for all of its loaders, and afresh for the next request', async () => {
    const cookie = await signInAs('owner@bluelagoon.test')
    const sessionReads = async (run: () => Promise<unknown>) => {
      const { recorded } = await recordQueries(currentDatabaseHandle() as DatabaseHandle, run)
      return recorded.filter((query) => /from "session"/i.test(query.sql)).length
    }
    // React Router gives each loader its own copy of the request; server.mjs gives them one scope.
    const page = () =>
      Promise.all([
        appLayoutLoader(args(pageRequest('/app', cookie))),
        dashboardLoader(args(pageRequest('/app', cookie))),
      ])
    expect(await sessionReads(() => runInRequestScope('GET', page))).toBe(1)
    expect(await sessionReads(() => runInRequestScope('GET', page))).toBe(1)
    // Outside a request's scope nothing is shared.
    expect(await sessionReads(page)).toBe(2)
    // A form post: the action reads afresh every time it asks (it may sign out, or change the profile); the loaders
    // React Router then runs with a GET copy of the request share one read, made after the action.
    const post = new Request(pageRequest('/app', cookie), { method: 'POST', body: new URLSearchParams({ a: '1' }) })
    const action = () => getSessionUser(post.clone())
    expect(await sessionReads(() => runInRequestScope('POST', () => Promise.all([action(), action()])))).toBe(2)
    expect(
      await sessionReads(() =>
        runInRequestScope('POST', async () => {
          await action()
          await page()
        }),
      ),
    ).toBe(2)
  })
})
