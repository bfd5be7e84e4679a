// "Change prices" applies once and can be undone (issue 31 item 3): the same 5 % rise was applied twice. Each preview
// carries a change id; two "Apply"s of it at the same moment change the rates once. "Undo" restores every plan's
// rate to the cent while the change is not yet in effect, withdraws the emails not yet sent, and is refused once the
// change is in effect or when a later change was built on it. A company of its own, with fixed dates.
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import { ANY, type PlanFilter, PRICE_MESSAGES } from '~/billing/price-change'
import { companies, customers, emailOutbox, planRateChanges, priceChanges, servicePlans } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { previewInvoices } from './invoice-create.server'
import { applyPriceChange, PRICE_CHANGE_NOTICE, undoPriceChange } from './price-change.server'
import { listPriceChanges } from './price-change-history.server'
import { type PriceChangeCriteria, previewPriceChange } from './price-change-preview.server'

const NOW = new Date('2026-11-26T15:00:00Z') // Thursday 26 November, 10:00 in New York
const ALL: PlanFilter = { rateType: null, technician: ANY, rateMin: null, rateMax: null }
const ORIGINAL = [4510, 9999, 20001]

let companyId: string
let ownerId: string
const planIds: string[] = []
let customerIds: string[] = []

async function rates() {
  const rows = await db()
    .select({ id: servicePlans.id, rate: servicePlans.rateCents })
    .from(servicePlans)
    .where(eq(servicePlans.companyId, companyId))
  return planIds.map((id) => rows.find((row) => row.id === id)?.rate)
}

async function changeCount() {
  return (await db().select().from(priceChanges).where(eq(priceChanges.companyId, companyId))).length
}

async function previewed(criteria: PriceChangeCriteria) {
  const answer = await previewPriceChange({ companyId, criteria, now: NOW })
  if (!answer.ok) throw new Error(answer.message)
  return answer.preview
}

const percent = (basisPoints: number, effectiveOn: string): PriceChangeCriteria => ({
  filter: ALL,
  increase: { kind: 'percent', basisPoints },
  effectiveOn,
})

beforeAll(async () => {
  const [company] = await db()
    .insert(companies)
    .values({ name: 'Once Pools', timezone: 'America/New_York' })
    .returning({ id: companies.id })
  companyId = company?.id as string
  ownerId = await createDemoLogin(db(), { email: 'owner@once.test', fullName: 'Olive Owner', role: 'owner', companyId })
  for (const [index, rateCents] of ORIGINAL.entries()) {
    const name = ['Ada', 'Ben', 'Cy'][index] as string
    const customer = await addTestCustomer(companyId, { customerName: name, address: `${index + 1} Once St` }, db())
    await db()
      .update(customers)
      .set({ email: `${name.toLowerCase()}@once.test` })
      .where(eq(customers.id, customer.id))
    customerIds.push(customer.id)
    const [plan] = await db()
      .insert(servicePlans)
      .values({
        companyId,
        locationId: customer.locationId,
        weekday: 1,
        startsOn: '2026-06-01',
        rateCents,
        rateType: index === 2 ? 'monthly' : 'per-visit',
      })
      .returning({ id: servicePlans.id })
    planIds.push(plan?.id as string)
  }
  customerIds = [...customerIds]
})

describe('"Apply" once per preview', () => {
  it('two "Apply"s of one preview at the same moment (two keys) change the rates once', async () => {
    const preview = await previewed(percent(500, '2026-12-01'))
    const apply = () =>
      applyPriceChange({
        companyId,
        userId: ownerId,
        criteria: percent(500, '2026-12-01'),
        fingerprint: preview.fingerprint,
        changeId: preview.changeId,
        notify: true,
        key: crypto.randomUUID(),
        now: NOW,
      })
    const answers = await Promise.all([apply(), apply()])
    expect(answers.every((answer) => answer.ok)).toBe(true)
    expect(answers.filter((answer) => answer.ok && 'alreadyApplied' in answer && answer.alreadyApplied)).toHaveLength(1)
    expect(answers.map((answer) => (answer.ok ? answer.priceChangeId : null))).toEqual([
      preview.changeId,
      preview.changeId,
    ])
    // 5 %, each rounded half up, once.
    expect(await rates()).toEqual([4736, 10499, 21001])
    expect(await changeCount()).toBe(1)
    const emails = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.noticeEvent, PRICE_CHANGE_NOTICE)))
    expect(emails).toHaveLength(3)
  })

  it('a new preview of the same change says the plans already have a change from that date', async () => {
    const again = await previewed(percent(500, '2026-12-01'))
    expect(again.sameDateCount).toBe(3)
    expect(again.plans.map((plan) => plan.oldRateCents)).toEqual([4736, 10499, 21001])
  })
})

