// Sending a customer their portal invitation from a page (the list's row, "Add customer"): the inviter never throws
// at the page (an unexpected error is logged where it happens, in inviteCustomer, and answered as a failure); a
// refusal is noted in the log here.
import { inviteCustomer } from '~/models/invitation.server'
import { logger } from '~/utils/logger.server'
import type { Result } from '~/utils/result'

export async function sendPortalInvite(companyId: string, customerId: string): Promise<Result<{ message: string }>> {
  const result = await inviteCustomer({ companyId, customerId })
  if (!result.ok && result.code !== 'failed') {
    logger.warn({ customerId, message: result.message }, 'customer invite refused')
  }
  return result
}
