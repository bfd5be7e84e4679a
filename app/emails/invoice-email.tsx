import { Button, Column, Row, Section, Text } from '@react-email/components'
import { createElement } from 'react'
import type { InvoiceEmailProps } from '~/mail/templates'
import { EmailLayout } from './layout'

/** What the invoice email shows: plain, already formatted values (the email knows no model). */

const cell = { fontSize: 14, color: '#334155', padding: '4px 0' } as const

/** "Invoice sent" (docs/product.md "Notices"; docs/billing.md): the invoice itself, and where to see and pay it. */
export function invoiceEmail(props: InvoiceEmailProps) {
  return {
    subject: `${props.companyName}: invoice ${props.numberLabel}${props.periodLabel ? ` for ${props.periodLabel}` : ''}`,
    react: createElement(InvoiceEmail, props),
  }
}

function InvoiceEmail(props: InvoiceEmailProps) {
  return (
    <EmailLayout
      preview={`Invoice ${props.numberLabel}: ${props.amountDue} due ${props.dueDate}`}
      heading={`Invoice ${props.numberLabel}`}
      footer={`You receive this email because ${props.companyName} services your pool with Pool Bud.`}
      brand={props.brand ?? { companyName: props.companyName, logoSrc: null }}
    >
      <Text style={{ fontSize: 15, color: '#334155', whiteSpace: 'pre-line' }}>{props.message}</Text>
      <Section>
        {props.lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines are fixed for the email's lifetime
          <Row key={index}>
            <Column style={cell}>{line.description}</Column>
            <Column style={{ ...cell, textAlign: 'right', whiteSpace: 'nowrap' }}>{line.amount}</Column>
          </Row>
        ))}
        <Row>
          <Column style={{ ...cell, fontWeight: 700 }}>Total</Column>
          <Column style={{ ...cell, fontWeight: 700, textAlign: 'right' }}>{props.total}</Column>
        </Row>
      </Section>
      {props.note ? (
        <Text style={{ fontSize: 15, color: '#334155', whiteSpace: 'pre-line' }}>Note: {props.note}</Text>
      ) : null}
      <Text style={{ fontSize: 15, color: '#334155' }}>
        Amount due: <strong>{props.amountDue}</strong> by {props.dueDate}.
      </Text>
      <Button
        href={props.payUrl}
        style={{ background: '#0e7490', color: '#ffffff', padding: '12px 20px', borderRadius: 8, fontWeight: 600 }}
      >
        View invoice
      </Button>
    </EmailLayout>
  )
}
