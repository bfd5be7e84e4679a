// Settings → "Price book" (issue 33 item 1; docs/quotes.md, docs/decisions/055-price-book.md): parts and labor a
// quote line may start from. Every query is by company; another company's item (or a made-up id) is "not found".
// Archiving keeps the item for the quote lines that name it; archived items are not offered for new lines.
import { and, asc, count, eq, ilike, isNull, type SQL } from 'drizzle-orm'
import { inventoryItems, priceBookItems } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { likePattern } from './customer-search.server'

export const PRICE_BOOK_PAGE_SIZE = 25
/** The quote editor's item list: at most this many, found by name when the book is larger. */
export const PRICE_BOOK_CHOICES_LIMIT = 100

export const PRICE_BOOK_MESSAGES = {
  notFound: 'That price book item was not found.',
  inventoryNotFound: 'That inventory item was not found.',
} as const

export type PriceBookKind = 'part' | 'labor'

export type PriceBookItem = {
  id: string
  name: string
  kind: PriceBookKind
  priceCents: number
  costCents: number
  taxable: boolean
  inventoryItemId: string | null
  inventoryItemName: string | null
  archived: boolean
}

export type PriceBookFields = {
  name: string
  kind: PriceBookKind
  priceCents: number
  costCents: number
  taxable: boolean
  inventoryItemId: string | null
}

const columns = {
  id: priceBookItems.id,
  name: priceBookItems.name,
  kind: priceBookItems.kind,
  priceCents: priceBookItems.priceCents,
  costCents: priceBookItems.costCents,
  taxable: priceBookItems.taxable,
  inventoryItemId: priceBookItems.inventoryItemId,
  inventoryItemName: inventoryItems.name,
  archivedAt: priceBookItems.archivedAt,
}

type Row = { archivedAt: Date | null } & Omit<PriceBookItem, 'archived'>
const toItem = ({ archivedAt, ...row }: Row): PriceBookItem => ({ ...row, archived: archivedAt !== null })

function selectItems(database: Database, where: SQL | undefined) {
  return database
    .select(columns)
    .from(priceBookItems)
    .leftJoin(
      inventoryItems,
      and(
        eq(inventoryItems.companyId, priceBookItems.companyId),
        eq(inventoryItems.id, priceBookItems.inventoryItemId),
      ),
    )
    .where(where)
}

/**
 * "Name contains" the typed text (wildcards typed are matched literally), or nothing for blank text. A company's price
 * book is hundreds of items, rarely a few thousand: `ilike` over the company's rows, found on the index leading with
 * company_id (`price_book_items_company_name_idx`), answers at once without a trigram index of its own (decision 061).
 */
function nameContains(query: string | undefined) {
  const text = (query ?? '').trim().slice(0, 100)
  return text ? ilike(priceBookItems.name, likePattern(text)) : undefined
}

/** One page of the company's items by name, those whose name contains `query` when given; archived ones only when asked. */
export async function listPriceBook({
  companyId,
  page,
  archived = false,
  query,
}: {
  companyId: string
  page: number
  archived?: boolean
  query?: string
}) {
  const where = and(
    eq(priceBookItems.companyId, companyId),
    archived ? undefined : isNull(priceBookItems.archivedAt),
    nameContains(query),
  ) as SQL
  const [rows, [total]] = await Promise.all([
    selectItems(db(), where)
      .orderBy(asc(priceBookItems.name), asc(priceBookItems.id))
      .limit(PRICE_BOOK_PAGE_SIZE)
      .offset((page - 1) * PRICE_BOOK_PAGE_SIZE),
    db().select({ n: count() }).from(priceBookItems).where(where),
  ])
  const n = total?.n ?? 0
  return { items: rows.map(toItem), total: n, pageCount: Math.max(1, Math.ceil(n / PRICE_BOOK_PAGE_SIZE)) }
}

/**
 * The items a new quote line may start from (not archived), by name — those whose name contains `query` when given:
 * the quote editor's choice list, at most PRICE_BOOK_CHOICES_LIMIT (`more` says there are others to search for).
 */
export async function priceBookChoices(companyId: string, query?: string) {
  const rows = await selectItems(
    db(),
    and(eq(priceBookItems.companyId, companyId), isNull(priceBookItems.archivedAt), nameContains(query)),
  )
    .orderBy(asc(priceBookItems.name), asc(priceBookItems.id))
    .limit(PRICE_BOOK_CHOICES_LIMIT + 1)
  return { items: rows.slice(0, PRICE_BOOK_CHOICES_LIMIT).map(toItem), more: rows.length > PRICE_BOOK_CHOICES_LIMIT }
}

export async function getPriceBookItem(
  companyId: string,
  itemId: string,
  database: Database = db(),
): Promise<PriceBookItem | null> {
  if (!isUuid(itemId)) return null
  const [row] = await selectItems(
    database,
    and(eq(priceBookItems.companyId, companyId), eq(priceBookItems.id, itemId)),
  ).limit(1)
  return row ? toItem(row) : null
}

async function checkInventory(companyId: string, inventoryItemId: string | null, database: Database) {
  if (!inventoryItemId) return true
  if (!isUuid(inventoryItemId)) return false
  const [row] = await database
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.id, inventoryItemId)))
    .limit(1)
  return Boolean(row)
}

export async function createPriceBookItem(
  companyId: string,
  fields: PriceBookFields,
  database: Database = db(),
): Promise<Result<{ item: { id: string } }>> {
  if (!(await checkInventory(companyId, fields.inventoryItemId, database))) {
    return failure('invalid', PRICE_BOOK_MESSAGES.inventoryNotFound, 'inventoryItemId')
  }
  const [row] = await database
    .insert(priceBookItems)
    .values({ companyId, ...fields })
    .returning({ id: priceBookItems.id })
  if (!row) return failure('failed', 'Unable to save the item.')
  return success({ item: row })
}

export async function updatePriceBookItem(
  companyId: string,
  itemId: string,
  fields: PriceBookFields,
): Promise<Result<{ item: { id: string } }>> {
  if (!isUuid(itemId)) return failure('not-found', PRICE_BOOK_MESSAGES.notFound)
  if (!(await checkInventory(companyId, fields.inventoryItemId, db()))) {
    return failure('invalid', PRICE_BOOK_MESSAGES.inventoryNotFound, 'inventoryItemId')
  }
  const [row] = await db()
    .update(priceBookItems)
    .set(fields)
    .where(and(eq(priceBookItems.companyId, companyId), eq(priceBookItems.id, itemId)))
    .returning({ id: priceBookItems.id })
  return row ? success({ item: row }) : failure('not-found', PRICE_BOOK_MESSAGES.notFound)
}

/** "Archive" (asked first) and "Restore": the item stays for the lines that used it. */
export async function setPriceBookItemArchived(
  companyId: string,
  itemId: string,
  archived: boolean,
): Promise<Result<{ item: { id: string } }>> {
  if (!isUuid(itemId)) return failure('not-found', PRICE_BOOK_MESSAGES.notFound)
  const [row] = await db()
    .update(priceBookItems)
    .set({ archivedAt: archived ? new Date() : null })
    .where(and(eq(priceBookItems.companyId, companyId), eq(priceBookItems.id, itemId)))
    .returning({ id: priceBookItems.id })
  return row ? success({ item: row }) : failure('not-found', PRICE_BOOK_MESSAGES.notFound)
}
