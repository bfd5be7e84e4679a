// Settings → "Plan" and "Billing" (docs/billing.md): the company's Pool Bud plan and its trial's days, and the payment
// terms that owners and admins save (intent 'billing-settings' of /app/settings) — and that the next invoices are made
// with, taxed at the company's default rate (Settings → "Tax rates").
import { eq } from 'drizzle-orm'
import { createElement, Fragment } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import { companies, invoices, servicePlans, taxRates, visits } from '~/db/schema'
import type { BillingSettingsData } from '~/features/settings/billing-settings.server'
import { BILLING_MESSAGES } from '~/features/settings/billing-settings-schema'
import { BillingSettingsSection } from '~/features/settings/billing-settings-section'
import { PlanSection } from '~/features/settings/plan-section'
import { createInvoices } from '~/models/invoice-create.server'
import { sendInvoices } from '~/models/invoice-send.server'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../../tests/helpers/customers'
import { formRequest, pageRequest, routeArgs, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './settings'

const post = (cookie: string, fields: Record<string, string>) =>
  formRequest('/app/settings', { intent: 'billing-settings', ...fields }, cookie)

type Reply = {
  data: { billingSettings: { message: string | null; result: { error?: Record<string, string[] | null> } } }
  init: { status?: number } | null
}

function answer(value: unknown) {
  const { data, init } = value as Reply
  return {
    status: init?.status ?? 200,
    message: data.billingSettings.message,
    errors: data.billingSettings.result.error ?? {},
  }
}

async function page(cookie: string) {
  return loader(routeArgs(pageRequest('/app/settings', cookie)))
}

async function company(name: string) {
  const [row] = await db().select().from(companies).where(eq(companies.name, name))
  if (!row) throw new Error(`no company ${name}`)
  return row
}

let owner: string
let admin: string
let dispatcher: string
let sunsetOwner: string

beforeAll(async () => {
  await useDemoData()
  owner = await signInAs('owner@bluelagoon.test')
  admin = await signInAs('office@bluelagoon.test')
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  sunsetOwner = await signInAs('owner@sunsetpools.test')
})

describe('Settings → Plan', () => {
  it('shows the plan as the pricing page prices it, with no trial for a company a platform admin created', async () => {
    const loaded = await page(owner)
    expect(loaded.billing.plan).toEqual({
      key: 'business',
      name: 'Business',
      monthlyPriceDollars: 199,
      userLimit: null,
      trial: null,
    })
    // Dispatchers see it too (they may view settings), read-only as everything there.
    expect((await page(dispatcher)).billing.plan.name).toBe('Business')
  })

  it('counts the days left in a trial (the last day included), and says when it ended', async () => {
    const { id } = await company('Sunset Pool Care')
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000)
    await db()
      .update(companies)
      .set({ trialEndsAt: inDays(11.5) })
      .where(eq(companies.id, id))
    const trial = (await page(sunsetOwner)).billing.plan
    expect(trial).toMatchObject({ name: 'Team', monthlyPriceDollars: 99, userLimit: 8 })
    expect(trial.trial).toMatchObject({ ended: false, daysLeft: 12 })
    const drawn = draw(trial, { paymentTermsDays: '15' })
    expect(drawn).toContain('12 days left in your trial')
    expect(drawn).toContain('$99/month')
    await db()
      .update(companies)
      .set({ trialEndsAt: inDays(-2) })
      .where(eq(companies.id, id))
    const ended = (await page(sunsetOwner)).billing.plan
    expect(ended.trial).toMatchObject({ ended: true, daysLeft: 0 })
    expect(draw(ended, { paymentTermsDays: '15' })).toContain('Your trial ended on')
    await db().update(companies).set({ trialEndsAt: null }).where(eq(companies.id, id))
  })
})

