import { createElement } from 'react'
import { ActionLinkEmail } from './action-link-email'

/**
 * What an invitation is for; the server sets it, never the visitor. `companyId` is the company it invites to: the
 * outbox tells that company's office if the email can never be delivered.
 */
export type InviteMetadata =
  | { kind: 'customer'; companyId: string; companyName: string; customerName: string }
  | { kind: 'staff'; companyId: string; companyName: string; roleLabel: string; inviterName: string }
  | { kind: 'owner'; companyId: string; companyName: string }
  | { kind: 'platform-admin' }

/** The company an invitation email is sent for (none for a platform administrator's). */
export function inviteCompanyId(metadata: Record<string, unknown> | undefined) {
  const invite = metadata as InviteMetadata | undefined
  return invite && 'companyId' in invite ? invite.companyId : null
}

const EXPIRY = 'This link works once and expires in 7 days.'

/** Subject and body of an invitation email (customer portal, teammate, or company owner). */
export function inviteEmail(url: string, metadata: Record<string, unknown> | undefined) {
  const invite = metadata as InviteMetadata | undefined
  if (invite?.kind === 'customer') {
    return {
      subject: `${invite.companyName} invited you to your pool's portal`,
      react: createElement(ActionLinkEmail, {
        heading: `Your pool, online`,
        intro: `Hi ${invite.customerName}, ${invite.companyName} uses Pool Bud. Open your portal to see every visit, the water chemistry and before/after photos of your pool.`,
        actionLabel: 'Set up my portal',
        url,
        expiry: EXPIRY,
      }),
    }
  }
  if (invite?.kind === 'staff') {
    return {
      subject: `Join ${invite.companyName} on Pool Bud`,
      react: createElement(ActionLinkEmail, {
        heading: `Join ${invite.companyName}`,
        intro: `${invite.inviterName} added you to ${invite.companyName} on Pool Bud as ${invite.roleLabel}. Open the link to set up your account.`,
        actionLabel: 'Set up my account',
        url,
        expiry: EXPIRY,
      }),
    }
  }
  if (invite?.kind === 'platform-admin') {
    return {
      subject: 'You are a Pool Bud platform administrator',
      react: createElement(ActionLinkEmail, {
        heading: 'Set up your administrator account',
        intro:
          'You are the platform administrator of this Pool Bud installation: you create companies and invite their owners. Open the link to choose your password.',
        actionLabel: 'Set up my account',
        url,
        expiry: EXPIRY,
      }),
    }
  }
  return {
    subject: 'Your Pool Bud account is ready',
    react: createElement(ActionLinkEmail, {
      heading: invite?.kind === 'owner' ? `Set up ${invite.companyName}` : 'Set up your account',
      intro: 'You have been invited to Pool Bud. Open the link to finish setting up your account.',
      actionLabel: 'Set up my account',
      url,
      expiry: EXPIRY,
    }),
  }
}
