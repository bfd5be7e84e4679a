// Customer notice templates (docs/product.md "Notices", "Easy to get wrong"): the six events, which channels are on by
// default, the default wording, and rendering with placeholders. Rendering is plain-text substitution: placeholders are
// replaced once (a value that itself contains "{customer}" is never expanded again), values are collapsed to one line
// and trimmed, and nothing here produces HTML — the email layer escapes what it is given, as React does for any text.
export const NOTICE_EVENTS = [
  'on-my-way',
  'visit-completed',
  'visit-skipped',
  'visit-reminder',
  'invoice-sent',
  'payment-overdue',
] as const
export type NoticeEvent = (typeof NOTICE_EVENTS)[number]
export const NOTICE_CHANNELS = ['email', 'text'] as const
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number]

// {arrival}: a reminder's "Your technician should arrive between 10:00 AM and 12:00 PM." (empty without an ETA).
export const PLACEHOLDERS = ['customer', 'technician', 'eta', 'reason', 'company', 'link', 'arrival'] as const
export type Placeholder = (typeof PLACEHOLDERS)[number]
export type TemplateValues = Partial<Record<Placeholder, string | null | undefined>>

export const NOTICE_LABELS: Record<NoticeEvent, string> = {
  'on-my-way': 'On my way',
  'visit-completed': 'Visit completed',
  'visit-skipped': 'Visit skipped',
  'visit-reminder': 'Visit reminder',
  'invoice-sent': 'Invoice sent',
  'payment-overdue': 'Payment overdue',
}

/**
 * docs/product.md "Notices": email on for completed, skipped, invoice sent, payment overdue; texts on for "On my way"
 * and skipped.
 */
export const DEFAULT_CHANNELS: Record<NoticeEvent, Record<NoticeChannel, boolean>> = {
  'on-my-way': { email: false, text: true },
  'visit-completed': { email: true, text: false },
  'visit-skipped': { email: true, text: true },
  'visit-reminder': { email: false, text: false },
  'invoice-sent': { email: true, text: false },
  'payment-overdue': { email: true, text: false },
}

export const DEFAULT_TEMPLATES: Record<NoticeEvent, string> = {
  'on-my-way': '{company}: {technician} is on the way to service your pool, arriving about {eta}.',
  'visit-completed': '{company}: {technician} finished servicing your pool today. Your service report: {link}',
  'visit-skipped': '{company}: we could not service your pool today ({reason}). Questions? Reply or see {link}',
  'visit-reminder':
    '{company}: {technician} will service your pool tomorrow. {arrival} Please leave the gate unlocked.',
  'invoice-sent': '{company}: your invoice is ready. View and pay: {link}',
  'payment-overdue': '{company}: your invoice is past due. View and pay: {link}',
}

/** Templates are at most this long (a text of 10 segments; emails do not need more for a notice). */
export const MAX_TEMPLATE_LENGTH = 1530

const TOKEN = /\{([a-z]+)\}/g

/** Why a template typed in Settings cannot be saved, in words; null when it can. */
export function templateProblem(template: string): string | null {
  if (!template.trim()) return 'Write the message, or turn this notice off.'
  if (template.length > MAX_TEMPLATE_LENGTH) return `Use at most ${MAX_TEMPLATE_LENGTH} characters.`
  for (const [, name] of template.matchAll(TOKEN)) {
    if (!(PLACEHOLDERS as readonly string[]).includes(name as string)) {
      return `{${name}} is not a placeholder. Use ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}.`
    }
  }
  return null
}

/** A value as it may appear in a notice: one line (control characters and line breaks become spaces), trimmed. */
function oneLine(value: string) {
  return value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim()
}

/** The template with each known placeholder replaced by its value (empty when the value is missing), in one pass. */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template
    .replace(TOKEN, (token, name: string) => {
      if (!(PLACEHOLDERS as readonly string[]).includes(name)) return token
      const value = values[name as Placeholder]
      return value ? oneLine(value) : ''
    })
    .replace(/[ \t]{2,}/g, ' ')
    .trim()
}
