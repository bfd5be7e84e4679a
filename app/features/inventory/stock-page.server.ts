// The item page's and "My truck"'s server part (docs/inventory.md, decision 060): an item's stock at each location,
// its history a page at a time, and "Transfer", "Receive" and "Count" (owners and admins: the route checks who).
// These take the member's company; another company's item is the 404 page.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { notFound, refusalStatus } from '~/auth/guards.server'
import { getInventoryItem, type InventoryItem } from '~/models/inventory.server'
import { countStock, receiveStock, setLocationMinimum, transferStock } from '~/models/stock.server'
import { listItemHistory, listItemLevels, listLocationStock } from '~/models/stock-lists.server'
import { listStockPlaces, truckOf } from '~/models/stock-locations.server'
import { formatDateTime } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { unknownIntent } from '~/utils/intent'
import { formatCents } from '~/utils/money'
import { readPage } from '~/utils/paging'
import type { Failure } from '~/utils/result'
import { describeStock, formatUnits, plural, toUnits } from '~/utils/stock-units'
import { CountSchema, MinimumSchema, ReceiveSchema, type StockReply, TransferSchema } from './stock-schema'

const KIND_TEXT = {
  initial: 'Starting stock',
  received: 'Received',
  'transfer-out': 'Transferred out',
  'transfer-in': 'Transferred in',
  used: 'Used on a visit',
  count: 'Counted',
  adjusted: 'Adjusted',
} as const

/** The entry choices of an amount: the item's unit, and its pack when it has one. */
function entryOptions(item: Pick<InventoryItem, 'unit' | 'packName' | 'packSize'>) {
  const options = [{ value: 'unit', label: item.unit === 'each' ? 'each' : item.unit }]
  if (item.packName && item.packSize)
    options.push({ value: 'pack', label: `${item.packName} (${formatUnits(item.packSize, item.unit)})` })
  return options
}

/** The item page: the item, where its stock is, its history (paged), and for managers the forms' choices. */
export async function loadItemStockPage(
  companyId: string,
  timezone: string,
  canManage: boolean,
  itemId: string,
  url: URL,
) {
  const item = await getInventoryItem({ companyId, itemId })
  if (!item) notFound()
  const page = readPage(url)
  const [levels, history, places] = await Promise.all([
    listItemLevels({ companyId, itemId }),
    listItemHistory({ companyId, itemId, page }),
    canManage ? listStockPlaces(companyId) : Promise.resolve([]),
  ])
  return {
    canManage,
    item: {
      id: item.id,
      name: item.name,
      sku: item.sku,
      unit: item.unit,
      pack: item.packName && item.packSize ? `${item.packName} of ${formatUnits(item.packSize, item.unit)}` : null,
      total: describeStock(item.qty, item),
      price: formatCents(item.priceCents),
      minQty: item.minQty,
    },
    entryOptions: entryOptions(item),
    levels: levels.map((level) => ({
      locationId: level.locationId,
      name: level.name,
      qty: level.qty,
      shown: describeStock(level.qty, item),
      minQty: level.minQty,
      ownMinQty: level.ownMinQty === null ? '' : String(level.ownMinQty),
      low: level.qty <= level.minQty,
    })),
    history: {
      page,
      hasNext: history.hasNext,
      rows: history.rows.map((row) => ({
        id: row.id,
        at: formatDateTime(row.at, timezone),
        what: KIND_TEXT[row.kind],
        change: `${row.change > 0 ? '+' : ''}${formatUnits(row.change, item.unit)}`,
        after: formatUnits(row.qtyAfter, item.unit),
        location: row.location,
        detail:
          row.kind === 'transfer-out'
            ? `to ${row.otherLocation ?? 'another location'}`
            : row.kind === 'transfer-in'
              ? `from ${row.otherLocation ?? 'another location'}`
              : (row.reason ?? ''),
        visitId: row.visitId,
        by: row.by,
      })),
    },
    places: places.map((place) => ({ value: place.value, label: place.name })),
    // Each form's token: a new one for every page load, so a double submit is one change.
    formKeys: { transfer: crypto.randomUUID(), receive: crypto.randomUUID(), count: crypto.randomUUID() },
  }
}

export type ItemStockPageData = Awaited<ReturnType<typeof loadItemStockPage>>

type Submission = {
  reply: (options?: {
    formErrors?: string[]
    fieldErrors?: Record<string, string[]>
    resetForm?: boolean
  }) => StockReply['result']
}

function refused(intent: StockReply['intent'], result: StockReply['result'], status = 400) {
  return data<StockReply>({ intent, ok: false, result, message: null }, status)
}

/** A model's refusal at its field (or above the form). */
function refusal(intent: StockReply['intent'], submission: Submission, failed: Failure) {
  const errors = failed.field ? { fieldErrors: { [failed.field]: [failed.message] } } : { formErrors: [failed.message] }
  return refused(intent, submission.reply(errors), refusalStatus(failed))
}

