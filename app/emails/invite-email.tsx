import { Text } from '@react-email/components'
import { createElement } from 'react'
import type { InviteMetadata } from '~/mail/templates'
import { ActionLinkEmail } from './action-link-email'
import { EmailLayout } from './layout'

// Invitation emails go to addresses the sender chooses, so they must not carry the sender's own words (security
// review F7: a trial owner could relay spam). Only the company name reaches them, as plain text, cut to
// EMAIL_NAME_MAX characters and replaced by a neutral phrase when it looks like something a mail program turns
// into a link. The inviter's and invitee's names are left out: the invitee knows their name, and who invites
// them is the company (decision 011).

/** Longest company name an email shows (longer ones are cut with "…"). */
export const EMAIL_NAME_MAX = 60

const NEUTRAL_COMPANY = 'a pool company'

/**
 * What mail programs turn into links: a scheme (`https:`, `mailto:`…), `www.`, an address, a domain-like
 * `word.tld` (any of the dots mail programs accept), or a phone number of 7 or more digits.
 */
const LINK_LIKE = [
  /(?:[a-z][a-z0-9+.-]*:\/\/|\b(?:mailto|tel|sms|callto|javascript|data):)/i,
  /www[.\u3002\uff0e\uff61]/i,
  /@/,
  /[\p{L}\p{N}-][.\u3002\uff0e\uff61]\p{L}{2,}/u,
  /\d(?:[\s().-]*\d){6,}/,
]

/** A company name as an invitation email shows it (plain text; React escapes it). */
export function emailSafeName(raw: string) {
  const name = raw
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    // Other control and format characters (bidi overrides, zero-width joiners…) are dropped.
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
  if (!name || LINK_LIKE.some((pattern) => pattern.test(name))) return NEUTRAL_COMPANY
  return name.length > EMAIL_NAME_MAX ? `${name.slice(0, EMAIL_NAME_MAX - 1).trimEnd()}…` : name
}

const EXPIRY = 'This link works once and expires in 7 days.'

/** Subject and body of an invitation email with its one-time link (customer portal, teammate, owner, admin). */
export function inviteEmail(url: string, invite: InviteMetadata) {
  if (invite.kind === 'customer') {
    const company = emailSafeName(invite.companyName)
    return {
      subject: `${company} invited you to your pool's portal`,
      react: createElement(ActionLinkEmail, {
        heading: 'Your pool, online',
        intro: `${company} uses Pool Bud. Open your portal to see every visit, the water chemistry and before/after photos of your pool.`,
        actionLabel: 'Set up my portal',
        url,
        expiry: EXPIRY,
      }),
    }
  }
  if (invite.kind === 'staff') {
    const company = emailSafeName(invite.companyName)
    return {
      subject: `Join ${company} on Pool Bud`,
      react: createElement(ActionLinkEmail, {
        heading: `Join ${company}`,
        intro: `${company} added you to their team on Pool Bud as ${invite.roleLabel}. Open the link to set up your account.`,
        actionLabel: 'Set up my account',
        url,
        expiry: EXPIRY,
      }),
    }
  }
  if (invite.kind === 'platform-admin') {
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
      heading: `Set up ${emailSafeName(invite.companyName)}`,
      intro: 'You have been invited to Pool Bud. Open the link to finish setting up your account.',
      actionLabel: 'Set up my account',
      url,
      expiry: EXPIRY,
    }),
  }
}

/**
 * To an account that exists already: sign in and accept. The link is the plain page (no token): nothing changes
 * for the account until its owner, signed in, accepts.
 */
export function joinInvitationEmail({
  url,
  companyName,
  roleLabel,
}: {
  url: string
  companyName: string
  roleLabel: string
}) {
  const company = emailSafeName(companyName)
  return {
    subject: `${company} invited you to join them on Pool Bud`,
    react: createElement(ActionLinkEmail, {
      heading: `Join ${company}`,
      intro: `${company} invited you to join their team on Pool Bud as ${roleLabel}. Log in with your Pool Bud account to accept or decline; nothing changes until you accept.`,
      actionLabel: 'See the invitation',
      url,
      expiry: 'The invitation stays open until you accept or decline it.',
    }),
  }
}

/**
 * To an address that already belongs to another Pool Bud account (another company's member, a customer, a platform
 * admin): the inviter was told the same as for a new address, and the address's owner learns what happened.
 */
export function addressTakenEmail({ companyName }: { companyName: string }) {
  const company = emailSafeName(companyName)
  return {
    subject: `${company} tried to invite you to Pool Bud`,
    react: (
      <EmailLayout
        preview={`${company} tried to invite this address to their team.`}
        heading="An invitation was not sent"
      >
        <Text style={{ fontSize: 15, color: '#334155' }}>
          {company} tried to invite this address to their team on Pool Bud, but it is already used by another Pool Bud
          account, so nothing changed. If you want to join them, ask them to invite a different address.
        </Text>
      </EmailLayout>
    ),
  }
}
