// The values a company's and a plan's service window may take. Dependency-free, like customer-fields.ts: the
// database schema and the settings form (browser and server) read them from here, so the form's chunk carries no
// table code (docs/performance.md, "Browser bundles").

export const SERVICE_WINDOWS = ['morning', 'afternoon', 'flexible'] as const
export type ServiceWindow = (typeof SERVICE_WINDOWS)[number]
