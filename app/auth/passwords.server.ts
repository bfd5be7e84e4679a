import { getAuth } from '~/auth/better-auth.server'
import { checkNewPassword } from '~/utils/password-policy.server'

/**
 * Sets a user's password, creating the email-and-password login when they have none yet
 * (an invited member signs in through the invite link first, then chooses a password). Throws on a password the
 * policy refuses. Both writes go through better-auth's hooks, which void the person's outstanding invitation, setup
 * and reset links (sign-in-links.server.ts).
 */
export async function setUserPassword(userId: string, password: string) {
  // The forms refuse such a password first; this write goes around better-auth's endpoints and their hook.
  const policy = checkNewPassword(password)
  if (!policy.ok) throw new Error(policy.message)
  const context = await getAuth().$context
  const hash = await context.password.hash(password)
  const accounts = await context.internalAdapter.findAccounts(userId)
  const credential = accounts.find((account) => account.providerId === 'credential')
  if (credential) {
    await context.internalAdapter.updateAccount(credential.id, { password: hash })
  } else {
    await context.internalAdapter.linkAccount({ userId, providerId: 'credential', accountId: userId, password: hash })
  }
}
