// "Change prices" against the database (docs/billing.md): which plans a change chooses, the preview (nothing written),
// the apply (one transaction, once per key, only what was previewed), the email per customer through the outbox, and
// the effective date: invoices for months before it bill the old rate, months from it the new one — also after the
// plan is split by a change "from a date".
import { and, eq, inArray, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import { ANY, type PlanFilter, PRICE_MESSAGES, type PriceIncrease, UNASSIGNED } from '~/billing/price-change'
import {
  companies,
  customers,
  emailOutbox,
  planRateChanges,
  priceChanges,
  serviceLocations,
  servicePlans,
} from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { occurrences, type PlanSchedule } from '~/schedule/recurrence'
import type { RateType } from '~/utils/customer-fields'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { previewInvoices } from './invoice-create.server'
import { editServicePlan } from './plan-edits.server'
import { applyPriceChange, PRICE_CHANGE_NOTICE } from './price-change.server'
import { listPriceChanges } from './price-change-history.server'
import { type PriceChangeCriteria, previewPriceChange } from './price-change-preview.server'

const NOW = new Date('2026-11-26T15:00:00Z') // Thursday 26 November, 10:00 in New York
const ALL: PlanFilter = { rateType: null, technician: ANY, rateMin: null, rateMax: null }
const FIVE_PERCENT: PriceIncrease = { kind: 'percent', basisPoints: 500 }

let companyId: string
let otherId: string
let techId: string
const plans: Record<string, string> = {}

async function newCompany(name: string) {
  const [row] = await db()
    .insert(companies)
    .values({ name, timezone: 'America/New_York' })
    .returning({ id: companies.id })
  return row?.id as string
}

async function addPlan(
  company: string,
  name: string,
  plan: { rateType: RateType; rateCents: number; technicianId?: string | null; endsOn?: string },
  email: string | null = `${name.toLowerCase()}@example.com`,
) {
  const customer = await addTestCustomer(company, { customerName: name, address: `${name.length} ${name} St` }, db())
  if (email) await db().update(customers).set({ email }).where(eq(customers.id, customer.id))
  const [row] = await db()
    .insert(servicePlans)
    .values({ companyId: company, locationId: customer.locationId, weekday: 1, startsOn: '2026-06-01', ...plan })
    .returning({ id: servicePlans.id })
  return { planId: row?.id as string, customerId: customer.id, locationId: customer.locationId }
}

async function rateOf(planId: string) {
  const [row] = await db()
    .select({ rate: servicePlans.rateCents })
    .from(servicePlans)
    .where(eq(servicePlans.id, planId))
  return row?.rate
}

const preview = (filter: PlanFilter, increase: PriceIncrease = FIVE_PERCENT, effectiveOn = '2026-12-01') =>
  previewPriceChange({ companyId, criteria: { filter, increase, effectiveOn }, now: NOW })

beforeAll(async () => {
  companyId = await newCompany('Price Pools')
  otherId = await newCompany('Other Price Pools')
  techId = await createDemoLogin(db(), { email: 'tia@price.test', fullName: 'Tia Tech', role: 'tech', companyId })
  plans.anna = (
    await addPlan(companyId, 'Anna', { rateType: 'per-visit', rateCents: 4510, technicianId: techId })
  ).planId
  plans.bert = (await addPlan(companyId, 'Bert', { rateType: 'monthly', rateCents: 15000 })).planId
  plans.cleo = (
    await addPlan(companyId, 'Cleo', { rateType: 'per-visit', rateCents: 9500, technicianId: techId }, null)
  ).planId
  plans.dora = (await addPlan(companyId, 'Dora', { rateType: 'monthly-plus-chemicals', rateCents: 20000 })).planId
  // Left out: a plan at $0.00 (5 % of nothing changes nothing), one that ended before December, an archived customer's.
  plans.free = (await addPlan(companyId, 'Free', { rateType: 'per-visit', rateCents: 0 })).planId
  plans.ended = (
    await addPlan(companyId, 'Ended', { rateType: 'monthly', rateCents: 15000, endsOn: '2026-11-30' })
  ).planId
  const gone = await addPlan(companyId, 'Gone', { rateType: 'monthly', rateCents: 15000 })
  await db().update(customers).set({ status: 'archived', archivedAt: NOW }).where(eq(customers.id, gone.customerId))
  plans.theirs = (await addPlan(otherId, 'Theirs', { rateType: 'per-visit', rateCents: 4510 })).planId
})

describe('preview', () => {
  it('lists every plan the change moves, old and new rate (5 % half up), and never another company’s', async () => {
    const result = await preview(ALL)
    if (!result.ok) throw new Error(result.message)
    expect(result.preview.count).toBe(4)
    expect(
      result.preview.plans.map((p) => [p.customerName, p.place, p.technicianName, p.oldRateCents, p.newRateCents]),
    ).toEqual([
      // $45.10 × 1.05 = $47.355 → $47.36
      ['Anna', '4 Anna St', 'Tia Tech', 4510, 4736],
      ['Bert', '4 Bert St', null, 15000, 15750],
      ['Cleo', '4 Cleo St', 'Tia Tech', 9500, 9975],
      ['Dora', '4 Dora St', null, 20000, 21000],
    ])
    expect(result.preview).toMatchObject({
      increaseLabel: '+5 %',
      effectiveOnLabel: 'Dec 1, 2026',
      firstMonthLabel: 'December 2026',
    })
    // Nothing written.
    expect(await rateOf(plans.anna as string)).toBe(4510)
    expect(await db().select().from(priceChanges)).toEqual([])
  })

  it('chooses by rate type, technician (or none), and current rate equal to or within a range', async () => {
    const names = async (filter: Partial<PlanFilter>, increase?: PriceIncrease) => {
      const result = await preview({ ...ALL, ...filter }, increase)
      return result.ok ? result.preview.plans.map((p) => p.customerName) : result.message
    }
    expect(await names({ rateType: 'per-visit' })).toEqual(['Anna', 'Cleo'])
    expect(await names({ technician: techId })).toEqual(['Anna', 'Cleo'])
    expect(await names({ technician: UNASSIGNED })).toEqual(['Bert', 'Dora'])
    expect(await names({ rateMin: 15000, rateMax: 15000 })).toEqual(['Bert'])
    expect(await names({ rateMin: 9500, rateMax: 20000 })).toEqual(['Bert', 'Cleo', 'Dora'])
    expect(await names({ rateType: 'monthly', technician: techId })).toBe(PRICE_MESSAGES.none)
    // Another company's technician chooses nothing here.
    expect(await names({ technician: crypto.randomUUID() })).toBe(PRICE_MESSAGES.none)
  })

  it('lowers by dollars down to $0.00 at most, and by a percent above −100 %', async () => {
    const dollars = await preview(ALL, { kind: 'amount', cents: -5000 })
    if (!dollars.ok) throw new Error(dollars.message)
    expect(dollars.preview.plans.map((p) => p.newRateCents)).toEqual([0, 10000, 4500, 15000])
    const percent = await preview(ALL, { kind: 'percent', basisPoints: -9999 })
    if (!percent.ok) throw new Error(percent.message)
    expect(percent.preview.plans.map((p) => p.newRateCents)).toEqual([0, 2, 1, 2])
  })

  it('refuses a date before the company’s today', async () => {
    expect(await preview(ALL, FIVE_PERCENT, '2026-11-25')).toMatchObject({
      ok: false,
      message: PRICE_MESSAGES.past,
      field: 'effectiveOn',
    })
    expect((await preview(ALL, FIVE_PERCENT, '2026-11-26')).ok).toBe(true)
  })
})

describe('apply', () => {
  let fingerprint: string
  let changeId: string
  let firstChangeId: string
  const key = crypto.randomUUID()
  // Tia's plans, +5 % from 1 December (built once the technician exists).
  let criteria: PriceChangeCriteria
  beforeAll(() => {
    criteria = { filter: { ...ALL, technician: techId }, increase: FIVE_PERCENT, effectiveOn: '2026-12-01' }
  })

  it('writes every previewed plan’s rate and history in one go, and emails each customer who takes email', async () => {
    const previewed = await previewPriceChange({ companyId, criteria, now: NOW })
    if (!previewed.ok) throw new Error(previewed.message)
    fingerprint = previewed.preview.fingerprint
    changeId = previewed.preview.changeId
    const applied = await applyPriceChange({
      companyId,
      userId: techId,
      criteria,
      fingerprint,
      changeId,
      notify: true,
      key,
      now: NOW,
    })
    // The change keeps the preview's change id.
    expect(applied).toMatchObject({ ok: true, priceChangeId: changeId })
    firstChangeId = changeId
    expect(applied).toMatchObject({ ok: true, planCount: 2, customersNotified: 1, firstMonthLabel: 'December 2026' })
    expect([await rateOf(plans.anna as string), await rateOf(plans.cleo as string)]).toEqual([4736, 9975])
    expect(await rateOf(plans.bert as string)).toBe(15000)
    const history = await db()
      .select({ plan: planRateChanges.planId, from: planRateChanges.fromRateCents, to: planRateChanges.toRateCents })
      .from(planRateChanges)
      .orderBy(planRateChanges.fromRateCents)
    expect(history).toEqual([
      { plan: plans.anna, from: 4510, to: 4736 },
      { plan: plans.cleo, from: 9500, to: 9975 },
    ])
    // Anna has an address; Cleo has none: one email, to Anna, naming her pool's new and current rate.
    const emails = await db()
      .select({ to: emailOutbox.to, subject: emailOutbox.subject, text: emailOutbox.text })
      .from(emailOutbox)
      .where(eq(emailOutbox.noticeEvent, PRICE_CHANGE_NOTICE))
    expect(emails).toHaveLength(1)
    expect(emails[0]?.to).toBe('anna@example.com')
    expect(emails[0]?.subject).toBe('Price Pools: your pool service price from December 2026')
    expect(emails[0]?.text).toContain('$47.36 per visit (now $45.10 per visit)')
    expect((await listPriceChanges({ companyId }))[0]).toMatchObject({
      increaseLabel: '+5 %',
      planCount: 2,
      customersNotified: 1,
      createdBy: 'Tia Tech',
    })
  })

  it('a double submit (the same key) gets the first answer and changes nothing more', async () => {
    const again = await applyPriceChange({
      companyId,
      userId: techId,
      criteria,
      fingerprint,
      changeId,
      notify: true,
      key,
      now: NOW,
    })
    expect(again).toMatchObject({ ok: true, planCount: 2, replayed: true })
    expect(await rateOf(plans.anna as string)).toBe(4736)
    expect(await db().select().from(priceChanges)).toHaveLength(1)
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.noticeEvent, PRICE_CHANGE_NOTICE))).toHaveLength(
      1,
    )
  })

  it('answers "Already applied" to the same preview sent again with a new key (back button), writing nothing', async () => {
    const again = await applyPriceChange({
      companyId,
      userId: techId,
      criteria,
      fingerprint,
      changeId,
      notify: false,
      key: crypto.randomUUID(),
      now: NOW,
    })
    expect(again).toMatchObject({ ok: true, alreadyApplied: true, priceChangeId: firstChangeId, planCount: 2 })
    expect([await rateOf(plans.anna as string), await rateOf(plans.cleo as string)]).toEqual([4736, 9975])
    expect(await db().select().from(priceChanges)).toHaveLength(1)
  })

  it('answers "Already applied" to the same plans and rates previewed in another tab (another change id)', async () => {
    // The second tab's preview was made before the first applied: the same fingerprint, its own change id.
    const otherTab = await applyPriceChange({
      companyId,
      userId: techId,
      criteria,
      fingerprint,
      changeId: crypto.randomUUID(),
      notify: true,
      key: crypto.randomUUID(),
      now: NOW,
    })
    expect(otherTab).toMatchObject({ ok: true, alreadyApplied: true, priceChangeId: firstChangeId })
    expect([await rateOf(plans.anna as string), await rateOf(plans.cleo as string)]).toEqual([4736, 9975])
    expect(await db().select().from(priceChanges)).toHaveLength(1)
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.noticeEvent, PRICE_CHANGE_NOTICE))).toHaveLength(
      1,
    )
  })

  it('refuses, writing nothing, when the plans are not what was previewed (a rate changed by hand since)', async () => {
    const previewed = await previewPriceChange({ companyId, criteria, now: NOW })
    if (!previewed.ok) throw new Error(previewed.message)
    await db()
      .update(servicePlans)
      .set({ rateCents: 4800 })
      .where(eq(servicePlans.id, plans.anna as string))
    const stale = await applyPriceChange({
      companyId,
      userId: techId,
      criteria,
      fingerprint: previewed.preview.fingerprint,
      changeId: previewed.preview.changeId,
      notify: false,
      key: crypto.randomUUID(),
      now: NOW,
    })
    expect(stale).toMatchObject({ ok: false, code: 'conflict', message: PRICE_MESSAGES.changed })
    // The fresh preview comes with the refusal: the rates as they are now.
    expect(stale.ok ? null : (stale as { preview?: { plans: { oldRateCents: number }[] } }).preview?.plans).toEqual([
      expect.objectContaining({ oldRateCents: 4800, newRateCents: 5040 }),
      expect.objectContaining({ oldRateCents: 9975, newRateCents: 10474 }),
    ])
    expect(await db().select().from(priceChanges)).toHaveLength(1)
    await db()
      .update(servicePlans)
      .set({ rateCents: 4736 })
      .where(eq(servicePlans.id, plans.anna as string))
  })

  it('refuses a date before a plan’s latest change, and takes one on or after it', async () => {
    const earlier = await preview({ ...ALL, technician: techId }, FIVE_PERCENT, '2026-11-27')
    expect(earlier).toMatchObject({
      ok: false,
      code: 'conflict',
      message: PRICE_MESSAGES.laterChange(2, 'Dec 1, 2026'),
    })
    expect((await preview({ ...ALL, technician: techId }, FIVE_PERCENT, '2026-12-01')).ok).toBe(true)
  })
})

