// What "Assign and reschedule" says, as the model that saves it (visit-changes.server.ts `assignVisit`) and the form's schema
// (features/visits/assign-visit-schema.ts) both word it: one set of messages for the browser's check and the server's.

export const ASSIGN_MESSAGES = {
  schedule: 'Choose a date and time.',
  refused: 'Unable to save changes to this visit.',
  /** The loser of two simultaneous edits of one visit (decision 006); the page refreshes with the winner's. */
  conflict: 'Someone else changed this visit just now. Check its new details, then save again.',
} as const
