/**
 * A form's fields as typed, for a queued change (`{ type: 'reading', fields }`…): the server parses them with the
 * form's own schema. The route's plumbing (intent, the plain form's idempotencyKey) stays out: the queue has its
 * own key.
 */
export function formFields(formData: FormData) {
  const fields: Record<string, string> = {}
  for (const [name, value] of formData) {
    if (name === 'intent' || name === 'idempotencyKey' || typeof value !== 'string') continue
    fields[name] = value
  }
  return fields
}
