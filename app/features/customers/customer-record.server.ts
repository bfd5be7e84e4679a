// What the customer record shows (docs/product.md "Customers"): the record as its page reads it — dates in the
// company's timezone, money and phones formatted, each piece's form values as the form's strings — with the customer's
// billing, notices and autopay for the roles that see them, and which form `?edit=…` / `?add=…` opens.
import { type CompanyMember, notFound } from '~/auth/guards.server'
import { percentText } from '~/billing/tax'
import { loadCustomerBilling } from '~/features/billing/customer-billing.server'
import { loadCustomerMessages } from '~/features/notices/customer-messages.server'
import { autopayState } from '~/models/card-checkout.server'
import { type CustomerRecord, getCustomerRecord } from '~/models/customer-record.server'
import { listTechnicians } from '~/models/week-board.server'
import { formatClock, wallMinutes } from '~/schedule/day-times'
import { localDateAt } from '~/schedule/local-date'
import { formatDate, formatDateTime } from '~/utils/dates'
import { equipmentLabel, warrantyText } from '~/utils/equipment'
import { formatCents } from '~/utils/money'
import { readPage } from '~/utils/paging'
import { can } from '~/utils/permissions'
import { formatPhone } from '~/utils/phone'
import { type PlanDraft, readPlanDraft } from './plan-suggest-links'
import { describePlan, planEditing } from './plan-summary'

/** `customerId`'s record for `member`; another company's customer (or a made-up id) does not exist for them. */
export async function loadCustomerRecord(member: CompanyMember, customerId: string, url: URL) {
  const { companyId, timezone, role } = member
  const today = localDateAt(new Date(), timezone)
  const [record, technicians, billing] = await Promise.all([
    getCustomerRecord({ companyId, customerId, historyPage: readPage(url, 'history') }),
    listTechnicians(companyId),
    loadCustomerBilling({ companyId, customerId, role, today }),
  ])
  if (!record) notFound()
  const rates = record.customer.companyTaxRates
  const notices = await loadCustomerMessages({ companyId, customerId, url })
  return {
    // Autopay is billing: owner and admin only.
    autopay: can(role, 'billing:manage') ? autopayState(record.customer.autopayCardLabel) : null,
    notices,
    billing,
    open: { edit: url.searchParams.get('edit') ?? '', add: url.searchParams.get('add') ?? '' },
    // "Add service plan" as it was typed, back from "Suggest a day and technician" without JavaScript.
    planDraft: (url.searchParams.get('add')?.startsWith('plan:') ? readPlanDraft(url.searchParams) : {}) as PlanDraft,
    today,
    technicians: technicians.map((technician) => ({ id: technician.id, name: technician.name ?? technician.email })),
    taxRates: taxRateChoices(rates),
    ...present(record, timezone, today, can(role, 'billing:balances'), rates),
  }
}

export type CustomerRecordData = Awaited<ReturnType<typeof loadCustomerRecord>>
export type LocationData = CustomerRecordData['locations'][number]
export type BodyOfWaterData = LocationData['bodiesOfWater'][number]
export type EquipmentData = BodyOfWaterData['equipment'][number]
export type VisitData = CustomerRecordData['upcomingVisits'][number]

type TaxRateChoice = { id: string; name: string; milliPercent: number; isDefault: boolean }

const rateLabel = (rate: TaxRateChoice) => `${rate.name} ${percentText(rate.milliPercent)} %`

/** The location form's "Tax rate" choices: "Company default (Tampa 7.5 %)" first, then every rate. */
function taxRateChoices(rates: readonly TaxRateChoice[]) {
  const fallback = rates.find((rate) => rate.isDefault)
  return {
    defaultLabel: `Company default (${fallback ? rateLabel(fallback) : 'no tax'})`,
    options: rates.map((rate) => ({ value: rate.id, label: rateLabel(rate) })),
  }
}

/** How a location's rate reads on the record. */
function taxRateText(rateId: string | null, rates: readonly TaxRateChoice[]) {
  const own = rateId ? rates.find((rate) => rate.id === rateId) : undefined
  return own ? rateLabel(own) : taxRateChoices(rates).defaultLabel
}

/** A balance as the header says it: what is owed, or the credit the customer has. */
function balanceText(cents: number) {
  return cents < 0 ? `${formatCents(-cents)} credit` : formatCents(cents)
}

/** A stored piece's values as its form's text: what is not set is an empty box. */
function formText<K extends string>(row: { [key in K]: string | number | null }, keys: readonly K[]) {
  return Object.fromEntries(keys.map((key) => [key, row[key] == null ? '' : String(row[key])])) as Record<K, string>
}

/** "10:00 AM–12:00 PM", or "Any time" (docs/routing.md: the route keeps the window). */
function arriveBetweenText(from: string | null, until: string | null) {
  const open = wallMinutes(from)
  const close = wallMinutes(until)
  if (open === null && close === null) return 'Any time'
  if (close === null) return `After ${formatClock(open as number)}`
  if (open === null) return `By ${formatClock(close)}`
  return `${formatClock(open)}–${formatClock(close)}`
}

