// A message that an action leaves for the page it redirects to (shown once, then gone). The shape is shared by the
// server module that writes it and the component that shows it.
export type FlashTone = 'success' | 'error' | 'info'

export type Flash = {
  /** New for every message, so the page shows a second identical message again (and React re-renders it). */
  id: string
  tone: FlashTone
  text: string
}

export function isFlash(value: unknown): value is Flash {
  if (!value || typeof value !== 'object') return false
  const { id, tone, text } = value as Record<string, unknown>
  return (
    typeof id === 'string' &&
    typeof text === 'string' &&
    (tone === 'success' || tone === 'error' || tone === 'info') &&
    text.length <= 500
  )
}
