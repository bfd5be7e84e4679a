// Settings → "Checklist" (docs/product.md "The visit") in the model: the order stays a permutation whatever two office
// users do at once, removing an item leaves past visits' ticks alone and "Undo" puts it back, another company's item
// does not exist, and bad labels are refused with the words the page shows.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { checklistItems, companies, visitChecks } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import {
  addChecklistItem,
  addDefaultChecklist,
  DEFAULT_CHECKLIST,
  listChecklist,
  listVisitChecks,
  moveChecklistItem,
  removeChecklistItem,
  renameChecklistItem,
  restoreChecklistItem,
  setPhotoRequired,
} from './checklist.server'
import { CHECKLIST_LIMIT, CHECKLIST_MESSAGES } from './checklist-rules'
import { createVisit } from './visit-changes.server'

/** A company of its own for each test, with the default checklist, so no test sees another's changes. */
async function newCompany(name: string) {
  const [company] = await db().insert(companies).values({ name }).returning({ id: companies.id })
  if (!company) throw new Error('company not created')
  await addDefaultChecklist(db(), company.id)
  return company.id
}

const labels = async (companyId: string) => (await listChecklist(companyId)).map((item) => item.label)

async function itemId(companyId: string, label: string) {
  const item = (await listChecklist(companyId)).find((candidate) => candidate.label === label)
  if (!item) throw new Error(`no item ${label}`)
  return item.id
}

let other: string

beforeAll(async () => {
  other = await newCompany('Other Checklist Pools')
})

describe('adding an item', () => {
  it('puts it at the end, trimmed, with Photo required as asked', async () => {
    const companyId = await newCompany('Add Pools')
    const added = await addChecklistItem({ companyId, label: '  Clean filter ', photoRequired: true })
    expect(added).toMatchObject({ ok: true, item: { label: 'Clean filter', photoRequired: true } })
    expect(await labels(companyId)).toEqual([...DEFAULT_CHECKLIST, 'Clean filter'])
    expect((await listChecklist(companyId)).at(-1)?.photoRequired).toBe(true)
  })

  it('refuses a blank label, a long one, and a label already there in any case', async () => {
    const companyId = await newCompany('Refusing Pools')
    expect(await addChecklistItem({ companyId, label: '   ' })).toEqual({
      ok: false,
      code: 'invalid',
      message: 'Enter the checklist item.',
    })
    expect(await addChecklistItem({ companyId, label: 'x'.repeat(81) })).toMatchObject({
      code: 'invalid',
      message: 'Use at most 80 characters.',
    })
    expect(await addChecklistItem({ companyId, label: ' BRUSH walls ' })).toEqual({
      ok: false,
      code: 'conflict',
      message: '“Brush walls” is already on the checklist.',
    })
    expect(await labels(companyId)).toEqual([...DEFAULT_CHECKLIST])
  })

  it(`holds at most ${CHECKLIST_LIMIT} items, and a removed one makes room`, async () => {
    const companyId = await newCompany('Full Pools')
    for (let n = DEFAULT_CHECKLIST.length + 1; n <= CHECKLIST_LIMIT; n++) {
      expect((await addChecklistItem({ companyId, label: `Step ${n}` })).ok).toBe(true)
    }
    expect(await addChecklistItem({ companyId, label: 'One too many' })).toEqual({
      ok: false,
      code: 'conflict',
      message: 'The checklist holds at most 30 items. Remove one first.',
    })
    const removed = await itemId(companyId, 'Step 30')
    await removeChecklistItem({ companyId, itemId: removed })
    expect((await addChecklistItem({ companyId, label: 'One too many' })).ok).toBe(true)
    // The checklist is full again: the removed item cannot come back until another goes.
    expect(await restoreChecklistItem({ companyId, itemId: removed })).toMatchObject({
      code: 'conflict',
      message: CHECKLIST_MESSAGES.full,
    })
    expect(await listChecklist(companyId)).toHaveLength(CHECKLIST_LIMIT)
  })
})

