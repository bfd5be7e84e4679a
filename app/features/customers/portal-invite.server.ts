// Sending a customer their portal invitation from a page (the list's row, "Add customer"): the inviter never throws
// at the page — a failure is a message for the staff member, and a log line.
import { inviteCustomer } from '~/models/invitation.server'
import { logger } from '~/utils/logger.server'
import { failureStatus } from '~/utils/result'

export type InviteOutcome = { ok: boolean; message: string }

export async function sendPortalInvite(
  companyId: string,
  customerId: string,
): Promise<InviteOutcome & { status: number }> {
  try {
    const result = await inviteCustomer({ companyId, customerId })
    if (result.ok) return { ok: true, message: result.message, status: 200 }
    logger.warn({ customerId, message: result.message }, 'customer invite refused')
    return { ok: false, message: result.message, status: failureStatus(result) }
  } catch (error) {
    logger.error({ err: error, customerId }, 'customer invite failed')
    return { ok: false, message: 'Unable to send invite.', status: 500 }
  }
}
