// The role → capability table of docs/product.md "Roles". The UI imports it to hide what a role
// cannot use; permissions.server.ts enforces the same table in every loader and action.
import type { Role } from '~/db/schema/profiles'

export type { Role }
export type StaffRole = Exclude<Role, 'customer'>

export const ROLE_LABELS: Record<Role, string> = {
  platform_admin: 'Platform Admin',
  owner: 'Owner',
  admin: 'Admin',
  dispatcher: 'Dispatcher / Customer Service',
  tech: 'Technician',
  customer: 'Customer',
}

const CAPABILITIES = {
  /** /staff/*: companies, owner invitations, ownership. */
  'staff:tools': ['platform_admin'],
  /** The /app dashboard (platform admins get the read-only fallback). */
  'app:dashboard': ['platform_admin', 'owner', 'admin', 'dispatcher', 'tech'],
  /** The dispatcher area: create, assign and reschedule visits. */
  'visits:manage': ['owner', 'admin', 'dispatcher'],
  /** View a visit, complete it, log chemistry, upload photos (techs: only their own visits). */
  'visits:work': ['owner', 'admin', 'dispatcher', 'tech'],
  'customers:manage': ['owner', 'admin', 'dispatcher'],
  'inventory:search': ['owner', 'admin', 'dispatcher', 'tech'],
  'inventory:manage': ['owner', 'admin'],
  'settings:view': ['owner', 'admin', 'dispatcher'],
  'settings:save': ['owner', 'admin'],
  /** Settings' "Export all data": every customer, visit and reading of the company in one ZIP. */
  'data:export': ['owner', 'admin'],
  /**
   * Billing (docs/billing.md; docs/product.md "Easy to get wrong"): invoices, payments, "Change prices",
   * "Profit per pool", the QuickBooks export.
   */
  'billing:manage': ['owner', 'admin'],
  /** A customer's balance and invoices, read-only (dispatchers answer the phone; technicians see none of it). */
  'billing:balances': ['owner', 'admin', 'dispatcher'],
  /** Quotes (issue 33, docs/quotes.md): the office writes, sends and follows them. */
  'quotes:manage': ['owner', 'admin', 'dispatcher'],
  /** Settings → "Price book": prices and what items cost the company. */
  'pricebook:manage': ['owner', 'admin'],
  /** Card-provider fields of the settings. */
  'settings:billing': ['owner'],
  /** Settings → "API keys" and "Webhooks" (docs/decisions/050-public-api.md, 051-webhooks.md). */
  'api:manage': ['owner', 'admin'],
  'team:invite': ['owner', 'admin'],
  /** Change a teammate's role, deactivate or reactivate them. */
  'team:manage': ['owner'],
  /** "Start day", "Break", "Back", "End day" on Today (docs/time.md): the technician's own clock. */
  'time:clock': ['tech'],
  /** "Timesheets": every technician's weeks, edits with a reason, "Approve week", the payroll export. */
  'time:manage': ['owner', 'admin'],
  'account:edit': ['platform_admin', 'owner', 'admin', 'dispatcher', 'tech'],
  /** A private calendar link of one's own route (My Account → "Calendar"). */
  'calendar:feed': ['tech'],
  /** Preview any customer portal of one's own company. */
  'portal:preview': ['owner', 'admin', 'dispatcher'],
} as const satisfies Record<string, readonly Role[]>

export type Capability = keyof typeof CAPABILITIES

/** Whether `role` holds `capability`. No role holds nothing. */
export function can(role: Role | null | undefined, capability: Capability): boolean {
  return role != null && (CAPABILITIES[capability] as readonly Role[]).includes(role)
}

/** Roles each inviter may invite (docs/product.md "Roles"); the first is the form's default. */
export const INVITABLE_ROLES: Partial<Record<Role, readonly StaffRole[]>> = {
  owner: ['admin', 'dispatcher', 'tech'],
  admin: ['dispatcher', 'tech'],
}

export function isStaffRole(role: Role | null | undefined): role is StaffRole {
  return role != null && role !== 'customer'
}
