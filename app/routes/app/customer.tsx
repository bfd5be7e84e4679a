// /app/customers/:customerId: one customer's record (OPERATIONS §2). Contact details, each service location with
// what the technician needs at the gate, its bodies of water and their equipment, its service plan, the upcoming
// visits and a page of visit history; its billing — the balance in the header, "Invoices", "Payments" and "Record
// payment" (OPERATIONS §8, app/features/billing/customer-billing.tsx); "Archive customer" / "Restore customer". One
// piece is edited or added at a time: `?edit=…` / `?add=…` opens its form in place (a link, so it works before
// JavaScript and survives a reload); saving redirects back to the record with a message.
import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod/v4'
import { type ReactNode, useState } from 'react'
import { data, Form, Link, useNavigation } from 'react-router'
import type { z } from 'zod'
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { Pager } from '~/components/pager'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button, ButtonLink, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { rowLinkTarget, textLinkTarget } from '~/components/ui/touch'
import { AutopayOffice } from '~/features/billing/autopay-office'
import { CustomerBilling, RECORD_PAYMENT_OPEN } from '~/features/billing/customer-billing'
import { loadCustomerBilling } from '~/features/billing/customer-billing.server'
import { recordPaymentFromForm } from '~/features/billing/record-payment.server'
import {
  BodyOfWaterFields,
  ContactFields,
  EquipmentFields,
  LocationFields,
  parseCustomerForm,
} from '~/features/customers/form-fields'
import { describePlan } from '~/features/customers/plan-summary'
import { ServicePlansSection } from '~/features/customers/service-plans-section'
import { CustomerMessages } from '~/features/notices/customer-messages'
import { loadCustomerMessages } from '~/features/notices/customer-messages.server'
import { NoticePreferenceSchema } from '~/features/notices/notice-preference-schema'
import { addBodyOfWater, removeBodyOfWater, updateBodyOfWater } from '~/models/body-of-water.server'
import { autopayState } from '~/models/card-checkout.server'
import {
  archiveCustomer,
  type CustomerRecord,
  getCustomer,
  getCustomerRecord,
  restoreCustomer,
  updateCustomerContact,
} from '~/models/customer.server'
import { setCustomerNoticeChannel } from '~/models/customer-messages.server'
import { BodyOfWaterSchema, ContactSchema, EquipmentSchema, ServiceLocationSchema } from '~/models/customer-schemas'
import { addEquipment, removeEquipment, updateEquipment } from '~/models/equipment.server'
import { addServiceLocation, removeServiceLocation, updateServiceLocation } from '~/models/service-location.server'
import { createServicePlan, endServicePlan } from '~/models/service-plan.server'
import { EndPlanSchema, type ServicePlanInput, ServicePlanSchema } from '~/models/service-plan-schemas'
import { listTechnicians } from '~/models/visit.server'
import { localDateAt } from '~/schedule/local-date'
import { formatDate, formatDateTime } from '~/utils/dates'
import { redirectWithFlash } from '~/utils/flash.server'
import { readForm } from '~/utils/forms'
import { formatCents } from '~/utils/money'
import { can } from '~/utils/permissions'
import { formatPhone } from '~/utils/phone'
import { type Failure, failureStatus, type Result } from '~/utils/result'
import type { Route } from './+types/customer'

