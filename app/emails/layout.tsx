import { Body, Container, Head, Heading, Html, Img, Preview, Section, Text } from '@react-email/components'
import type { ReactNode } from 'react'
import type { EmailBrandProps } from '~/mail/templates'

/**
 * The frame every email shares. A customer email opens with its company's logo and name (`brand`,
 * docs/decisions/044-company-brand.md); staff and account emails with Pool Bud's.
 */
export function EmailLayout({
  preview,
  heading,
  children,
  brand,
  footer = 'You received this email because of an action on Pool Bud. If it wasn’t you, you can ignore it.',
}: {
  preview: string
  heading: string
  children: ReactNode
  /** The closing line; a security notice replaces the default "you can ignore it". */
  footer?: string
  brand?: EmailBrandProps | undefined
}) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body
        style={{ backgroundColor: '#f1f5f9', fontFamily: 'Helvetica, Arial, sans-serif', margin: 0, padding: '24px 0' }}
      >
        <Container style={{ backgroundColor: '#ffffff', borderRadius: 12, padding: 32, maxWidth: 520 }}>
          {brand?.logoSrc ? (
            <Img
              src={brand.logoSrc}
              alt={`${brand.companyName} logo`}
              height={48}
              style={{ height: 48, width: 'auto', maxWidth: 240, marginBottom: 8 }}
            />
          ) : null}
          <Text style={{ color: '#0e7490', fontWeight: 700, fontSize: 18, margin: 0 }}>
            {brand ? brand.companyName : 'Pool Bud'}
          </Text>
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