describe('"Undo"', () => {
  it('restores every rate to the cent before the effective date, withdraws the unsent emails, and keeps the record', async () => {
    const [change] = await listPriceChanges({ companyId, today: '2026-11-26' })
    expect(change).toMatchObject({ canUndo: true, planCount: 3, customersNotified: 3, createdBy: 'Olive Owner' })
    // One email already went out: that customer was told.
    await db()
      .update(emailOutbox)
      .set({ status: 'sent', sentAt: NOW, attempts: 1 })
      .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.customerId, customerIds[0] as string)))
    const undone = await undoPriceChange({ companyId, userId: ownerId, priceChangeId: change?.id as string, now: NOW })
    expect(undone).toEqual({ ok: true, planCount: 3, customersNotified: 3, noticesWithdrawn: 2 })
    expect(await rates()).toEqual(ORIGINAL)
    expect(await db().select().from(planRateChanges).where(eq(planRateChanges.companyId, companyId))).toEqual([])
    const left = await db()
      .select({ status: emailOutbox.status })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.noticeEvent, PRICE_CHANGE_NOTICE)))
    expect(left).toEqual([{ status: 'sent' }])
    const [after] = await listPriceChanges({ companyId, today: '2026-11-26' })
    expect(after).toMatchObject({ id: change?.id, canUndo: false, undoneBy: 'Olive Owner', noticesWithdrawn: 2 })
    expect(after?.undoneAt).toBeInstanceOf(Date)
    // December bills the old rate again.
    const drafts = await previewInvoices({ companyId, period: monthOf('2026-12-01') })
    const cy = drafts.invoices.find((invoice) => invoice.customerId === customerIds[2])
    expect(cy?.draft.totalCents).toBe(20001)
  })

  it('refuses to undo twice, and the old preview is still "Already applied"', async () => {
    const [change] = await listPriceChanges({ companyId })
    const twice = await undoPriceChange({ companyId, userId: ownerId, priceChangeId: change?.id as string, now: NOW })
    expect(twice).toMatchObject({ ok: false, code: 'conflict', message: PRICE_MESSAGES.alreadyUndone })
    const replay = await applyPriceChange({
      companyId,
      userId: ownerId,
      criteria: percent(500, '2026-12-01'),
      fingerprint: 'whatever was shown',
      changeId: change?.id as string,
      notify: false,
      key: null,
      now: NOW,
    })
    expect(replay).toMatchObject({ ok: true, alreadyApplied: true })
    expect(await rates()).toEqual(ORIGINAL)
  })

  it('refuses once the change is in effect, changing nothing', async () => {
    const preview = await previewed(percent(1000, '2026-12-01'))
    const applied = await applyPriceChange({
      companyId,
      userId: ownerId,
      criteria: percent(1000, '2026-12-01'),
      fingerprint: preview.fingerprint,
      changeId: preview.changeId,
      notify: false,
      key: null,
      now: NOW,
    })
    expect(applied.ok).toBe(true)
    expect(await rates()).toEqual([4961, 10999, 22001])
    // 1 December, 10:00 in New York: in effect.
    const late = await undoPriceChange({
      companyId,
      userId: ownerId,
      priceChangeId: preview.changeId,
      now: new Date('2026-12-01T15:00:00Z'),
    })
    expect(late).toMatchObject({ ok: false, code: 'conflict', message: PRICE_MESSAGES.inEffect('Dec 1, 2026') })
    expect(await rates()).toEqual([4961, 10999, 22001])
    const [listed] = await listPriceChanges({ companyId, today: '2026-12-01' })
    expect(listed?.canUndo).toBe(false)
  })

  it('refuses while a later change stands on it; undoing the later one first restores both', async () => {
    const [first] = await listPriceChanges({ companyId })
    const preview = await previewed({
      filter: ALL,
      increase: { kind: 'amount', cents: 250 },
      effectiveOn: '2027-01-01',
    })
    const later = await applyPriceChange({
      companyId,
      userId: ownerId,
      criteria: { filter: ALL, increase: { kind: 'amount', cents: 250 }, effectiveOn: '2027-01-01' },
      fingerprint: preview.fingerprint,
      changeId: preview.changeId,
      notify: false,
      key: null,
      now: NOW,
    })
    expect(later.ok).toBe(true)
    const blocked = await undoPriceChange({ companyId, userId: ownerId, priceChangeId: first?.id as string, now: NOW })
    expect(blocked).toMatchObject({ ok: false, message: PRICE_MESSAGES.laterChangeFirst('Jan 1, 2027') })
    expect(await rates()).toEqual([5211, 11249, 22251])
    expect(
      await undoPriceChange({ companyId, userId: ownerId, priceChangeId: preview.changeId, now: NOW }),
    ).toMatchObject({ ok: true })
    expect(
      await undoPriceChange({ companyId, userId: ownerId, priceChangeId: first?.id as string, now: NOW }),
    ).toMatchObject({ ok: true })
    expect(await rates()).toEqual(ORIGINAL)
  })

  it("refuses another company's change as not found", async () => {
    const [change] = await listPriceChanges({ companyId })
    const [other] = await db()
      .insert(companies)
      .values({ name: 'Other Once Pools', timezone: 'America/New_York' })
      .returning({ id: companies.id })
    const theirs = await undoPriceChange({
      companyId: other?.id as string,
      userId: null,
      priceChangeId: change?.id as string,
      now: NOW,
    })
    expect(theirs).toMatchObject({ ok: false, code: 'not-found' })
  })
})
