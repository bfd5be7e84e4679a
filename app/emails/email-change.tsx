import { Text } from '@react-email/components'
import { createElement } from 'react'
import { ActionLinkEmail } from './action-link-email'
import { EmailLayout } from './layout'

/** To the NEW address: the one link that moves the sign-in email here. */
export function emailChangeVerificationEmail({
  currentEmail,
  url,
  hours,
}: {
  currentEmail: string
  url: string
  hours: number
}) {
  return {
    subject: 'Confirm your new Pool Bud email address',
    react: createElement(ActionLinkEmail, {
      heading: 'Confirm your new email address',
      intro: `Someone signed in as ${currentEmail} asked to log in to Pool Bud with this address from now on. Confirm it and your sign-in email changes; until then ${currentEmail} keeps working.`,
      actionLabel: 'Confirm my new email',
      url,
      expiry: `This link works once and expires in ${hours} hours. If you did not ask for this, ignore this email and nothing changes.`,
    }),
  }
}

/** To the CURRENT address: a notice without a link, so a stolen session cannot be confirmed from here. */
export function EmailChangeNotice({ newEmail }: { newEmail: string }) {
  const intro = `Someone signed in to your Pool Bud account asked to change its sign-in email to ${newEmail}.`
  return (
    <EmailLayout
      preview={intro}
      heading="Your sign-in email may change"
      footer="We sent this to the address you log in with now, because it is the one that can tell us a change was not yours."
    >
      <Text style={{ fontSize: 15, color: '#334155' }}>{intro}</Text>
      <Text style={{ fontSize: 15, color: '#334155' }}>
        Nothing changes until the link we sent to {newEmail} is followed. Until then you keep logging in with this
        address.
      </Text>
      <Text style={{ fontSize: 15, color: '#334155' }}>
        If this was not you, someone else may be signed in as you: choose a new password with “Forgot password?” on the
        login page (that signs out everyone else) and tell your company’s owner or admin right away.
      </Text>
    </EmailLayout>
  )
}

export function emailChangeNoticeEmail({ newEmail }: { newEmail: string }) {
  return {
    subject: 'Your Pool Bud sign-in email is about to change',
    react: createElement(EmailChangeNotice, { newEmail }),
  }
}
