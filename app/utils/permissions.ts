// The role → capability table of ARCHITECTURE §4. The UI imports it to hide what a role
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
  /** The dispatcher area: create, assign and reschedule jobs. */
  'jobs:manage': ['owner', 'admin', 'dispatcher'],
  /** View a job, complete it, log chemistry, upload photos (techs: only their own jobs). */
  'jobs:work': ['owner', 'admin', 'dispatcher', 'tech'],
  'customers:manage': ['owner', 'admin', 'dispatcher'],
  'inventory:search': ['owner', 'admin', 'dispatcher', 'tech'],
  'inventory:manage': ['owner', 'admin'],
  'settings:view': ['owner', 'admin', 'dispatcher'],
  'settings:save': ['owner', 'admin'],
  /** Settings' "Export all data": every customer, visit and reading of the company in one ZIP. */
  'data:export': ['owner', 'admin'],
  /** Billing (OPERATIONS §7, §8): invoices, payments, "Change prices", "Profit per pool", the QuickBooks export. */
  'billing:manage': ['owner', 'admin'],
  /** A customer's balance and invoices, read-only (dispatchers answer the phone; technicians see none of it). */
  'billing:balances': ['owner', 'admin', 'dispatcher'],
  /** Card-provider fields of the settings. */
  'settings:billing': ['owner'],
  'team:invite': ['owner', 'admin'],
  /** Change a teammate's role, deactivate or reactivate them. */
  'team:manage': ['owner'],
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

/** Roles each inviter may invite (SPEC §6); the first is the form's default. */
export const INVITABLE_ROLES: Partial<Record<Role, readonly StaffRole[]>> = {
  owner: ['admin', 'dispatcher', 'tech'],
  admin: ['dispatcher', 'tech'],
}

export function isStaffRole(role: Role | null | undefined): role is StaffRole {
  return role != null && role !== 'customer'
}