describe('renaming and Photo required', () => {
  it('renames an item, refusing a blank name or another item’s name, and allows a change of case', async () => {
    const companyId = await newCompany('Rename Pools')
    const id = await itemId(companyId, 'Brush walls')
    expect(await renameChecklistItem({ companyId, itemId: id, label: ' ' })).toMatchObject({
      code: 'invalid',
      message: 'Enter the checklist item.',
    })
    expect(await renameChecklistItem({ companyId, itemId: id, label: 'vacuum POOL' })).toMatchObject({
      code: 'conflict',
      message: '“Vacuum pool” is already on the checklist.',
    })
    expect(await renameChecklistItem({ companyId, itemId: id, label: 'Brush WALLS' })).toMatchObject({ ok: true })
    expect(await renameChecklistItem({ companyId, itemId: id, label: 'Brush walls and steps' })).toMatchObject({
      ok: true,
      item: { id, label: 'Brush walls and steps' },
    })
    expect(await labels(companyId)).toEqual([
      'Vacuum pool',
      'Skim surface and empty baskets',
      'Brush walls and steps',
      'Test and balance chemicals',
    ])
  })

  it('turns Photo required on and off', async () => {
    const companyId = await newCompany('Photo Pools')
    const id = await itemId(companyId, 'Vacuum pool')
    expect(await setPhotoRequired({ companyId, itemId: id, photoRequired: true })).toMatchObject({ ok: true })
    expect((await listChecklist(companyId))[0]).toEqual({ id, label: 'Vacuum pool', photoRequired: true })
    await setPhotoRequired({ companyId, itemId: id, photoRequired: false })
    expect((await listChecklist(companyId))[0]?.photoRequired).toBe(false)
  })
})

describe('moving items', () => {
  it('swaps an item with its neighbor, and refuses a move past either end', async () => {
    const companyId = await newCompany('Move Pools')
    const brush = await itemId(companyId, 'Brush walls')
    expect(await moveChecklistItem({ companyId, itemId: brush, direction: 'up' })).toMatchObject({ ok: true })
    expect(await labels(companyId)).toEqual([
      'Vacuum pool',
      'Brush walls',
      'Skim surface and empty baskets',
      'Test and balance chemicals',
    ])
    await moveChecklistItem({ companyId, itemId: brush, direction: 'up' })
    expect(await moveChecklistItem({ companyId, itemId: brush, direction: 'up' })).toEqual({
      ok: false,
      code: 'conflict',
      message: '“Brush walls” is already first.',
    })
    const last = await itemId(companyId, 'Test and balance chemicals')
    expect(await moveChecklistItem({ companyId, itemId: last, direction: 'down' })).toMatchObject({
      code: 'conflict',
      message: '“Test and balance chemicals” is already last.',
    })
    expect(await labels(companyId)).toEqual([
      'Brush walls',
      'Vacuum pool',
      'Skim surface and empty baskets',
      'Test and balance chemicals',
    ])
  })

  it('steps over removed items, so a move always changes the order the technician sees', async () => {
    const companyId = await newCompany('Gap Pools')
    await removeChecklistItem({ companyId, itemId: await itemId(companyId, 'Skim surface and empty baskets') })
    await moveChecklistItem({ companyId, itemId: await itemId(companyId, 'Brush walls'), direction: 'up' })
    expect(await labels(companyId)).toEqual(['Brush walls', 'Vacuum pool', 'Test and balance chemicals'])
  })

  it('keeps the order a permutation when two office users move items at the same time', async () => {
    const companyId = await newCompany('Busy Office Pools')
    for (const label of ['Clean filter', 'Check pump', 'Empty pump basket', 'Backwash']) {
      await addChecklistItem({ companyId, label })
    }
    const before = await listChecklist(companyId)
    const moves = Array.from({ length: 40 }, (_, n) => ({
      itemId: before[(n * 7) % before.length]?.id ?? '',
      direction: n % 3 === 0 ? ('down' as const) : ('up' as const),
    }))
    const results = await Promise.all(moves.map((move) => moveChecklistItem({ companyId, ...move })))
    // Every move either happened or was refused at an end; none failed another way.
    expect(results.every((result) => result.ok || result.code === 'conflict')).toBe(true)

    const after = await listChecklist(companyId)
    expect(after.map((item) => item.id).sort()).toEqual(before.map((item) => item.id).sort())
    const positions = await db()
      .select({ position: checklistItems.position })
      .from(checklistItems)
      .where(eq(checklistItems.companyId, companyId))
    expect(new Set(positions.map((row) => row.position)).size).toBe(positions.length)
  })

  it('adds distinct positions and no duplicate when the same item is added twice at once', async () => {
    const companyId = await newCompany('Double Add Pools')
    const results = await Promise.all([
      addChecklistItem({ companyId, label: 'Clean filter' }),
      addChecklistItem({ companyId, label: 'clean filter' }),
      addChecklistItem({ companyId, label: 'Check pump' }),
    ])
    expect(results.filter((result) => result.ok)).toHaveLength(2)
    const current = await labels(companyId)
    expect(current.filter((label) => label.toLowerCase() === 'clean filter')).toHaveLength(1)
    expect(current).toContain('Check pump')
  })
})