/** An amount in units, or the field's message. */
function unitsOf(item: InventoryItem, quantity: number, entered: 'unit' | 'pack') {
  return toUnits(quantity, entered, item)
}

const TOO_MUCH = 'That is more than one entry can take.'

/** "Transfer", "Receive" and "Count" of one item (the route has checked the member may manage stock). */
export async function handleStockAction(companyId: string, userId: string, itemId: string, formData: FormData) {
  const item = await getInventoryItem({ companyId, itemId })
  if (!item) notFound()
  const intent = formData.get('intent')
  if (intent === 'transfer') {
    const submission = parseWithZod(formData, { schema: TransferSchema })
    if (submission.status !== 'success') return refused('transfer', submission.reply())
    const { from, to, quantity, entered, idempotencyKey } = submission.value
    const units = unitsOf(item, quantity, entered)
    if (units === null) return refused('transfer', submission.reply({ fieldErrors: { quantity: [TOO_MUCH] } }))
    const moved = await transferStock({
      companyId,
      itemId,
      from,
      to,
      quantity: units,
      requestKey: idempotencyKey,
      userId,
    })
    if (!moved.ok) return refusal('transfer', submission, moved)
    const places = await listStockPlaces(companyId)
    const name = (value: string) => places.find((p) => p.value === value)?.name ?? 'the truck'
    const toName = 'toLocationId' in moved ? name(moved.toLocationId) : name(to)
    return data<StockReply>({
      intent: 'transfer',
      ok: true,
      result: submission.reply({ resetForm: true }),
      message: `Moved ${describeStock(units, item)} from ${name(from)} to ${toName}.`,
    })
  }
  if (intent === 'receive') {
    const submission = parseWithZod(formData, { schema: ReceiveSchema })
    if (submission.status !== 'success') return refused('receive', submission.reply())
    const { location, quantity, entered, idempotencyKey } = submission.value
    const units = unitsOf(item, quantity, entered)
    if (units === null) return refused('receive', submission.reply({ fieldErrors: { quantity: [TOO_MUCH] } }))
    const received = await receiveStock({
      companyId,
      itemId,
      location,
      quantity: units,
      requestKey: idempotencyKey,
      userId,
    })
    if (!received.ok) return refusal('receive', submission, received)
    return data<StockReply>({
      intent: 'receive',
      ok: true,
      result: submission.reply({ resetForm: true }),
      message: `Received ${describeStock(units, item)}.`,
    })
  }
  if (intent === 'count') {
    const submission = parseWithZod(formData, { schema: CountSchema })
    if (submission.status !== 'success') return refused('count', submission.reply())
    const { location, quantity, entered, reason, idempotencyKey } = submission.value
    const units = unitsOf(item, quantity, entered)
    if (units === null) return refused('count', submission.reply({ fieldErrors: { quantity: [TOO_MUCH] } }))
    const counted = await countStock({
      companyId,
      itemId,
      location,
      counted: units,
      reason,
      requestKey: idempotencyKey,
      userId,
    })
    if (!counted.ok) return refusal('count', submission, counted)
    const change = 'change' in counted ? counted.change : 0
    return data<StockReply>({
      intent: 'count',
      ok: true,
      result: submission.reply({ resetForm: true }),
      message:
        change === 0
          ? `Counted ${describeStock(units, item)}: it matches.`
          : `Counted ${describeStock(units, item)}: adjusted by ${change > 0 ? '+' : ''}${formatUnits(change, item.unit)}.`,
    })
  }
  if (intent === 'minimum') {
    const submission = parseWithZod(formData, { schema: MinimumSchema })
    if (submission.status !== 'success') return refused('minimum', submission.reply())
    const { locationId, minQty } = submission.value
    const saved = await setLocationMinimum({ companyId, itemId, locationId, minQty })
    if (!saved.ok) return refusal('minimum', submission, saved)
    return data<StockReply>({
      intent: 'minimum',
      ok: true,
      result: submission.reply(),
      message: minQty === null ? `Minimum back to the item's ${item.minQty}.` : `Minimum set to ${minQty}.`,
    })
  }
  return unknownIntent()
}

/** "My truck": the signed-in technician's truck and what is on it (read-only, decision 060). */
export async function loadMyTruck(companyId: string, userId: string) {
  const truck = await truckOf(db(), companyId, userId)
  const items = truck ? await listLocationStock({ companyId, locationId: truck.id }) : []
  return {
    truck: truck ? { name: truck.name } : null,
    items: items.map((item) => ({
      id: item.id,
      name: item.name,
      sku: item.sku,
      qty: item.qty,
      shown: describeStock(item.qty, item),
      minQty: formatUnits(item.minQty, item.unit),
      low: item.qty <= item.minQty,
      packs: item.packName ? plural(item.packName, 2) : null,
    })),
  }
}
