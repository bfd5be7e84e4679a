import { Button, Link, Text } from '@react-email/components'
import { createElement } from 'react'
import type { ActionLinkEmailProps } from '~/mail/templates'
import { EmailLayout } from './layout'

/** Subject and body of an email whose point is one link (a password reset, a test's sample). */
export function actionLinkEmail({ subject, ...props }: ActionLinkEmailProps) {
  return { subject, react: createElement(ActionLinkEmail, props) }
}

/** An email whose point is one link: confirm an address, reset a password, accept an invite. */
export function ActionLinkEmail({
  heading,
  intro,
  actionLabel,
  url,
  expiry,
}: {
  heading: string
  intro: string
  actionLabel: string
  url: string
  expiry: string
}) {
  return (
    <EmailLayout preview={intro} heading={heading}>
      <Text style={{ fontSize: 15, color: '#334155' }}>{intro}</Text>
      <Button
        href={url}
        style={{ backgroundColor: '#0e7490', color: '#ffffff', borderRadius: 8, padding: '12px 20px', fontWeight: 600 }}
      >
        {actionLabel}
      </Button>
      <Text style={{ fontSize: 13, color: '#64748b' }}>
        Or paste this link into your browser: <Link href={url}>{url}</Link>
      </Text>
      <Text style={{ fontSize: 13, color: '#64748b' }}>{expiry}</Text>
    </EmailLayout>
  )
}
