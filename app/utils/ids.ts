const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether a URL parameter can be a record id; anything else is simply "not found" (never a database error). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value)
}
