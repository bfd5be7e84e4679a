// /app/billing/prices ("Change prices", docs/billing.md) as the browser posts it: owners and admins only; "Preview"
// answers every plan and writes nothing; a decrease of 100 % is refused at its field; "Apply" writes once however
// often the same preview is sent ("Already applied"), and the page it returns to shows what changed; "Undo" puts the
// old rates back; another company's technician, change or page is refused.
import { and, eq, sql } from 'drizzle-orm'
import { type ComponentProps, createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, describe, expect, it } from 'vitest'
import { PRICE_MESSAGES } from '~/billing/price-change'
import { companies, priceChanges, profiles, servicePlans } from '~/db/schema'
import { PriceChangeForm, type PriceChangeReply } from '~/features/billing/price-change-form'
import { db } from '~/utils/db.server'
import { formRequest, pageRequest, routeArgs, settle, statusOf, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './billing-prices'

/** The flash message a redirect carries, read back through the cookie's own parser. */
async function flashOf(response: Response) {
  const { takeFlash } = await import('~/utils/flash.server')
  const cookie = (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
  const { flash } = await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie } }))
  return flash?.text
}

const post = (cookie: string, fields: Record<string, string>) => formRequest('/app/billing/prices', fields, cookie)

type Answer = {
  data: {
    priceChange: {
      result: { error?: Record<string, string[] | null> }
      preview: {
        count: number
        fingerprint: string
        changeId: string
        plans: { oldRateCents: number; newRateCents: number }[]
      } | null
    }
  }
  init: { status?: number } | null
}

const answer = (value: unknown) => {
  const { data, init } = value as Answer
  return { status: init?.status ?? 200, errors: data.priceChange.result.error ?? {}, preview: data.priceChange.preview }
}

let owner: string
let admin: string
let dispatcher: string
let tech: string
let blueLagoon: string

/** The demo's "Monthly" plans between $300 and $400: the twice-weekly HOA pool's two, at $320. */
const HOA = { rateType: 'monthly', technician: 'any', rateMatch: 'between', rateFrom: '300', rateTo: '400' }

async function monthlyRates() {
  const rows = await db()
    .select({ rate: servicePlans.rateCents })
    .from(servicePlans)
    .where(
      and(
        eq(servicePlans.companyId, blueLagoon),
        eq(servicePlans.rateType, 'monthly'),
        sql`${servicePlans.rateCents} >= 30000`,
      ),
    )
  return rows.map((row) => row.rate).sort()
}

beforeAll(async () => {
  await useDemoData()
  owner = await signInAs('owner@bluelagoon.test')
  admin = await signInAs('office@bluelagoon.test')
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  tech = await signInAs('tech@bluelagoon.test')
  const [company] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blueLagoon = company?.id as string
})

describe('the page', () => {
  it('opens for owners and admins with their technicians, a key and next month’s 1st; not for others', async () => {
    const page = await loader(routeArgs(pageRequest('/app/billing/prices', owner)))
    expect(page.technicians.map((t) => t.name)).toContain('Tyler Brooks')
    expect(page.formKey).toMatch(/^[0-9a-f-]{36}$/)
    expect(page.defaultEffectiveOn.endsWith('-01')).toBe(true)
    expect(page.defaultEffectiveOn > page.today).toBe(true)
    expect((await loader(routeArgs(pageRequest('/app/billing/prices', admin)))).history).toEqual([])
    for (const cookie of [dispatcher, tech]) {
      expect(statusOf((await settle(loader(routeArgs(pageRequest('/app/billing/prices', cookie))))).thrown)).toBe(403)
      expect(statusOf((await settle(action(routeArgs(post(cookie, { intent: 'preview', ...HOA }))))).thrown)).toBe(403)
    }
  })
})

