// How a technician is paid (Team → technician; docs/time.md). Dependency-free, like customer-fields.ts: the database
// schema and the technician form (browser and server) read it from here, so the form's chunk carries no table code
// (docs/performance.md, "Browser bundles").

export const PAY_TYPES = ['hourly', 'per-stop'] as const
export type PayType = (typeof PAY_TYPES)[number]
