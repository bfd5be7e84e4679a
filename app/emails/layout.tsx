import { Body, Container, Head, Heading, Html, Preview, Section, Text } from '@react-email/components'
import type { ReactNode } from 'react'

/** The frame every Pool Bud email shares. */
export function EmailLayout({
  preview,
  heading,
  children,
  footer = 'You received this email because of an action on Pool Bud. If it wasn’t you, you can ignore it.',
}: {
  preview: string
  heading: string
  children: ReactNode
  /** The closing line; a security notice replaces the default "you can ignore it". */
  footer?: string
}) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body
        style={{ backgroundColor: '#f1f5f9', fontFamily: 'Helvetica, Arial, sans-serif', margin: 0, padding: '24px 0' }}
      >
        <Container style={{ backgroundColor: '#ffffff', borderRadius: 12, padding: 32, maxWidth: 520 }}>
          <Text style={{ color: '#0e7490', fontWeight: 700, fontSize: 18, margin: 0 }}>Pool Bud</Text>
          <Heading as="h1" style={{ fontSize: 22, color: '#0f172a' }}>
            {heading}
          </Heading>
          <Section>{children}</Section>
          <Text style={{ color: '#64748b', fontSize: 12, marginTop: 32 }}>{footer}</Text>
        </Container>
      </Body>
    </Html>
  )
}
