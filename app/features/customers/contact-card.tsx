// "Contact details" on the customer record: email, phone, billing address, portal state and notes, with the portal
// preview and "Edit", which opens the contact form in place.
import { Link } from 'react-router'
import { Card } from '~/components/ui/card'
import { ContactSchema } from '~/models/customer-schemas'
import type { CustomerRecordData } from './customer-record.server'
import type { RecordActionData } from './customer-record-schema'
import { ContactFields } from './form-fields'
import { Detail, EditLink, RecordForm, recordLinkClass } from './record-form'

export function ContactCard({
  customer,
  editing,
  actionData,
}: {
  customer: CustomerRecordData['customer']
  editing: boolean
  actionData: RecordActionData
}) {
  if (editing) {
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
          <Link to={`/customer/${customer.id}`} className={recordLinkClass}>
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