function readHistoryPage(url: URL) {
  const page = Number.parseInt(url.searchParams.get('history') ?? '1', 10)
  return Number.isFinite(page) && page > 0 ? Math.min(page, 100_000) : 1
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { companyId, timezone, role } = await requireCompanyCapability(request, 'customers:manage')
  const url = new URL(request.url)
  const today = localDateAt(new Date(), timezone)
  const customerId = params.customerId
  const [record, technicians, billing] = await Promise.all([
    getCustomerRecord({ companyId, customerId, historyPage: readHistoryPage(url) }),
    listTechnicians(companyId),
    loadCustomerBilling({ companyId, customerId, role, today }),
  ])
  // Another company's customer (or a made-up id) does not exist for this user.
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

/** A balance as the header says it: what is owed, or the credit the customer has. */
function balanceText(cents: number) {
  return cents < 0 ? `${formatCents(-cents)} credit` : formatCents(cents)
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
        label: location.label ?? '',
        street: location.street,
        city: location.city ?? '',
        state: location.state ?? '',
        postalCode: location.postalCode ?? '',
        gateCode: location.gateCode ?? '',
        accessNotes: location.accessNotes ?? '',
        dogOnSite: location.dogOnSite ? 'on' : '',
        minutesOnSite: String(location.minutesOnSite),
      },
      gateCode: location.gateCode,
      accessNotes: location.accessNotes,
      dogOnSite: location.dogOnSite,
      minutesOnSite: location.minutesOnSite,
      bodiesOfWater: location.bodiesOfWater.map((body) => ({
        id: body.id,
        name: body.name,
        gallons: body.gallons,
        surface: body.surface,
        sanitiser: body.sanitiser,
        indoor: body.indoor,
        form: {
          name: body.name,
          gallons: body.gallons?.toString() ?? '',
          surface: body.surface ?? '',
          sanitiser: body.sanitiser ?? '',
          indoor: body.indoor == null ? '' : body.indoor ? 'indoor' : 'outdoor',
        },
        equipment: body.equipment.map((item) => ({
          ...item,
          form: {
            kind: item.kind,
            make: item.make ?? '',
            model: item.model ?? '',
            serial: item.serial ?? '',
            installedOn: item.installedOn ?? '',
            notes: item.notes ?? '',
          },
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

// ---- Actions ----

const INTENTS = [
  'contact',
  'add-location',
  'edit-location',
  'remove-location',
  'add-body',
  'edit-body',
  'remove-body',
  'add-equipment',
  'edit-equipment',
  'remove-equipment',
  'add-plan',
  'end-plan',
  'archive',
  'restore',
  'notice-preference',
  'record-payment',
] as const
type Intent = (typeof INTENTS)[number]

const isIntent = (value: unknown): value is Intent => INTENTS.includes(value as Intent)

export async function action({ request, params }: Route.ActionArgs) {
  const { companyId } = await requireCompanyCapability(request, 'customers:manage')
  const customerId = params.customerId
  const formData = await readForm(request)
  const intent = formData.get('intent')
  if (!isIntent(intent)) return data({ intent: null, target: '', message: 'Unknown action.', result: undefined }, 400)
  const target = String(formData.get('targetId') ?? '')
  const back = `/app/customers/${customerId}`
  // Another company's customer is answered before anything is validated, exactly as a missing one.
  if (!(await getCustomer({ companyId, customerId }))) notFound()

  /**
   * A form's save: the schema's errors next to its fields, the model's answer by its code. `change` gets the parsed
   * value and the form as posted (for models that parse their input themselves).
   */
  async function save<S extends z.ZodType, T extends object = object>(
    schema: S,
    change: (value: z.output<S>, posted: Record<string, unknown>) => Promise<Result<T>>,
    message: string | ((done: T) => string),
  ) {
    const submission = parseCustomerForm(formData, schema)
    if (submission.status !== 'success') {
      return data({ intent, target, message: null, result: submission.reply() }, 400)
    }
    const result = await change(submission.value as z.output<S>, submission.payload)
    if (!result.ok) return refused(result, submission.reply({ formErrors: [result.message] }))
    return redirectWithFlash(back, typeof message === 'string' ? message : message(result))
  }

  /** A button's change (remove, archive): its answer by its code. */
  async function act(change: () => Promise<Result>, message: string) {
    const result = await change()
    if (!result.ok) return refused(result)
    return redirectWithFlash(back, message)
  }

  function refused(result: Failure, reply?: SubmissionResult<string[]>) {
    if (result.code === 'not-found') notFound()
    return data({ intent, target, message: result.message, result: reply }, failureStatus(result))
  }

  // Every change below is scoped to the company by its model.
  switch (intent) {
    case 'contact':
      return save(ContactSchema, (input) => updateCustomerContact({ companyId, customerId, input }), 'Customer saved.')
    case 'add-location':
      return save(
        ServiceLocationSchema,
        (input) => addServiceLocation({ companyId, customerId, input }),
        'Service location added.',
      )
    case 'edit-location':
      return save(
        ServiceLocationSchema,
        (input) => updateServiceLocation({ companyId, locationId: target, input }),
        'Service location saved.',
      )
    case 'remove-location':
      return act(() => removeServiceLocation({ companyId, locationId: target }), 'Service location removed.')
    case 'add-body':
      return save(
        BodyOfWaterSchema,
        (input) => addBodyOfWater({ companyId, locationId: target, input }),
        'Body of water added.',
      )
    case 'edit-body':
      return save(
        BodyOfWaterSchema,
        (input) => updateBodyOfWater({ companyId, bodyOfWaterId: target, input }),
        'Body of water saved.',
      )
    case 'remove-body':
      return act(() => removeBodyOfWater({ companyId, bodyOfWaterId: target }), 'Body of water removed.')
    case 'add-equipment':
      return save(
        EquipmentSchema,
        (input) => addEquipment({ companyId, bodyOfWaterId: target, input }),
        'Equipment added.',
      )
    case 'edit-equipment':
      return save(
        EquipmentSchema,
        (input) => updateEquipment({ companyId, equipmentId: target, input }),
        'Equipment saved.',
      )
    case 'remove-equipment':
      return act(() => removeEquipment({ companyId, equipmentId: target }), 'Equipment removed.')
    case 'add-plan':
      return save(
        ServicePlanSchema,
        (_, posted) => createServicePlan({ companyId, locationId: target }, posted as ServicePlanInput),
        ({ visits }) => `Service plan added. ${visits} ${visits === 1 ? 'visit' : 'visits'} scheduled.`,
      )
    case 'end-plan':
      return save(
        EndPlanSchema,
        (input) => endServicePlan({ companyId, planId: target, endsOn: input.endsOn }),
        'Service plan ended.',
      )
    case 'archive':
      return act(() => archiveCustomer({ companyId, customerId }), 'Customer archived.')
    case 'restore':
      return act(() => restoreCustomer({ companyId, customerId }), 'Customer restored.')
    case 'notice-preference':
      return save(
        NoticePreferenceSchema,
        ({ channel, enabled }) =>
          setCustomerNoticeChannel({ companyId, customerId, channel, enabled: enabled === 'on' }),
        ({ channel, enabled }) => `Notices by ${channel} turned ${enabled ? 'on' : 'off'}.`,
      )
    case 'record-payment': {
      // Dispatchers see the customer's billing; only owners and admins record money.
      const member = await requireCompanyCapability(request, 'billing:manage')
      const refused = await recordPaymentFromForm({ member, customerId, formData, back })
      return data({ intent, target: '', message: null, result: refused.result }, refused.status)
    }
  }
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.customer.customerName ?? 'Customer'} · Pool Bud` }]
}

// ---- The page ----

type PageData = Route.ComponentProps['loaderData']
type LocationData = PageData['locations'][number]
type BodyData = LocationData['bodiesOfWater'][number]
type EquipmentData = BodyData['equipment'][number]
type ActionData = Route.ComponentProps['actionData']

export default function CustomerRecordPage({ loaderData, actionData }: Route.ComponentProps) {
  const { customer } = loaderData
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link to="/app/customers" className={cn('text-sm font-medium text-brand-700 hover:underline', textLinkTarget)}>
          ← Customers
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-2xl font-bold wrap-anywhere">{customer.customerName}</h1>
          {customer.archived ? (
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-300">
              Archived{customer.archivedOn ? ` ${customer.archivedOn}` : ''}
            </span>
          ) : null}
        </div>
        {customer.balanceDue === null ? null : (
          <dl className="flex items-baseline gap-2">
            <dt className="text-sm font-medium text-slate-500">Balance</dt>
            <dd className="text-lg font-semibold tabular-nums">{customer.balanceDue}</dd>
          </dl>
        )}
      </div>
      <ContactCard data={loaderData} actionData={actionData} />
      <section aria-labelledby="locations-heading" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="locations-heading" className="text-xl font-semibold">
            Service locations
          </h2>
          {loaderData.open.add !== 'location' ? (
            <ButtonLink to="?add=location" variant="secondary" preventScrollReset>
              Add service location
            </ButtonLink>
          ) : null}
        </div>
        {loaderData.open.add === 'location' ? (
          <Card>
            <RecordForm
              intent="add-location"
              schema={ServiceLocationSchema}
              title="Add service location"
              submitLabel="Add service location"
              defaultValue={{ minutesOnSite: '30' }}
              actionData={actionData}
            >
              {(fields) => <LocationFields fields={fields} />}
            </RecordForm>
          </Card>
        ) : null}
        {loaderData.locations.map((location) => (
          <LocationCard key={location.id} location={location} data={loaderData} actionData={actionData} />
        ))}
      </section>
      <VisitsCard data={loaderData} />
      {loaderData.billing ? (
        <CustomerBilling
          data={loaderData.billing}
          customerId={customer.id}
          formOpen={loaderData.open.add === RECORD_PAYMENT_OPEN}
          lastResult={actionData?.intent === 'record-payment' ? actionData.result : undefined}
        />
      ) : null}
      <CustomerMessages
        data={loaderData.notices}
        refusal={actionData?.intent === 'notice-preference' ? (actionData.message ?? 'Choose on or off.') : null}
      />
      {loaderData.autopay ? (
        <AutopayOffice customerId={customer.id} autopay={loaderData.autopay} hasEmail={Boolean(customer.email)} />
      ) : null}
      <ArchiveCard data={loaderData} actionData={actionData} />
    </div>
  )
}

function ContactCard({ data, actionData }: { data: PageData; actionData: ActionData }) {
  const { customer } = data
  if (data.open.edit === 'contact') {
    return (
      <Card>
        <RecordForm
          intent="contact"
          schema={ContactSchema}
          title="Edit contact details"
          submitLabel="Save changes"
          defaultValue={{
            customerName: customer.customerName,
            email: customer.email ?? '',
            phone: customer.phone ?? '',
            billingAddress: customer.billingAddress ?? '',
            notes: customer.notes ?? '',
          }}
          actionData={actionData}
        >
          {(fields) => <ContactFields fields={fields} />}
        </RecordForm>
      </Card>
    )
  }
  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Contact details</h2>
        <div className="flex flex-wrap gap-1">
          <Link to={`/customer/${customer.id}`} className={linkClass}>
            Portal preview
          </Link>
          <EditLink to="?edit=contact" what="contact details" />
        </div>
      </div>
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <Detail label="Email">
          {customer.email ? <span className="break-all">{customer.email}</span> : 'Not given'}
        </Detail>
        <Detail label="Phone">
          {customer.phone ? (
            <a href={`tel:${customer.phoneHref}`} className="inline-flex min-h-11 items-center hover:underline">
              {customer.phone}
            </a>
          ) : (
            'Not given'
          )}
        </Detail>
        <Detail label="Billing address">{customer.billingAddress ?? 'Same as service address'}</Detail>
        <Detail label="Portal">
          {customer.portalStatus === 'active'
            ? 'Active'
            : customer.portalStatus === 'invited'
              ? 'Invited'
              : 'Not invited'}
        </Detail>
        {customer.notes ? (
          <Detail label="Notes" className="sm:col-span-2">
            <span className="whitespace-pre-line">{customer.notes}</span>
          </Detail>
        ) : null}
      </dl>
    </Card>
  )
}

function LocationCard({
  location,
  data,
  actionData,
}: {
  location: LocationData
  data: PageData
  actionData: ActionData
}) {
  const title = location.label ? `${location.label}: ${location.address}` : location.address
  const editing = data.open.edit === `location:${location.id}`
  return (
    <Card
      aria-labelledby={editing ? undefined : `location-${location.id}`}
      aria-label={editing ? location.address : undefined}
      className={cn('space-y-4', location.archived && 'bg-slate-50')}
    >
      {editing ? (
        <RecordForm
          intent="edit-location"
          targetId={location.id}
          schema={ServiceLocationSchema}
          title={`Edit ${location.address}`}
          submitLabel="Save changes"
          defaultValue={location.form}
          actionData={actionData}
        >
          {(fields) => <LocationFields fields={fields} />}
        </RecordForm>
      ) : (
        <>
          <div className="flex flex-wrap items-start justify-between gap-2">
            <h3 id={`location-${location.id}`} className="min-w-0 text-lg font-semibold wrap-anywhere">
              {title}
              {location.archived ? <span className="ml-2 text-sm font-normal text-slate-600">(archived)</span> : null}
            </h3>
            {location.archived ? null : (
              <div className="flex flex-wrap gap-1">
                <EditLink to={`?edit=location:${location.id}`} what={location.address} />
                <RemoveButton
                  intent="remove-location"
                  targetId={location.id}
                  what={location.address}
                  consequence="A location with past visits is archived instead, keeping its history; its upcoming visits are cancelled."
                  actionData={actionData}
                />
              </div>
            )}
          </div>
          <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <Detail label="Gate code">{location.gateCode ?? 'None'}</Detail>
            <Detail label="Dog on site">{location.dogOnSite ? 'Yes' : 'No'}</Detail>
            <Detail label="Minutes on site">{location.minutesOnSite}</Detail>
            <Detail label="Access notes" className="sm:col-span-2 lg:col-span-1">
              <span className="whitespace-pre-line">{location.accessNotes ?? 'None'}</span>
            </Detail>
          </dl>
        </>
      )}
      <div className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h4 className="font-semibold">Bodies of water</h4>
          {!location.archived && data.open.add !== `body:${location.id}` ? (
            <Link to={`?add=body:${location.id}`} className={linkClass} preventScrollReset>
              Add body of water<span className="sr-only"> at {location.address}</span>
            </Link>
          ) : null}
        </div>
        {data.open.add === `body:${location.id}` ? (
          <div className="rounded-lg border border-slate-200 p-4">
            <RecordForm
              intent="add-body"
              targetId={location.id}
              schema={BodyOfWaterSchema}
              title="Add body of water"
              submitLabel="Add body of water"
              defaultValue={{}}
              actionData={actionData}
            >
              {(fields) => <BodyOfWaterFields fields={fields} />}
            </RecordForm>
          </div>
        ) : null}
        {location.bodiesOfWater.length === 0 ? (
          <p className="text-sm text-slate-600">No bodies of water yet.</p>
        ) : (
          <ul className="space-y-3">
            {location.bodiesOfWater.map((body) => (
              <BodyItem key={body.id} body={body} data={data} actionData={actionData} readOnly={location.archived} />
            ))}
          </ul>
        )}
      </div>
      <ServicePlansSection
        location={location}
        open={data.open}
        technicians={data.technicians}
        today={data.today}
        actionData={actionData}
      />
    </Card>
  )
}

function describeBody(body: BodyData) {
  const parts = [
    body.gallons ? `${body.gallons.toLocaleString('en-US')} gallons` : null,
    body.surface,
    body.sanitiser,
    body.indoor == null ? null : body.indoor ? 'indoor' : 'outdoor',
  ].filter(Boolean)
  return parts.length ? parts.join(' · ') : 'No details yet'
}

function BodyItem({
  body,
  data,
  actionData,
  readOnly,
}: {
  body: BodyData
  data: PageData
  actionData: ActionData
  readOnly: boolean
}) {
  const editing = data.open.edit === `body:${body.id}`
  return (
    <li className="space-y-3 rounded-lg border border-slate-200 p-4">
      {editing ? (
        <RecordForm
          intent="edit-body"
          targetId={body.id}
          schema={BodyOfWaterSchema}
          title={`Edit ${body.name}`}
          submitLabel="Save changes"
          defaultValue={body.form}
          actionData={actionData}
        >
          {(fields) => <BodyOfWaterFields fields={fields} />}
        </RecordForm>
      ) : (
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="font-medium">{body.name}</p>
            <p className="text-sm text-slate-600">{describeBody(body)}</p>
          </div>
          {readOnly ? null : (
            <div className="flex flex-wrap gap-1">
              <EditLink to={`?edit=body:${body.id}`} what={body.name} />
              <RemoveButton
                intent="remove-body"
                targetId={body.id}
                what={body.name}
                consequence="Its equipment is removed with it."
                actionData={actionData}
              />
            </div>
          )}
        </div>
      )}
      <div className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h5 className="text-sm font-semibold text-slate-700">Equipment</h5>
          {!readOnly && data.open.add !== `equipment:${body.id}` ? (
            <Link to={`?add=equipment:${body.id}`} className={linkClass} preventScrollReset>
              Add equipment<span className="sr-only"> to {body.name}</span>
            </Link>
          ) : null}
        </div>
        {data.open.add === `equipment:${body.id}` ? (
          <RecordForm
            intent="add-equipment"
            targetId={body.id}
            schema={EquipmentSchema}
            title={`Add equipment to ${body.name}`}
            submitLabel="Add equipment"
            defaultValue={{}}
            actionData={actionData}
          >
            {(fields) => <EquipmentFields fields={fields} />}
          </RecordForm>
        ) : null}
        {body.equipment.length === 0 ? (
          <p className="text-sm text-slate-600">No equipment yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {body.equipment.map((item) => (
              <EquipmentItem key={item.id} item={item} data={data} actionData={actionData} readOnly={readOnly} />
            ))}
          </ul>
        )}
      </div>
    </li>
  )
}

function EquipmentItem({
  item,
  data,
  actionData,
  readOnly,
}: {
  item: EquipmentData
  data: PageData
  actionData: ActionData
  readOnly: boolean
}) {
  const name = [item.make, item.model].filter(Boolean).join(' ') || item.kind
  if (data.open.edit === `equipment:${item.id}`) {
    return (
      <li className="py-2">
        <RecordForm
          intent="edit-equipment"
          targetId={item.id}
          schema={EquipmentSchema}
          title={`Edit ${name}`}
          submitLabel="Save changes"
          defaultValue={item.form}
          actionData={actionData}
        >
          {(fields) => <EquipmentFields fields={fields} />}
        </RecordForm>
      </li>
    )
  }
  const details = [
    item.serial ? `serial ${item.serial}` : null,
    item.installedOn ? `installed ${item.installedOn}` : null,
  ].filter(Boolean)
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 py-2">
      <div className="min-w-0">
        <p>
          <span className="font-medium capitalize">{item.kind}</span>: {name}
        </p>
        {details.length ? <p className="text-slate-600">{details.join(' · ')}</p> : null}
        {item.notes ? <p className="whitespace-pre-line text-slate-600">{item.notes}</p> : null}
      </div>
      {readOnly ? null : (
        <div className="flex flex-wrap gap-1">
          <EditLink to={`?edit=equipment:${item.id}`} what={name} />
          <RemoveButton intent="remove-equipment" targetId={item.id} what={name} actionData={actionData} />
        </div>
      )}
    </li>
  )
}

function VisitsCard({ data }: { data: PageData }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">Upcoming visits</h2>
        {data.upcomingVisits.length === 0 ? (
          <p className="text-sm text-slate-600">No upcoming visits.</p>
        ) : (
          <VisitList visits={data.upcomingVisits} />
        )}
      </Card>
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">Visit history</h2>
        {data.visitHistory.rows.length === 0 ? (
          <p className="text-sm text-slate-600">No visits yet.</p>
        ) : (
          <VisitList visits={data.visitHistory.rows} />
        )}
        <Pager
          page={data.visitHistory.page}
          pageCount={data.visitHistory.pageCount}
          label="Visit history pages"
          param="history"
        />
      </Card>
    </div>
  )
}

function VisitList({ visits }: { visits: PageData['upcomingVisits'] }) {
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {visits.map((visit) => (
        <li
          key={visit.id}
          className="relative flex flex-wrap items-center justify-between gap-2 py-2 hover:bg-slate-50"
        >
          <div className="min-w-0">
            <Link
              to={`/app/jobs/${visit.id}`}
              className={cn('font-medium text-brand-700 hover:underline', rowLinkTarget)}
            >
              {visit.when}
            </Link>
            <p className="text-slate-600">
              {visit.technician} · {visit.address}
            </p>
          </div>
          <span
            className={cn(
              'rounded-full px-2 py-0.5 text-xs font-medium ring-1',
              visit.status === 'Completed' && 'bg-emerald-50 text-emerald-800 ring-emerald-200',
              visit.status === 'Cancelled' && 'bg-slate-100 text-slate-700 ring-slate-300',
              visit.status === 'Skipped' && 'bg-amber-50 text-amber-800 ring-amber-200',
              visit.status === 'Scheduled' && 'bg-brand-50 text-brand-900 ring-brand-100',
            )}
          >
            {visit.status}
          </span>
        </li>
      ))}
    </ul>
  )
}

/** "Archive customer" with what it does, asked before it is done; "Restore customer" for an archived one. */
function ArchiveCard({ data, actionData }: { data: PageData; actionData: ActionData }) {
  const [confirming, setConfirming] = useState(false)
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
  const { customer } = data
  const failed = actionData && (actionData.intent === 'archive' || actionData.intent === 'restore')
  return (
    <Card className="space-y-3">
      {customer.archived ? (
        <>
          <h2 className="text-lg font-semibold">Archived customer</h2>
          <p className="text-sm text-slate-600">
            Restoring puts {customer.customerName} back in the customer list and the job form, and lets them sign in to
            the portal again. Cancelled visits stay cancelled.
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="restore" />
            <Button type="submit" variant="secondary" pending={busy === 'restore'} pendingLabel="Restoring…">
              Restore customer
            </Button>
          </Form>
        </>
      ) : confirming ? (
        <Form method="post" className="space-y-3" onSubmit={() => setConfirming(false)}>
          <input type="hidden" name="intent" value="archive" />
          <h2 className="text-lg font-semibold">Archive {customer.customerName}?</h2>
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
            <li>
              Their future visits are cancelled
              {data.upcomingVisits.length ? ` (${data.upcomingVisits.length} booked)` : ''}.
            </li>
            <li>Their visit history is kept.</li>
            <li>Their portal access ends.</li>
            <li>They leave the customer list and the job form until restored.</li>
          </ul>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger">
              Yes, archive customer
            </Button>
            <Button type="button" variant="ghost" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        </Form>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-600">No longer a customer? Archive them; their history stays.</p>
          <Button
            type="button"
            variant="secondary"
            pending={busy === 'archive'}
            pendingLabel="Archiving…"
            onClick={() => setConfirming(true)}
          >
            Archive customer
          </Button>
        </div>
      )}
      {failed && actionData.message ? <Alert tone="error">{actionData.message}</Alert> : null}
    </Card>
  )
}

// ---- Pieces ----

const linkClass =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg px-2 text-sm font-medium text-brand-700 hover:underline'

function EditLink({ to, what }: { to: string; what: string }) {
  return (
    <Link to={to} className={linkClass} preventScrollReset>
      Edit<span className="sr-only"> {what}</span>
    </Link>
  )
}

function Detail({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={className}>
      <dt className="font-medium text-slate-500">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  )
}

/** "Remove", then a confirmation naming what goes, then the post. */
function RemoveButton({
  intent,
  targetId,
  what,
  consequence,
  actionData,
}: {
  intent: Intent
  targetId: string
  what: string
  consequence?: string
  actionData: ActionData
}) {
  const [confirming, setConfirming] = useState(false)
  const navigation = useNavigation()
  const pending =
    navigation.state === 'submitting' &&
    navigation.formData?.get('intent') === intent &&
    navigation.formData?.get('targetId') === targetId
  const refused = actionData?.intent === intent && actionData.target === targetId ? actionData.message : null
  if (!confirming) {
    return (
      <div className="space-y-1">
        <Button
          type="button"
          variant="ghost"
          pending={pending}
          pendingLabel="Removing…"
          onClick={() => setConfirming(true)}
        >
          Remove<span className="sr-only"> {what}</span>
        </Button>
        {refused ? <Alert tone="error">{refused}</Alert> : null}
      </div>
    )
  }
  return (
    <Form method="post" className="w-full space-y-2" onSubmit={() => setConfirming(false)}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="targetId" value={targetId} />
      <p className="text-sm text-slate-700">
        Remove {what}? {consequence}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger">
          Yes, remove
        </Button>
        <Button type="button" variant="ghost" onClick={() => setConfirming(false)}>
          Cancel
        </Button>
      </div>
    </Form>
  )
}

/**
 * One add or edit form of the record: its intent (and the record it changes) as hidden fields, the schema the
 * action parses with, the fields drawn by `children`, errors next to them and the model's refusal under them.
 */
function RecordForm<S extends z.ZodType>({
  intent,
  targetId = '',
  schema,
  title,
  submitLabel,
  defaultValue,
  actionData,
  children,
}: {
  intent: Intent
  targetId?: string
  schema: S
  title: string
  submitLabel: string
  defaultValue: Record<string, string>
  actionData: ActionData
  // biome-ignore lint/suspicious/noExplicitAny: the fieldset of the schema's fields, whichever schema it is.
  children: (fields: any) => ReactNode
}) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
  const mine = actionData?.intent === intent && actionData.target === targetId
  const [form, fields] = useForm({
    id: `${intent}-${targetId || 'new'}`,
    lastResult: mine ? actionData.result : undefined,
    defaultValue,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseCustomerForm(formData, schema),
  })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
      <h3 className="text-lg font-semibold">{title}</h3>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="targetId" value={targetId} />
      {children(fields)}
      {form.errors ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={saving} pendingLabel="Saving…">
          {submitLabel}
        </Button>
        <Link to="." className={buttonClass('secondary')} preventScrollReset>
          Cancel
        </Link>
      </div>
    </Form>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
