import { afterEach, describe, expect, it, vi } from 'vitest'
import { inviteCustomer } from '~/models/invitation.server'
import { logger } from '~/utils/logger.server'
import { failure } from '~/utils/result'
import { sendPortalInvite } from './portal-invite.server'

vi.mock('~/models/invitation.server', () => ({ inviteCustomer: vi.fn() }))

afterEach(() => vi.restoreAllMocks())

describe('sendPortalInvite', () => {
  it('notes a refusal in the log once, and leaves an unexpected error to the log line inviteCustomer wrote', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined)
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined)
    vi.mocked(inviteCustomer).mockResolvedValueOnce(failure('invalid', 'Add an email address to this customer first.'))
    expect(await sendPortalInvite('company', 'customer')).toEqual(
      failure('invalid', 'Add an email address to this customer first.'),
    )
    expect(warn).toHaveBeenCalledTimes(1)

    vi.mocked(inviteCustomer).mockResolvedValueOnce(failure('failed', 'Unable to send invite.'))
    expect(await sendPortalInvite('company', 'customer')).toEqual(failure('failed', 'Unable to send invite.'))
    expect(warn).toHaveBeenCalledTimes(1)
    expect(error).not.toHaveBeenCalled()
  })
})
