// Settings → "Price book" (issue 33 item 1; docs/quotes.md): the paged list, the item open for editing, "Add item"
// (once per idempotency key), a save of the item being edited, "Archive" (asked first) and "Restore". The route
// checks who may; these take the member's company.
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { notFound, refusalStatus } from '~/auth/guards.server'
import { saveOnce } from '~/features/forms/save-once.server'
import { centsToDollarText } from '~/features/inventory/inventory-schema'
import { searchInventory } from '~/models/inventory.server'
import {
  createPriceBookItem,
  getPriceBookItem,
  listPriceBook,
  setPriceBookItemArchived,
  updatePriceBookItem,
} from '~/models/price-book.server'
import { formatCents } from '~/utils/money'
import { readPage } from '~/utils/paging'
import { PriceBookItemSchema, PriceBookTargetSchema } from './quote-schemas'

/** What the price book's actions answer. */
export type PriceBookReply = { intent: 'save' | 'archive'; result?: SubmissionResult<string[]>; saved?: string }

export async function loadPriceBookPage(companyId: string, url: URL) {
  const page = readPage(url)
  const archived = url.searchParams.get('archived') === '1'
  // "Search": the items whose name contains the text, paged as the whole list is.
  const query = (url.searchParams.get('q') ?? '').trim().slice(0, 100)
  const editId = url.searchParams.get('edit') ?? ''
  const [list, editing, stock] = await Promise.all([
    listPriceBook({ companyId, page, archived, query }),
    editId ? getPriceBookItem(companyId, editId) : null,
    searchInventory({ companyId, query: '' }),
  ])
  // Another company's item (or a made-up id) does not exist for this user.
  if (editId && !editing) notFound()
  return {
    page,
    pageCount: list.pageCount,
    total: list.total,
    archived,
    query,
    addFormKey: crypto.randomUUID(),
    inventory: stock.map((item) => ({ value: item.id, label: `${item.name} (${item.sku})` })),
    editing: editing
      ? {
          itemId: editing.id,
          name: editing.name,
          kind: editing.kind,
          price: centsToDollarText(editing.priceCents),
          cost: centsToDollarText(editing.costCents),
          taxable: editing.taxable ? 'on' : '',
          inventoryItemId: editing.inventoryItemId ?? '',
        }
      : null,
    items: list.items.map((item) => ({
      id: item.id,
      name: item.name,
      kind: item.kind === 'part' ? 'Part' : 'Labor',
      price: formatCents(item.priceCents),
      cost: formatCents(item.costCents),
      taxable: item.taxable,
      inventoryItemName: item.inventoryItemName,
      archived: item.archived,
    })),
  }
}

const SAVE_FAILED = 'Unable to save the item.'

/** "Add item" or "Save changes": the form's errors at their fields; a saved item goes back to the list. */
export async function savePriceBookItem(companyId: string, userId: string, formData: FormData) {
  const submission = parseWithZod(formData, { schema: PriceBookItemSchema })
  if (submission.status !== 'success') return data<PriceBookReply>({ intent: 'save', result: submission.reply() }, 400)
  const { itemId, name, kind, price, cost, taxable, inventoryItemId } = submission.value
  const fields = {
    name,
    kind,
    priceCents: price,
    costCents: cost ?? 0,
    taxable,
    // Labor is never a stock item.
    inventoryItemId: kind === 'part' ? inventoryItemId : null,
  }
  if (itemId) {
    const saved = await updatePriceBookItem(companyId, itemId, fields)
    if (!saved.ok && saved.code === 'not-found') notFound()
    if (!saved.ok) {
      const errors = saved.field ? { fieldErrors: { [saved.field]: [saved.message] } } : { formErrors: [saved.message] }
      return data<PriceBookReply>({ intent: 'save', result: submission.reply(errors) }, refusalStatus(saved))
    }
    return data<PriceBookReply>({
      intent: 'save',
      result: submission.reply({ resetForm: true }),
      saved: `Saved ${name}.`,
    })
  }
  const saved = await saveOnce(
    {
      formData,
      submission,
      companyId,
      userId,
      target: companyId,
      action: 'pricebook.create',
      failedMessage: SAVE_FAILED,
    },
    (tx) => createPriceBookItem(companyId, fields, tx),
  )
  if (!saved.ok) return data<PriceBookReply>({ intent: 'save', result: saved.result }, saved.status)
  return data<PriceBookReply>({
    intent: 'save',
    result: submission.reply({ resetForm: true }),
    saved: `Added ${name}.`,
  })
}

/** "Archive" (asked first) or "Restore". */
export async function archivePriceBookItem(companyId: string, formData: FormData, archived: boolean) {
  const submission = parseWithZod(formData, { schema: PriceBookTargetSchema })
  if (submission.status !== 'success')
    return data<PriceBookReply>({ intent: 'archive', result: submission.reply() }, 400)
  const result = await setPriceBookItemArchived(companyId, submission.value.itemId, archived)
  if (!result.ok) notFound()
  return data<PriceBookReply>({
    intent: 'archive',
    result: submission.reply(),
    saved: archived ? 'Item archived.' : 'Item restored.',
  })
}
