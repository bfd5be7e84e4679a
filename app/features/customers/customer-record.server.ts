// What the customer record shows (OPERATIONS §2): the record as its page reads it — dates in the company's
// timezone, money and phones formatted, each piece's form values as the form's strings — with the customer's
// billing, notices and autopay for the roles that see them, and which form `?edit=…` / `?add=…` opens.
import { type CompanyMember, notFound } from '~/auth/guards.server'
import { loadCustomerBilling } from '~/features/billing/customer-billing.server'
import { loadCustomerMessages } from '~/features/notices/customer-messages.server'
import { autopayState } from '~/models/card-checkout.server'
import { type CustomerRecord, getCustomerRecord } from '~/models/customer.server'
import { listTechnicians } from '~/models/visit.server'
import { localDateAt } from '~/schedule/local-date'
import { formatDate, formatDateTime } from '~/utils/dates'
import { formatCents } from '~/utils/money'
import { readPage } from '~/utils/paging'
import { can } from '~/utils/permissions'
import { formatPhone } from '~/utils/phone'
import { describePlan } from './plan-summary'

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
  const notices = await loadCustomerMessages({ companyId, customerId, url })
  return {
    // Autopay is billing: owner and admin only.
    autopay: can(role, 'billing:manage') ? autopayState(record.customer.autopayCardLabel) : null,
    notices,
    billing,
    open: { edit: url.searchParams.get('edit') ?? '', add: url.searchParams.get('add') ?? '' },
    today,
    technicians: technicians.map((technician) => ({ id: technician.id, name: technician.name ?? technician.email })),
    ...present(record, timezone, today, can(role, 'billing:balances')),
  }
}

export type CustomerRecordData = Awaited<ReturnType<typeof loadCustomerRecord>>
export type LocationData = CustomerRecordData['locations'][number]
export type BodyOfWaterData = LocationData['bodiesOfWater'][number]
export type EquipmentData = BodyOfWaterData['equipment'][number]
export type VisitData = CustomerRecordData['upcomingVisits'][number]

/** A balance as the header says it: what is owed, or the credit the customer has. */
function balanceText(cents: number) {
  return cents < 0 ? `${formatCents(-cents)} credit` : formatCents(cents)
}

/** A stored piece's values as its form's text: what is not set is an empty box. */
function formText<K extends string>(row: { [key in K]: string | number | null }, keys: readonly K[]) {
  return Object.fromEntries(keys.map((key) => [key, row[key] == null ? '' : String(row[key])])) as Record<K, string>
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
function present(record: CustomerRecord, timezone: string, today: string, showBalance: boolean) {
  const { customer } = record
  const visit = (row: CustomerRecord['upcomingVisits'][number]) => ({
    id: row.id,
    address: row.address,
    when: formatDateTime(row.scheduledAt, timezone),
    technician: row.technicianName ?? 'Unassigned',
    status: row.completedAt ? 'Completed' : row.skipReason ? 'Skipped' : row.cancelledAt ? 'Cancelled' : 'Scheduled',
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
        // A ZIP centre is the address's doing, not a person's: the form shows it as "placed by address" (blank), so
        // "Adjust position" opens for a position still to fix and saving the form unchanged keeps it.
        ...(location.positionSource === 'zip' ? { lat: '', lng: '' } : {}),
      },
      gateCode: location.gateCode,
      accessNotes: location.accessNotes,
      dogOnSite: location.dogOnSite,
      minutesOnSite: location.minutesOnSite,
      position: positionText(location),
      bodiesOfWater: location.bodiesOfWater.map((body) => ({
        id: body.id,
        name: body.name,
        gallons: body.gallons,
        surface: body.surface,
        sanitiser: body.sanitiser,
        indoor: body.indoor,
        form: {
          ...formText(body, ['name', 'gallons', 'surface', 'sanitiser']),
          indoor: body.indoor == null ? '' : body.indoor ? 'indoor' : 'outdoor',
        },
        equipment: body.equipment.map((item) => ({
          ...item,
          form: formText(item, ['kind', 'make', 'model', 'serial', 'installedOn', 'notes']),
        })),
      })),
      // A plan is current until its last day has passed; only a current one can be ended.
      plans: location.plans.map((plan) => ({
        ...describePlan(plan),
        current: !plan.endsOn || plan.endsOn >= today,
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
