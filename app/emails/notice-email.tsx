import { Text } from '@react-email/components'
import { createElement } from 'react'
import type { EmailTemplateProps } from '~/mail/templates'
import { EmailLayout } from './layout'

type NoticeEmailProps = EmailTemplateProps['notice']

/** A customer notice by email (docs/product.md "Notices"): the company's wording, as plain text (React escapes it). */
export function noticeEmail(props: NoticeEmailProps) {
  return { subject: `${props.companyName}: ${props.heading}`, react: createElement(NoticeEmail, props) }
}

function NoticeEmail({ heading, message, companyName, brand }: NoticeEmailProps) {
  return (
    <EmailLayout
      preview={message}
      heading={heading}
      footer={`You receive this email because ${companyName} services your pool with Pool Bud.`}
      brand={brand ?? { companyName, logoSrc: null }}
    >
      <Text style={{ fontSize: 15, color: '#334155', whiteSpace: 'pre-line' }}>{message}</Text>
    </EmailLayout>
  )
}
