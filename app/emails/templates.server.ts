// Registers every email template under its name (app/mail/templates.ts), so the code that sends names a template
// and hands it plain props without importing it. Imported for its effect by the server's start, the test set-up and
// the scripts that queue email; `renderEmail` says so if it was not.
import { type EmailTemplates, registerEmailTemplates } from '~/outbox/email-render.server'
import { actionLinkEmail } from './action-link-email'
import { cardEmail } from './card-email'
import { emailChangeNoticeEmail, emailChangeVerificationEmail } from './email-change'
import { addressTakenEmail, inviteEmail, joinInvitationEmail } from './invite-email'
import { invoiceEmail } from './invoice-email'
import { noticeEmail } from './notice-email'
import { priceChangeEmail } from './price-change-email'
import { serviceReportEmail } from './service-report-email'

const EMAIL_TEMPLATES: EmailTemplates = {
  'action-link': actionLinkEmail,
  invite: ({ url, invite }) => inviteEmail(url, invite),
  'join-invitation': joinInvitationEmail,
  'address-taken': addressTakenEmail,
  'email-change-verification': emailChangeVerificationEmail,
  'email-change-notice': emailChangeNoticeEmail,
  invoice: invoiceEmail,
  notice: noticeEmail,
  card: cardEmail,
  'price-change': priceChangeEmail,
  'service-report': serviceReportEmail,
}

registerEmailTemplates(EMAIL_TEMPLATES)
