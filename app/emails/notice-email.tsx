import { Text } from '@react-email/components'
import { createElement } from 'react'
import { EmailLayout } from './layout'

/** A customer notice by email (OPERATIONS §6): the company's wording, as plain text (React escapes it). */
export function noticeEmail({
  heading,
  message,
  companyName,
}: {
  heading: string
  message: string
  companyName: string
}) {
  return {
    subject: `${companyName}: ${heading}`,
    react: createElement(NoticeEmail, { heading, message, companyName }),
  }
}

function NoticeEmail({ heading, message, companyName }: { heading: string; message: string; companyName: string }) {
  return (
    <EmailLayout
      preview={message}
      heading={heading}
      footer={`You receive this email because ${companyName} services your pool with Pool Bud.`}
    >
      <Text style={{ fontSize: 15, color: '#334155', whiteSpace: 'pre-line' }}>{message}</Text>
    </EmailLayout>
  )
}
