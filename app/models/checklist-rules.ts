// The rules of a company's checklist (docs/product.md "The visit") that the model enforces and the settings page shows,
// in words both say the same way. Safe in the browser: no database here.

/** The most items a checklist holds: more would not fit a technician's screen, nor their visit. */
export const CHECKLIST_LIMIT = 30
/** The longest label (the table's check says the same). */
export const CHECKLIST_LABEL_MAX = 80

export const CHECKLIST_MESSAGES = {
  blank: 'Enter the checklist item.',
  tooLong: `Use at most ${CHECKLIST_LABEL_MAX} characters.`,
  full: `The checklist holds at most ${CHECKLIST_LIMIT} items. Remove one first.`,
  notFound: 'That checklist item does not exist.',
  removed: 'That checklist item was removed.',
} as const

export const duplicateLabelMessage = (label: string) => `“${label}” is already on the checklist.`