describe('Settings → Billing', () => {
  it('shows the terms in days (15 by default) and the way to "Tax rates"', async () => {
    const { billing } = await page(owner)
    expect(billing.form).toEqual({ paymentTermsDays: '15' })
    const drawn = draw(billing.plan, billing.form)
    expect(drawn).toContain('Payment terms')
    expect(drawn).toContain('href="/app/settings/tax-rates"')
    expect(drawn).toContain('Save billing settings')
    expect(drawn).not.toContain('left in your trial')
  })

  it('lets the owner and an admin save the terms', async () => {
    const saved = answer(await action(routeArgs(post(owner, { paymentTermsDays: '30' }))))
    expect(saved).toEqual({ status: 200, message: BILLING_MESSAGES.saved, errors: {} })
    expect((await company('Blue Lagoon Pool Co.')).paymentTermsDays).toBe(30)
    expect((await page(owner)).billing.form).toEqual({ paymentTermsDays: '30' })
    expect(answer(await action(routeArgs(post(admin, { paymentTermsDays: '0' })))).status).toBe(200)
    expect((await company('Blue Lagoon Pool Co.')).paymentTermsDays).toBe(0)
    expect(answer(await action(routeArgs(post(admin, { paymentTermsDays: '15' })))).status).toBe(200)
  })

  it('refuses terms outside 0–120 at their field', async () => {
    for (const days of ['121', '-1', '2.5', '']) {
      const refused = answer(await action(routeArgs(post(owner, { paymentTermsDays: days }))))
      expect(refused.status, days).toBe(400)
      expect(refused.errors.paymentTermsDays, days).toEqual([BILLING_MESSAGES.paymentTerms])
    }
    expect((await company('Blue Lagoon Pool Co.')).paymentTermsDays).toBe(15)
    // 120 itself is allowed.
    expect(answer(await action(routeArgs(post(owner, { paymentTermsDays: '120' })))).status).toBe(200)
    await action(routeArgs(post(owner, { paymentTermsDays: '15' })))
  })

  it('answers a dispatcher with 403 and saves nothing; another company’s owner changes only their own', async () => {
    const { thrown } = await settle(action(routeArgs(post(dispatcher, { paymentTermsDays: '20' }))))
    expect(statusOf(thrown)).toBe(403)
    await action(routeArgs(post(sunsetOwner, { paymentTermsDays: '45' })))
    expect((await company('Blue Lagoon Pool Co.')).paymentTermsDays).toBe(15)
    expect((await company('Sunset Pool Care')).paymentTermsDays).toBe(45)
  })

  it('the next invoices carry the default tax rate and fall due after the saved terms', async () => {
    const sunset = await company('Sunset Pool Care')
    await db().insert(taxRates).values({ companyId: sunset.id, name: 'Sales tax', milliPercent: 5600, isDefault: true })
    const customer = await addTestCustomer(sunset.id, { customerName: 'Terms Test', address: '9 Terms Rd' })
    const [plan] = await db()
      .insert(servicePlans)
      .values({
        companyId: sunset.id,
        locationId: customer.locationId,
        weekday: 1,
        startsOn: '2026-09-07',
        rateCents: 10000,
        rateType: 'monthly',
      })
      .returning({ id: servicePlans.id })
    expect(plan).toBeDefined()
    await db()
      .delete(visits)
      .where(eq(visits.planId, plan?.id ?? ''))
    await createInvoices({ companyId: sunset.id, period: monthOf('2026-10-01') })
    await sendInvoices({ companyId: sunset.id, period: monthOf('2026-10-01'), now: new Date('2026-11-03T18:00:00Z') })
    const [invoice] = await db()
      .select({ tax: invoices.taxCents, issuedOn: invoices.issuedOn, dueOn: invoices.dueOn })
      .from(invoices)
      .where(eq(invoices.customerId, customer.id))
    // 5.6 % of $100, and 45 days after 3 November.
    expect(invoice).toEqual({ tax: 560, issuedOn: '2026-11-03', dueOn: '2026-12-18' })
  })
})

// The sections need a data router around them; their props reach the stub's route through this holder.
let drawing: { plan: BillingSettingsData['plan']; form: BillingSettingsData['form'] } | null = null

function DrawnSections() {
  if (!drawing) return null
  return createElement(
    Fragment,
    null,
    createElement(PlanSection, { plan: drawing.plan }),
    createElement(BillingSettingsSection, { form: drawing.form, canSave: true, reply: undefined }),
  )
}

/** The "Plan" and "Billing" sections' HTML. */
function draw(plan: BillingSettingsData['plan'], form: BillingSettingsData['form']) {
  drawing = { plan, form }
  const Stub = createRoutesStub([{ path: '/app/settings', Component: DrawnSections }])
  return renderToString(createElement(Stub, { initialEntries: ['/app/settings'] })).replaceAll('<!-- -->', '')
}
