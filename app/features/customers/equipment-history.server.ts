// An equipment item's page (issue 33 item 7; docs/quotes.md "Equipment"): the item, its warranty as of today, and its
// history — the quotes for it with their work orders and the parts fitted — formatted for the page. The route checks who may.
import { notFound } from '~/auth/guards.server'
import { getEquipmentHistory } from '~/models/equipment.server'
import { localDateAt } from '~/schedule/local-date'
import { formatLocalDate } from '~/utils/dates'
import { equipmentLabel, warrantyText } from '~/utils/equipment'
import { formatCents } from '~/utils/money'

export async function loadEquipmentPage(member: { companyId: string; timezone: string }, equipmentId: string) {
  const today = localDateAt(new Date(), member.timezone)
  const history = await getEquipmentHistory({ companyId: member.companyId, equipmentId, today })
  // Another company's item, or an id that is none, does not exist for this member.
  if (!history) notFound()
  const { equipment: item, customer } = history
  return {
    equipment: {
      id: item.id,
      label: equipmentLabel(item),
      kind: item.kind,
      bodyOfWaterName: item.bodyOfWaterName,
      installedOn: item.installedOn ? formatLocalDate(item.installedOn) : null,
      warranty: warrantyText(item.warrantyUntil, today),
      notes: item.notes,
    },
    customer,
    // "New quote" for the item: not for an archived customer or an item at an archived location.
    canQuote: !customer.archived && !item.locationArchived,
    newQuoteKey: crypto.randomUUID(),
    more: history.more,
    quotes: history.quotes.map((quote) => ({
      id: quote.id,
      numberLabel: quote.numberLabel,
      status: quote.status,
      total: formatCents(quote.totalCents),
      date: formatLocalDate(quote.date),
      workOrder: quote.workOrder
        ? {
            id: quote.workOrder.id,
            numberLabel: quote.workOrder.numberLabel,
            state: quote.workOrder.state === 'completed' ? 'Completed' : 'Open',
          }
        : null,
      partsFitted: quote.partsFitted.map((part) => ({ ...part, date: formatLocalDate(part.date) })),
    })),
  }
}
