// The emails Pool Bud sends, by name, with the plain props each one is rendered from. This is the contract between
// the code that decides to send (models, auth) and the templates that draw (app/emails/): models name a template and
// hand it props; `app/emails/templates.server.ts` registers how each name renders. So models never import a
// template, and a template never imports a model (issue 16, docs/architecture.md). Types only: nothing here runs.
import type { ReadingSummary } from '~/water/summary'
import type { Reading } from '~/water/targets'

/** What an invitation is for; the server sets it, never the visitor. */
export type InviteMetadata =
  | { kind: 'customer'; companyName: string }
  | { kind: 'staff'; companyName: string; roleLabel: string }
  | { kind: 'owner'; companyName: string }
  | { kind: 'platform-admin' }

/**
 * The header of a customer email (docs/decisions/044-company-brand.md): the company's name and, when it has one, its
 * logo (`cid:` of the inline attachment). Staff and account emails have none and show Pool Bud.
 */
export type EmailBrandProps = { companyName: string; logoSrc: string | null }

export type ActionLinkEmailProps = {
  subject: string
  heading: string
  intro: string
  actionLabel: string
  url: string
  expiry: string
}

export type InvoiceEmailProps = {
  companyName: string
  numberLabel: string
  periodLabel: string | null
  /** The company's wording for "Invoice sent" (Settings → "Customer notices"). */
  message: string
  lines: { description: string; amount: string }[]
  total: string
  amountDue: string
  dueDate: string
  payUrl: string
  /** "Note for customer" written on the draft (issue 31 item 1); absent or null when none. */
  note?: string | null
  brand?: EmailBrandProps
}

/** What the price-change email shows: plain, already formatted values. */
export type PriceChangeEmailProps = {
  companyName: string
  customerName: string
  /** "August 2026": the first month billed at the new prices. */
  firstMonth: string
  /** One line per pool: its address, the new rate and the current one ("$97.38 per visit", "$95.00 per visit"). */
  plans: { place: string; newRate: string; oldRate: string }[]
  brand?: EmailBrandProps
}

export type CardEmailProps = {
  subject: string
  heading: string
  lines: string[]
  actionLabel: string
  url: string
  footer: string
  /** Set for an email to a customer (card set-up, payment failed); the office's copy has none. */
  brand?: EmailBrandProps
}

/** The visit a service report describes: what the technician did, as the customer reads it. */
export type ServiceReportEmailProps = {
  report: {
    companyName: string
    customerName: string
    address: string
    timezone: string
    completedAt: Date
    technicianName: string | null
    /** The checklist items ticked, as labeled then. */
    checklist: string[]
    customerNote: string | null
    readings: (Reading & { takenAt: Date; summary: ReadingSummary })[]
    /** Null when the company does not itemize chemicals: the report then says nothing about them. */
    chemicals: { product: string; quantity: number; unit: string }[] | null
  }
  /** The photos in the email ("Before", "After"…), `cid:` links to inline attachments. */
  photos: { labelName: string; src: string }[]
  /** Photos of the visit not in the email (only in the portal). */
  morePhotos: number
  portalUrl: string
  brand?: EmailBrandProps
}

export type EmailTemplateProps = {
  'action-link': ActionLinkEmailProps
  invite: { url: string; invite: InviteMetadata }
  'join-invitation': { url: string; companyName: string; roleLabel: string }
  'address-taken': { companyName: string }
  'email-change-verification': { currentEmail: string; url: string; hours: number }
  'email-change-notice': { newEmail: string }
  invoice: InvoiceEmailProps
  notice: { heading: string; message: string; companyName: string; brand?: EmailBrandProps }
  card: CardEmailProps
  'price-change': PriceChangeEmailProps
  'service-report': ServiceReportEmailProps
}

export type EmailTemplateName = keyof EmailTemplateProps

/** One email to render: a template's name and its props, checked together. */
export type EmailContent = {
  [Name in EmailTemplateName]: { template: Name; props: EmailTemplateProps[Name] }
}[EmailTemplateName]