describe('removing an item and Undo', () => {
  it('keeps the ticks of past visits with their label, and Undo puts the item back where it was', async () => {
    const companyId = await newCompany('Archive Pools')
    const customer = await addTestCustomer(companyId, { customerName: 'Archie Tick', address: '2 Tick St' })
    const visit = await createVisit({ companyId, customerId: customer.id, scheduledAt: new Date(), technicianId: null })
    const visitId = visit?.id ?? ''
    const brush = await itemId(companyId, 'Brush walls')
    await db().insert(visitChecks).values({ companyId, visitId, itemId: brush, label: 'Brush walls' })

    expect(await removeChecklistItem({ companyId, itemId: brush })).toMatchObject({
      ok: true,
      item: { id: brush, label: 'Brush walls' },
    })
    expect(await labels(companyId)).toEqual([
      'Vacuum pool',
      'Skim surface and empty baskets',
      'Test and balance chemicals',
    ])
    expect(await listVisitChecks({ companyId, visitId })).toEqual([
      expect.objectContaining({ itemId: brush, label: 'Brush walls' }),
    ])
    // A removed item cannot be renamed, moved or changed; removing it again (a form sent twice) is no error.
    expect(await renameChecklistItem({ companyId, itemId: brush, label: 'Brush' })).toMatchObject({
      code: 'not-found',
      message: 'That checklist item was removed.',
    })
    expect(await moveChecklistItem({ companyId, itemId: brush, direction: 'up' })).toMatchObject({ code: 'not-found' })
    expect(await setPhotoRequired({ companyId, itemId: brush, photoRequired: true })).toMatchObject({
      code: 'not-found',
    })
    expect(await removeChecklistItem({ companyId, itemId: brush })).toMatchObject({ ok: true })

    expect(await restoreChecklistItem({ companyId, itemId: brush })).toMatchObject({ ok: true })
    expect(await labels(companyId)).toEqual([...DEFAULT_CHECKLIST])
    expect(await restoreChecklistItem({ companyId, itemId: brush })).toMatchObject({ ok: true })
    expect(await labels(companyId)).toEqual([...DEFAULT_CHECKLIST])
  })

  it('refuses Undo when an item of that name was added since', async () => {
    const companyId = await newCompany('Undo Clash Pools')
    const brush = await itemId(companyId, 'Brush walls')
    await removeChecklistItem({ companyId, itemId: brush })
    await addChecklistItem({ companyId, label: 'brush walls' })
    expect(await restoreChecklistItem({ companyId, itemId: brush })).toEqual({
      ok: false,
      code: 'conflict',
      message: '“brush walls” is already on the checklist.',
    })
  })
})

describe('another company', () => {
  it('cannot see or change the item: every change is not-found and nothing changes', async () => {
    const companyId = await newCompany('Own Pools')
    const theirs = await itemId(other, 'Vacuum pool')
    const notFound = { ok: false, code: 'not-found', message: CHECKLIST_MESSAGES.notFound }
    expect(await renameChecklistItem({ companyId, itemId: theirs, label: 'Hacked' })).toEqual(notFound)
    expect(await moveChecklistItem({ companyId, itemId: theirs, direction: 'down' })).toEqual(notFound)
    expect(await setPhotoRequired({ companyId, itemId: theirs, photoRequired: true })).toEqual(notFound)
    expect(await removeChecklistItem({ companyId, itemId: theirs })).toEqual(notFound)
    expect(await restoreChecklistItem({ companyId, itemId: theirs })).toEqual(notFound)
    expect(await renameChecklistItem({ companyId, itemId: 'not-an-id', label: 'x' })).toEqual(notFound)
    expect(await listChecklist(other)).toEqual([
      ...DEFAULT_CHECKLIST.map((label) => expect.objectContaining({ label, photoRequired: false })),
    ])
  })
})
