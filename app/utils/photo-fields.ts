// The labels a visit's photo may carry. Dependency-free, like customer-fields.ts: the database schema, the phone's
// queue and the visit page (browser and server) read them from here, so no table code reaches the browser
// (docs/performance.md, "Browser bundles").

export const PHOTO_LABELS = ['before', 'after', 'other'] as const
export type PhotoLabel = (typeof PHOTO_LABELS)[number]
