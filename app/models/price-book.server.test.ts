// Price book search (issue 33 item 1; docs/quotes.md "Price book"): Settings' list and the quote editor's choices
// find items whose name contains the typed text (case aside, wildcards literal), paged and bounded, the company's own.
import { describe, expect, it } from 'vitest'
import { companies } from '~/db/schema'
import { db } from '~/utils/db.server'
import {
  createPriceBookItem,
  listPriceBook,
  PRICE_BOOK_CHOICES_LIMIT,
  PRICE_BOOK_PAGE_SIZE,
  priceBookChoices,
  setPriceBookItemArchived,
} from './price-book.server'

async function company(name: string) {
  const [row] = await db().insert(companies).values({ name }).returning()
  return row?.id as string
}

const item = (name: string) => ({
  name,
  kind: 'part' as const,
  priceCents: 1_000,
  costCents: 500,
  taxable: true,
  inventoryItemId: null,
})

describe('price book search', () => {
  it('finds names containing the text in Settings (paged, archived on request) and in the quote editor', async () => {
    const mine = await company('Search Book Pools')
    const theirs = await company('Other Book Pools')
    for (const name of ['Pump seal kit', 'Pool PUMP motor', 'Filter cartridge', '100% cotton rag', '100 rags']) {
      await createPriceBookItem(mine, item(name))
    }
    await createPriceBookItem(theirs, item('Pump seal kit (theirs)'))
    const archived = await createPriceBookItem(mine, item('Old pump lid'))
    if (!archived.ok) throw new Error(archived.message)
    await setPriceBookItemArchived(mine, archived.item.id, true)

    const names = async (query: string, archivedToo = false) =>
      (await listPriceBook({ companyId: mine, page: 1, query, archived: archivedToo })).items.map((i) => i.name)
    expect(await names('pump')).toEqual(['Pool PUMP motor', 'Pump seal kit'])
    expect(await names('pump', true)).toEqual(['Old pump lid', 'Pool PUMP motor', 'Pump seal kit'])
    // A typed % or _ is a character, not a wildcard.
    expect(await names('100%')).toEqual(['100% cotton rag'])
    expect(await names('  ')).toHaveLength(5)
    expect((await listPriceBook({ companyId: mine, page: 1, query: 'pump' })).total).toBe(2)

    const choices = await priceBookChoices(mine, 'PUMP')
    expect(choices).toEqual({ items: expect.any(Array), more: false })
    expect(choices.items.map((i) => i.name)).toEqual(['Pool PUMP motor', 'Pump seal kit'])
    expect((await priceBookChoices(theirs, 'filter')).items).toEqual([])
  })

  it('pages a search and bounds the quote editor’s list, saying there is more', async () => {
    const big = await company('Big Book Pools')
    const count = PRICE_BOOK_CHOICES_LIMIT + 3
    for (let i = 0; i < count; i++) await createPriceBookItem(big, item(`Valve ${String(i).padStart(3, '0')}`))
    await createPriceBookItem(big, item('Skimmer basket'))
    const second = await listPriceBook({ companyId: big, page: 2, query: 'valve' })
    expect(second.total).toBe(count)
    expect(second.items[0]?.name).toBe(`Valve ${String(PRICE_BOOK_PAGE_SIZE).padStart(3, '0')}`)
    const choices = await priceBookChoices(big)
    expect(choices.items).toHaveLength(PRICE_BOOK_CHOICES_LIMIT)
    expect(choices.more).toBe(true)
    expect(await priceBookChoices(big, 'skimmer')).toMatchObject({ more: false, items: [{ name: 'Skimmer basket' }] })
  })
})