describe('preview and apply', () => {
  const change = (effectiveOn: string) => ({
    ...HOA,
    increaseKind: 'percent',
    increase: '3',
    effectiveOn,
    notify: 'on',
  })
  let effectiveOn: string

  beforeAll(async () => {
    effectiveOn = (await loader(routeArgs(pageRequest('/app/billing/prices', owner)))).defaultEffectiveOn
  })

  it('previews every chosen plan with its new rate, and writes nothing', async () => {
    const previewed = answer(await action(routeArgs(post(owner, { intent: 'preview', ...change(effectiveOn) }))))
    expect(previewed.status).toBe(200)
    expect(previewed.preview?.count).toBe(2)
    expect(previewed.preview?.plans.map((p) => [p.oldRateCents, p.newRateCents])).toEqual([
      [32000, 32960],
      [32000, 32960],
    ])
    expect(await monthlyRates()).toEqual([32000, 32000])
  })

  it('refuses −100 %, a zero increase and a date in the past at their fields', async () => {
    for (const [fields, field, message] of [
      [{ increase: '-100' }, 'increase', PRICE_MESSAGES.minusHundred],
      [{ increase: '-150' }, 'increase', PRICE_MESSAGES.minusHundred],
      [{ increase: '0' }, 'increase', PRICE_MESSAGES.zero],
      [{ increase: 'a lot' }, 'increase', PRICE_MESSAGES.increase],
      [{ effectiveOn: '2020-01-01' }, 'effectiveOn', PRICE_MESSAGES.past],
      [{ rateMatch: 'equal', rateFrom: '' }, 'rateFrom', PRICE_MESSAGES.rate],
      [{ rateMatch: 'between', rateFrom: '300', rateTo: '200' }, 'rateTo', PRICE_MESSAGES.rateOrder],
    ] as const) {
      const refused = answer(
        await action(routeArgs(post(owner, { intent: 'preview', ...change(effectiveOn), ...fields }))),
      )
      expect(refused.status, JSON.stringify(fields)).toBe(400)
      expect(refused.errors[field], JSON.stringify(fields)).toEqual([message])
    }
    // −100 % in dollars is a plain decrease (stops at $0.00): allowed, only previewed here.
    const dollars = answer(
      await action(
        routeArgs(post(owner, { intent: 'preview', ...change(effectiveOn), increaseKind: 'amount', increase: '-400' })),
      ),
    )
    expect(dollars.preview?.plans.map((p) => p.newRateCents)).toEqual([0, 0])
  })

  it('refuses another company’s technician', async () => {
    const [theirs] = await db()
      .select({ id: profiles.id })
      .from(profiles)
      .where(eq(profiles.email, 'tech@sunsetpools.test'))
    const refused = answer(
      await action(routeArgs(post(owner, { intent: 'preview', ...change(effectiveOn), technician: theirs?.id ?? '' }))),
    )
    expect(refused.errors.technician).toEqual([PRICE_MESSAGES.technician])
  })

  it('applies once, however often the same form is sent, shows what changed, and offers "Undo"', async () => {
    const previewed = answer(await action(routeArgs(post(admin, { intent: 'preview', ...change(effectiveOn) }))))
    const form = {
      intent: 'apply',
      ...change(effectiveOn),
      fingerprint: previewed.preview?.fingerprint ?? '',
      changeId: previewed.preview?.changeId ?? '',
      idempotencyKey: crypto.randomUUID(),
    }
    const shown = `/app/billing/prices?change=${previewed.preview?.changeId}`
    for (let i = 0; i < 2; i += 1) {
      const { thrown } = await settle(action(routeArgs(post(admin, form))))
      const response = thrown as Response
      expect(response).toHaveRedirect(shown)
      expect(response.headers.get('Set-Cookie')).toContain('pb-flash')
    }
    expect(await monthlyRates()).toEqual([32960, 32960])
    const [count] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(priceChanges)
      .where(eq(priceChanges.companyId, blueLagoon))
    expect(count?.n).toBe(1)
    // The back button: the same preview sent again with a new key lands on the change, "Already applied".
    const { thrown } = await settle(action(routeArgs(post(admin, { ...form, idempotencyKey: crypto.randomUUID() }))))
    const again = thrown as Response
    expect(again).toHaveRedirect(shown)
    expect(await flashOf(again)).toBe(PRICE_MESSAGES.alreadyApplied)
    expect(await monthlyRates()).toEqual([32960, 32960])
    // Without a change id (a page from before): refused, nothing written.
    const { changeId: _id, ...withoutId } = form
    const refused = answer(await action(routeArgs(post(admin, { ...withoutId, idempotencyKey: crypto.randomUUID() }))))
    expect(refused.status).toBe(400)
    expect(await monthlyRates()).toEqual([32960, 32960])
    // The page it lands on: what changed, and the change in "Price changes" with "Undo" (not yet in effect).
    const page = await loader(routeArgs(pageRequest(shown, owner)))
    expect(page.applied?.plans.map((p) => [p.oldRateCents, p.newRateCents])).toEqual([
      [32000, 32960],
      [32000, 32960],
    ])
    expect(page.history.map((h) => [h.increaseLabel, h.planCount, h.createdBy, h.canUndo])).toEqual([
      ['+3 %', 2, 'Andre Collins', true],
    ])
  })

  it('undoes the change: the old rates are back, and another company cannot see or undo it', async () => {
    const [changed] = await db()
      .select({ id: priceChanges.id })
      .from(priceChanges)
      .where(eq(priceChanges.companyId, blueLagoon))
    const id = changed?.id as string
    const sunsetOwner = await signInAs('owner@sunsetpools.test')
    const theirs = await settle(action(routeArgs(post(sunsetOwner, { intent: 'undo', changeId: id }))))
    expect(statusOf(theirs.thrown)).toBe(404)
    const theirPage = await settle(loader(routeArgs(pageRequest(`/app/billing/prices?change=${id}`, sunsetOwner))))
    expect(statusOf(theirPage.thrown)).toBe(404)
    expect(await monthlyRates()).toEqual([32960, 32960])
    const { thrown } = await settle(action(routeArgs(post(owner, { intent: 'undo', changeId: id }))))
    expect((thrown as Response).status).toBe(302)
    // The HOA's customer takes email notices and was emailed; the email still waits in the outbox, so it is withdrawn.
    expect(await flashOf(thrown as Response)).toContain(PRICE_MESSAGES.undone(2))
    expect(await monthlyRates()).toEqual([32000, 32000])
    const again = await action(routeArgs(post(owner, { intent: 'undo', changeId: id })))
    expect((again as unknown as { data: { undo: { message: string } } }).data.undo.message).toBe(
      PRICE_MESSAGES.alreadyUndone,
    )
  })
})

