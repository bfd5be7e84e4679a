// Drawing an email from its template's name and props (docs/subsystems.md "Email"): the templates are registered at
// start-up, so this layer names none; the queue and the worker's tasks both render through `renderEmail`.
import type { ReactElement } from 'react'
import type { EmailContent, EmailTemplateName, EmailTemplateProps } from '~/mail/templates'

/** How each named template turns its props into a subject and a React Email element. */
export type EmailTemplates = {
  [Name in EmailTemplateName]: (props: EmailTemplateProps[Name]) => { subject: string; react: ReactElement }
}

/**
 * The templates, registered once at start-up by `app/emails/templates.server.ts` (the server's start, the test set-up
 * and the scripts import it). This module sends email and knows no template, as models know none: they name one.
 */
let templates: EmailTemplates | null = null

export function registerEmailTemplates(registered: EmailTemplates) {
  templates = registered
}

/** Subject and both bodies of a named template, as the outbox stores them. */
export async function renderEmail(content: EmailContent) {
  if (!templates) throw new Error('No email templates registered: import "~/emails/templates.server" at start-up.')
  const draw = templates[content.template] as (props: EmailContent['props']) => { subject: string; react: ReactElement }
  const { subject, react } = draw(content.props)
  // Loaded with the first email drawn, not with this module: the models import it, and a script that uses them (the
  // bench's workloads) must not load React before it chooses React's production build.
  const { render } = await import('@react-email/render')
  const [html, text] = await Promise.all([render(react), render(react, { plainText: true })])
  return { subject, html, text }
}
