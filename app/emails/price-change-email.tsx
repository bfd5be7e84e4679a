import { Column, Row, Section, Text } from '@react-email/components'
import { createElement } from 'react'
import type { PriceChangeEmailProps } from '~/mail/templates'
import { EmailLayout } from './layout'

const cell = { fontSize: 14, color: '#334155', padding: '4px 0' } as const

/**
 * "Notify customers" of Change prices (docs/billing.md). The wording, for the record:
 *   Subject: "<Company>: your pool service price from <Month Year>"
 *   "Hello <customer>, from <Month Year> your pool service will be billed at the new price below. Your invoices up
 *   to then stay at the current price. Questions? Reply to this email or give us a call. Thank you for choosing
 *   <Company>." — then each pool: its address, "<new> (now <old>)".
 */
export function priceChangeEmail(props: PriceChangeEmailProps) {
  return {
    subject: `${props.companyName}: your pool service price from ${props.firstMonth}`,
    react: createElement(PriceChangeEmail, props),
  }
}

function PriceChangeEmail(props: PriceChangeEmailProps) {
  return (
    <EmailLayout
      preview={`Your pool service price from ${props.firstMonth}`}
      heading="Your new pool service price"
      footer={`You receive this email because ${props.companyName} services your pool with Pool Bud.`}
      brand={props.brand ?? { companyName: props.companyName, logoSrc: null }}
    >
      <Text style={{ fontSize: 15, color: '#334155' }}>
        Hello {props.customerName}, from {props.firstMonth} your pool service will be billed at the new price below.
        Your invoices up to then stay at the current price.
      </Text>
      <Section>
        {props.plans.map((plan, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines are fixed for the email's lifetime
          <Row key={index}>
            <Column style={cell}>{plan.place}</Column>
            <Column style={{ ...cell, textAlign: 'right' }}>
              <strong>{plan.newRate}</strong> (now {plan.oldRate})
            </Column>
          </Row>
        ))}
      </Section>
      <Text style={{ fontSize: 15, color: '#334155' }}>
        Questions? Reply to this email or give us a call. Thank you for choosing {props.companyName}.
      </Text>
    </EmailLayout>
  )
}
