// The customer list's row button "Send portal invite" (posted to /app/customers): its intent and the customer it
// names, shared by the action and its test.
import { z } from 'zod'

export const INVITE_CUSTOMER_INTENT = 'invite'

/** Only the intent can be refused (an unknown one is a 400); a missing customer is the 404 page like another's. */
export const InviteCustomerSchema = z.object({
  intent: z.literal(INVITE_CUSTOMER_INTENT),
  customerId: z.string().default(''),
})