// The form needs a data router around it; its props reach the stub's route through this module-level holder.
let drawn: ComponentProps<typeof PriceChangeForm> | null = null

function DrawnForm() {
  return drawn ? createElement(PriceChangeForm, drawn) : null
}

describe('the page as drawn', () => {
  it('renders the form, and a preview with each plan and "Apply"', async () => {
    const page = await loader(routeArgs(pageRequest('/app/billing/prices', owner)))
    const answered = await action(
      routeArgs(
        post(owner, {
          intent: 'preview',
          rateType: 'per-visit',
          technician: 'any',
          rateMatch: 'any',
          increaseKind: 'amount',
          increase: '2.50',
          effectiveOn: page.defaultEffectiveOn,
        }),
      ),
    )
    const previewed = answer(answered)
    const reply = answered as unknown as { data: { priceChange: PriceChangeReply } }
    drawn = {
      technicians: page.technicians,
      today: page.today,
      defaultEffectiveOn: page.defaultEffectiveOn,
      formKey: page.formKey,
      reply: reply.data.priceChange,
    }
    const Stub = createRoutesStub([{ path: '/app/billing/prices', Component: DrawnForm }])
    const html = renderToString(createElement(Stub, { initialEntries: ['/app/billing/prices'] })).replaceAll(
      '<!-- -->',
      '',
    )
    for (const label of ['Rate type', 'Technician', 'Current rate', 'Increase', 'Effective date', 'Notify customers']) {
      expect(html).toContain(label)
    }
    const count = previewed.preview?.count ?? 0
    expect(count).toBeGreaterThan(1)
    expect(html).toContain(`${count} plans will change: +$2.50 from`)
    expect(html).toContain(`Apply to ${count} plans`)
    expect(html).toContain(`name="fingerprint" value="${previewed.preview?.fingerprint}"`)
  })
})