describe('the effective date', () => {
  it('bills November at the old rate, December in two parts at each rate, and January on at the new one', async () => {
    const customerOf = async (planId: string) => {
      const [row] = await db()
        .select({ id: customers.id })
        .from(servicePlans)
        .innerJoin(serviceLocations, eq(serviceLocations.id, servicePlans.locationId))
        .innerJoin(customers, eq(customers.id, serviceLocations.customerId))
        .where(eq(servicePlans.id, planId))
      return row?.id
    }
    // Dora: $200 a month plus chemicals, +$25 from 15 December: December in two parts (docs/billing.md).
    const criteria = {
      filter: { ...ALL, rateType: 'monthly-plus-chemicals' as const },
      increase: { kind: 'amount' as const, cents: 2500 },
      effectiveOn: '2026-12-15',
    }
    const previewed = await previewPriceChange({ companyId, criteria, now: NOW })
    if (!previewed.ok) throw new Error(previewed.message)
    expect(previewed.preview.firstMonthLabel).toBe('December 2026')
    const applied = await applyPriceChange({
      companyId,
      userId: null,
      criteria,
      fingerprint: previewed.preview.fingerprint,
      changeId: previewed.preview.changeId,
      notify: false,
      key: null,
      now: NOW,
    })
    expect(applied.ok).toBe(true)
    expect(await rateOf(plans.dora as string)).toBe(22500)
    const dora = await customerOf(plans.dora as string)
    const monthTotal = async (month: string) => {
      const drafts = await previewInvoices({ companyId, period: monthOf(month) })
      return drafts.invoices.find((invoice) => invoice.customerId === dora)?.draft.totalCents
    }
    expect(await monthTotal('2026-11-01')).toBe(20000)
    // December: each scheduled visit before the 15th at $200 a month, from the 15th at $225, over the month's visits.
    const [schedule] = await db()
      .select({
        weekday: servicePlans.weekday,
        frequencyWeeks: servicePlans.frequencyWeeks,
        startsOn: servicePlans.startsOn,
        endsOn: servicePlans.endsOn,
      })
      .from(servicePlans)
      .where(eq(servicePlans.id, plans.dora as string))
    const asPlan = { ...schedule, endsOn: null } as PlanSchedule
    const before = occurrences(asPlan, '2026-12-01', '2026-12-14').length
    const after = occurrences(asPlan, '2026-12-15', '2026-12-31').length
    const exact = 20000 * before + 22500 * after
    const halfUp = Math.floor(exact / (before + after)) + (2 * (exact % (before + after)) >= before + after ? 1 : 0)
    expect(before).toBeGreaterThan(0)
    expect(after).toBeGreaterThan(0)
    expect(await monthTotal('2026-12-01')).toBe(halfUp)
    expect(await monthTotal('2027-01-01')).toBe(22500)
    expect(await monthTotal('2027-02-01')).toBe(22500)
  })

  it('a plan split from a date keeps its scheduled change: the new row bills the old rate until the change', async () => {
    // Bert ($150 a month): +$10 from 1 January; then from 7 December his visits move to Tia (the plan is split).
    const criteria = {
      filter: { ...ALL, rateType: 'monthly' as const },
      increase: { kind: 'amount' as const, cents: 1000 },
      effectiveOn: '2027-01-01',
    }
    const previewed = await previewPriceChange({ companyId, criteria, now: NOW })
    if (!previewed.ok) throw new Error(previewed.message)
    expect(previewed.preview.plans.map((p) => p.customerName)).toEqual(['Bert'])
    const applied = await applyPriceChange({
      companyId,
      userId: null,
      criteria,
      fingerprint: previewed.preview.fingerprint,
      changeId: previewed.preview.changeId,
      notify: false,
      key: null,
      now: NOW,
    })
    expect(applied.ok).toBe(true)
    // "Edit plan" with the plan's rate as it now stands ($160, its newest): only the technician changes.
    const changed = await editServicePlan({
      companyId,
      planId: plans.bert as string,
      input: {
        frequencyWeeks: '1',
        weekday: '1',
        technicianId: techId,
        serviceWindow: 'flexible',
        rate: '160',
        from: '2026-12-07',
        confirmed: 'yes',
      },
      now: NOW,
    })
    expect(changed.ok).toBe(true)
    const rows = await db()
      .select({ id: servicePlans.id, startsOn: servicePlans.startsOn, endsOn: servicePlans.endsOn })
      .from(servicePlans)
      .where(
        and(
          eq(servicePlans.companyId, companyId),
          eq(servicePlans.locationId, sql`(select location_id from service_plans where id = ${plans.bert})`),
        ),
      )
      .orderBy(servicePlans.startsOn)
    expect(rows).toHaveLength(2)
    const bert = await db()
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.companyId, companyId), eq(customers.customerName, 'Bert')))
    const total = async (month: string) => {
      const drafts = await previewInvoices({ companyId, period: monthOf(month) })
      return drafts.invoices.find((invoice) => invoice.customerId === bert[0]?.id)?.draft.totalCents
    }
    // December's Mondays (7 to 28) are all the new row's: it bills $150, the rate in force until January, not $160.
    expect(await total('2026-12-01')).toBe(15000)
    expect(await total('2027-01-01')).toBe(16000)
    const copied = await db()
      .select({ plan: planRateChanges.planId })
      .from(planRateChanges)
      .where(
        inArray(
          planRateChanges.planId,
          rows.map((row) => row.id),
        ),
      )
    expect(copied).toHaveLength(2)
  })
})