/** How a location's position reads on the record (docs/subsystems.md, "Positions"). */
function positionText(location: { lat: number | null; lng: number | null; positionSource: string | null }) {
  if (location.lat === null || location.lng === null) return 'None: not routed'
  const where = `${location.lat.toFixed(5)}, ${location.lng.toFixed(5)}`
  if (location.positionSource === 'zip') return `Approximate: ZIP center (${where})`
  if (location.positionSource === 'manual') return `Set by hand (${where})`
  if (location.positionSource === 'geocoder') return `Street address (${where})`
  return where
}

/** The record as the page shows it: dates in the company's timezone, money and phones formatted. */
function present(
  record: CustomerRecord,
  timezone: string,
  today: string,
  showBalance: boolean,
  taxRates: readonly TaxRateChoice[],
) {
  const { customer } = record
  const visit = (row: CustomerRecord['upcomingVisits'][number]) => ({
    id: row.id,
    address: row.address,
    when: formatDateTime(row.scheduledAt, timezone),
    technician: row.technicianName ?? 'Unassigned',
    status: row.completedAt ? 'Completed' : row.skipReason ? 'Skipped' : row.canceledAt ? 'Canceled' : 'Scheduled',
  })
  return {
    customer: {
      id: customer.id,
      customerName: customer.customerName,
      email: customer.email,
      phone: customer.phone ? formatPhone(customer.phone) : null,
      phoneHref: customer.phone,
      billingAddress: customer.billingAddress,
      notes: customer.notes,
      archived: customer.status === 'archived',
      archivedOn: customer.archivedAt ? formatDate(customer.archivedAt, timezone) : null,
      // Dispatchers see balances; a role that may not (none opens the record today) gets nothing to show.
      balanceDue: showBalance ? balanceText(customer.balanceDue) : null,
      portalStatus: customer.portalStatus,
    },
    locations: record.locations.map((location) => ({
      id: location.id,
      label: location.label,
      address: location.address,
      archived: Boolean(location.archivedAt),
      form: {
        ...formText(location, [
          'label',
          'street',
          'city',
          'state',
          'postalCode',
          'lat',
          'lng',
          'gateCode',
          'accessNotes',
          'minutesOnSite',
        ]),
        dogOnSite: location.dogOnSite ? 'on' : '',
        // A time box takes "14:30"; the column reads "14:30:00".
        arriveFrom: location.arriveFrom?.slice(0, 5) ?? '',
        arriveUntil: location.arriveUntil?.slice(0, 5) ?? '',
        taxRateId: location.taxRateId ?? '',
        // A ZIP center is the address's doing, not a person's: the form shows it as "placed by address" (blank), so
        // "Adjust position" opens for a position still to fix and saving the form unchanged keeps it.
        ...(location.positionSource === 'zip' ? { lat: '', lng: '' } : {}),
      },
      gateCode: location.gateCode,
      accessNotes: location.accessNotes,
      dogOnSite: location.dogOnSite,
      minutesOnSite: location.minutesOnSite,
      arriveBetween: arriveBetweenText(location.arriveFrom, location.arriveUntil),
      taxRate: taxRateText(location.taxRateId, taxRates),
      position: positionText(location),
      // Where the pin of "Adjust position" starts while the boxes are blank: the ZIP center the location is routed at.
      approximatePoint:
        location.positionSource === 'zip' && location.lat !== null && location.lng !== null
          ? { lat: location.lat, lng: location.lng }
          : null,
      bodiesOfWater: location.bodiesOfWater.map((body) => ({
        id: body.id,
        name: body.name,
        gallons: body.gallons,
        surface: body.surface,
        sanitizer: body.sanitizer,
        indoor: body.indoor,
        form: {
          ...formText(body, ['name', 'gallons', 'surface', 'sanitizer']),
          indoor: body.indoor == null ? '' : body.indoor ? 'indoor' : 'outdoor',
        },
        equipment: body.equipment.map((item) => ({
          ...item,
          form: formText(item, ['kind', 'make', 'model', 'serial', 'installedOn', 'warrantyUntil', 'notes']),
          warranty: warrantyText(item.warrantyUntil, today),
          label: equipmentLabel(item),
          customerId: customer.id,
          // "New quote" for the item, as for the customer: not once they are archived.
          quotable: customer.status !== 'archived',
          // Each item's "New quote" has its own key: two items' forms never share one.
          newQuoteKey: crypto.randomUUID(),
        })),
      })),
      // A plan is current until its last day has passed; only a current one can be ended.
      plans: location.plans.map((plan) => ({
        ...describePlan(plan),
        current: !plan.endsOn || plan.endsOn >= today,
        ...planEditing(plan, today),
      })),
    })),
    upcomingVisits: record.upcomingVisits.map(visit),
    visitHistory: {
      page: record.visitHistory.page,
      pageCount: Math.max(1, Math.ceil(record.visitHistory.total / record.visitHistory.pageSize)),
      rows: record.visitHistory.rows.map(visit),
    },
  }
}
