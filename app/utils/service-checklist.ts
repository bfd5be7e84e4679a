/** What a technician does on every visit: the job page's checklist and the service report's "work done". */
export const SERVICE_CHECKLIST = [
  'Vacuum pool',
  'Skim surface and empty baskets',
  'Brush walls',
  'Test and balance chemicals',
] as const
