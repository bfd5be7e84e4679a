import { Button, Link, Text } from '@react-email/components'
import { createElement } from 'react'
import type { CardEmailProps } from '~/mail/templates'
import { EmailLayout } from './layout'

/**
 * Card payments' emails (docs/billing.md): a link to save a card for automatic payments, and "Payment failed" to the
 * customer and to the office. Plain props only: the model that queues them has already read what they say.
 */
export function cardEmail({ subject, ...props }: CardEmailProps) {
  return { subject, react: createElement(CardEmail, props) }
}

function CardEmail({ heading, lines, actionLabel, url, footer, brand }: Omit<CardEmailProps, 'subject'>) {
  return (
    <EmailLayout preview={lines[0] ?? heading} heading={heading} footer={footer} brand={brand}>
      {lines.map((line) => (
        <Text key={line} style={{ fontSize: 15, color: '#334155' }}>
          {line}
        </Text>
      ))}
      <Button
        href={url}
        style={{ backgroundColor: '#0e7490', color: '#ffffff', borderRadius: 8, padding: '12px 20px', fontWeight: 600 }}
      >
        {actionLabel}
      </Button>
      <Text style={{ fontSize: 13, color: '#64748b' }}>
        Or paste this link into your browser: <Link href={url}>{url}</Link>
      </Text>
    </EmailLayout>
  )
}
