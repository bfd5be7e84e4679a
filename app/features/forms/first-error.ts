// The one line a reply carries for a form refused as a whole (the form itself shows each error at its field).

/** The first message of a Conform submission's errors, field or form-level; `fallback` when there is none. */
export function firstError(error: Record<string, string[] | null> | null | undefined, fallback: string): string {
  return Object.values(error ?? {}).flat()[0] ?? fallback
}
