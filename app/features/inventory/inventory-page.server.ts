// The inventory route's server part (docs/product.md "Limits"): the search with the item open for editing,
// "Add an item" / edit (owners and admins), and "Adjust stock". The route checks who may do which; these take the
// member's company.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { notFound, refusalStatus } from '~/auth/guards.server'
import { saveOnce } from '~/features/forms/save-once.server'
import {
  adjustStock,
  createInventoryItem,
  getInventoryItem,
  type InventoryFields,
  searchInventory,
  updateInventoryItem,
} from '~/models/inventory.server'
import { listStockPlaces } from '~/models/stock-locations.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { logger } from '~/utils/logger.server'
import { formatCents } from '~/utils/money'
import { describeStock } from '~/utils/stock-units'
import {
  AdjustSchema,
  type AdjustStockReply,
  centsToDollarText,
  InventorySchema,
  ItemTargetSchema,
  type SaveItemReply,
} from './inventory-schema'

/** docs/product.md "Limits": the search box starts with 'chlorine' and searches it on load. */
const DEFAULT_QUERY = 'chlorine'
const SAVE_FAILED = 'Unable to save the item.'

/** No `q` at all is the first visit (the default search); an empty `q` lists everything. */
function readQuery(url: URL) {
  const q = url.searchParams.get('q')
  return q === null ? DEFAULT_QUERY : q.trim().slice(0, 100)
}

/** The page: the items found, and the one open for editing (`edit`, only for those who manage stock). */
export async function loadInventoryPage(companyId: string, canManage: boolean, url: URL) {
  const q = readQuery(url)
  const editId = canManage ? (url.searchParams.get('edit') ?? '') : ''
  // `location`: the quantities at one location (decision 060); blank is the company-wide total.
  const location = url.searchParams.get('location')?.trim() ?? ''
  const [items, editing, places] = await Promise.all([
    searchInventory({ companyId, query: q, ...(location ? { locationId: location } : {}) }),
    editId ? getInventoryItem({ companyId, itemId: editId }) : null,
    listStockPlaces(companyId),
  ])
  const locations = places.filter((place) => !place.value.startsWith('tech:'))
  // Another company's item (or a made-up id) does not exist for this user.
  if (editId && !editing) notFound()
  return {
    q,
    location: locations.some((place) => place.value === location) ? location : '',
    locations: locations.map((place) => ({ value: place.value, label: place.name })),
    canManage,
    // The add form's idempotency key: a new one for every page load.
    addFormKey: crypto.randomUUID(),
    editing: editing
      ? {
          id: editing.id,
          name: editing.name,
          sku: editing.sku,
          price: centsToDollarText(editing.priceCents),
          cost: centsToDollarText(editing.costCents),
          qty: String(editing.qty),
          unit: editing.unit,
          packName: editing.packName ?? '',
          packSize: editing.packSize ? String(editing.packSize) : '',
          minQty: String(editing.minQty),
        }
      : null,
    items: items.map((item) => ({
      id: item.id,
      name: item.name,
      sku: item.sku,
      qty: item.qty,
      shown: describeStock(item.qty, item),
      price: formatCents(item.priceCents),
      // What the company pays is for those who manage stock (owners, admins), not for every searcher.
      cost: canManage ? formatCents(item.costCents) : null,
      low: item.qty <= item.minQty,
    })),
  }
}

export type InventoryPageData = Awaited<ReturnType<typeof loadInventoryPage>>
export type InventoryItemData = InventoryPageData['items'][number]

function saveRefused(result: SaveItemReply['result'], status: number) {
  return data<SaveItemReply>({ intent: 'save', ok: false, result, message: null }, status)
}

/** The item a form names ('' for none). */
function postedItemId(formData: FormData) {
  const target = parseWithZod(formData, { schema: ItemTargetSchema })
  return target.status === 'success' ? target.value.itemId : ''
}

type ParsedItem = {
  reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SaveItemReply['result']
}

/** An edit: a taken SKU at its field (another company's item is the 404 page); an unexpected error logged, 500. */
async function saveEdit(
  companyId: string,
  userId: string,
  itemId: string,
  fields: InventoryFields,
  submission: ParsedItem,
) {
  try {
    const saved = await updateInventoryItem({ companyId, itemId, userId, ...fields })
    if (saved.ok) return saved
    const errors = saved.field ? { fieldErrors: { [saved.field]: [saved.message] } } : { formErrors: [saved.message] }
    return { ok: false as const, status: refusalStatus(saved), result: submission.reply(errors) }
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, companyId, itemId }, 'inventory save failed')
    return { ok: false as const, status: 500, result: submission.reply({ formErrors: [SAVE_FAILED] }) }
  }
}

/** "Add an item" (once per idempotency key) or the save of an item being edited (`itemId`). */
export async function saveInventoryItem(companyId: string, userId: string, formData: FormData) {
  const itemId = postedItemId(formData)
  // Someone else's item is answered before anything is validated, exactly as a missing one.
  if (itemId && !(await getInventoryItem({ companyId, itemId }))) notFound()

  const submission = parseWithZod(formData, { schema: InventorySchema })
  if (submission.status !== 'success') return saveRefused(submission.reply(), 400)
  const { name, sku, price, cost, qty, unit, packName, packSize, minQty } = submission.value
  // The pack fields are sent together by the form: both blank clears the pack; neither sent keeps it.
  const packSent = formData.has('packName') || formData.has('packSize')
  const pack = packName && packSize ? { name: packName, size: packSize } : packSent ? null : undefined
  const fields = { name, sku, priceCents: price, costCents: cost, qty, unit, pack, minQty }
  const saved = itemId
    ? await saveEdit(companyId, userId, itemId, fields, submission)
    : // A new item sent again (same key) is created once.
      await saveOnce(
        {
          formData,
          submission,
          companyId,
          userId,
          target: companyId,
          action: 'inventory.create',
          failedMessage: SAVE_FAILED,
        },
        (tx) => createInventoryItem({ companyId, ...fields }, tx),
      )
  if (!saved.ok) return saveRefused(saved.result, saved.status)
  return data<SaveItemReply>({
    intent: 'save',
    ok: true,
    // A new item resets the form; an edit keeps showing the saved values.
    result: submission.reply({ resetForm: !itemId }),
    message: 'Item saved.',
    savedId: `${saved.item.id}:${crypto.randomUUID()}`,
  })
}

/** "Update stock": a signed change and its reason; stock never goes below 0. */
export async function adjustInventoryStock(companyId: string, userId: string, formData: FormData) {
  const itemId = postedItemId(formData)
  if (!(await getInventoryItem({ companyId, itemId }))) notFound()
  const submission = parseWithZod(formData, { schema: AdjustSchema })
  const refused = (result: AdjustStockReply['result'], status = 400) =>
    data<AdjustStockReply>({ intent: 'adjust', itemId, ok: false, result, message: null }, status)
  if (submission.status !== 'success') return refused(submission.reply())
  const { change, reason } = submission.value
  const result = await adjustStock({ companyId, itemId, change, reason, userId })
  // Below zero (400) says how many are left; an item deleted meanwhile is the 404 page.
  if (!result.ok) return refused(submission.reply({ formErrors: [result.message] }), refusalStatus(result))
  return data<AdjustStockReply>({
    intent: 'adjust',
    itemId,
    ok: true,
    result: submission.reply({ resetForm: true }),
    message: 'Stock updated.',
    adjustment: {
      change: result.adjustment.change,
      reason: result.adjustment.reason,
      qty: result.adjustment.qty,
    },
  })
}
