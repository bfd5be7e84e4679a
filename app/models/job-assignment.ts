// What "Assign and reschedule" says, as the model that saves it (job-changes.server.ts `assignJob`) and the form's schema
// (features/jobs/assign-job-schema.ts) both word it: one set of messages for the browser's check and the server's.

export const ASSIGN_MESSAGES = {
  schedule: 'Choose a date and time.',
  refused: 'Unable to save changes to this job.',
  /** The loser of two simultaneous edits of one job (decision 006); the page refreshes with the winner's. */
  conflict: 'Someone else changed this job just now. Check its new details, then save again.',
} as const
