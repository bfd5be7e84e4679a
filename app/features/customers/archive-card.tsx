// "Archive customer" on the customer record, with what it does, asked before it is done; "Restore customer" for an
// archived one.
import { Form, useNavigation } from 'react-router'
import { ConfirmForm } from '~/components/confirm-buttons'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import type { CustomerRecordData } from './customer-record.server'
import type { RecordActionData } from './customer-record-schema'

export function ArchiveCard({
  customer,
  upcomingVisits,
  actionData,
}: {
  customer: Pick<CustomerRecordData['customer'], 'customerName' | 'archived'>
  /** How many future visits archiving cancels. */
  upcomingVisits: number
  actionData: RecordActionData
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
  const failed = actionData && (actionData.intent === 'archive' || actionData.intent === 'restore')
  return (
    <Card className="space-y-3">
      {customer.archived ? (
        <>
          <h2 className="text-lg font-semibold">Archived customer</h2>
          <p className="text-sm text-slate-600">
            Restoring puts {customer.customerName} back in the customer list and the visit form, and lets them sign in
            to the portal again. Canceled visits stay canceled.
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="restore" />
            <Button type="submit" variant="secondary" pending={busy === 'restore'} pendingLabel="Restoring…">
              Restore customer
            </Button>
          </Form>
        </>
      ) : (
        <ConfirmForm
          fields={{ intent: 'archive' }}
          lead={<p className="text-sm text-slate-600">No longer a customer? Archive them; their history stays.</p>}
          label="Archive customer"
          pendingLabel="Archiving…"
          className="space-y-3"
          question={
            <>
              <h2 className="text-lg font-semibold">Archive {customer.customerName}?</h2>
              <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
                <li>
                  Their future visits are canceled
                  {upcomingVisits ? ` (${upcomingVisits} booked)` : ''}.
                </li>
                <li>Their visit history is kept.</li>
                <li>Their portal access ends.</li>
                <li>They leave the customer list and the visit form until restored.</li>
              </ul>
            </>
          }
          confirm="Yes, archive customer"
        />
      )}
      {failed && actionData.message ? <Alert tone="error">{actionData.message}</Alert> : null}
    </Card>
  )
}
