// "New quote" on a customer record, or on one of its equipment items (issue 33 items 2 and 7): posts to the quotes
// page, which opens the new draft — linked to the equipment when started from it. The form's idempotency key makes a
// double click start one quote.
import { Form, useNavigation } from 'react-router'
import { IdempotencyKeyInput } from '~/components/idempotency-key'
import { Button } from '~/components/ui/button'
import { usePosting } from '~/components/ui/form'

export function NewQuoteButton({
  customerId,
  equipmentId,
  idempotencyKey,
  context,
}: {
  customerId: string
  /** The equipment item the quote is for, when started from it. */
  equipmentId?: string
  idempotencyKey: string
  /** Said to screen readers after "New quote" when several buttons share the page ("for Pentair pump"). */
  context?: string
}) {
  const navigation = useNavigation()
  // Only the button pressed says "Starting…" when a record shows several.
  const posting = usePosting('create') && (navigation.formData?.get('equipmentId') ?? undefined) === equipmentId
  return (
    <Form method="post" action="/app/quotes">
      <input type="hidden" name="intent" value="create" />
      <input type="hidden" name="customerId" value={customerId} />
      {equipmentId ? <input type="hidden" name="equipmentId" value={equipmentId} /> : null}
      <IdempotencyKeyInput value={idempotencyKey} />
      <Button
        type="submit"
        variant="secondary"
        pending={posting}
        pendingLabel="Starting…"
        aria-label={context ? `New quote ${context}` : undefined}
      >
        New quote
      </Button>
    </Form>
  )
}
