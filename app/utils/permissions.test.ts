// The role × capability table of docs/product.md "Roles", row by row.
import { describe, expect, it } from 'vitest'
import { ROLES } from '~/db/schema/profiles'
import { type Capability, can, INVITABLE_ROLES, isStaffRole, ROLE_LABELS, type Role } from './permissions'

/** Who holds each capability, copied from the table in docs/product.md "Roles" (every capability must be listed). */
const TABLE: Record<Capability, readonly Role[]> = {
  // /staff/*: companies, invite owners, assign owners
  'staff:tools': ['platform_admin'],
  // /app dashboard: platform admin's read-only fallback, owner, admin, dispatcher, tech (own visits); not customers
  'app:dashboard': ['platform_admin', 'owner', 'admin', 'dispatcher', 'tech'],
  // create / assign / reschedule visits
  'visits:manage': ['owner', 'admin', 'dispatcher'],
  // view a visit, complete it, log chemistry, upload photos (techs: only visits assigned to them)
  'visits:work': ['owner', 'admin', 'dispatcher', 'tech'],
  // customers: list, add, edit, invite
  'customers:manage': ['owner', 'admin', 'dispatcher'],
  // inventory: search
  'inventory:search': ['owner', 'admin', 'dispatcher', 'tech'],
  // inventory: add, edit, adjust stock
  'inventory:manage': ['owner', 'admin'],
  // settings: view (owner, admin, dispatcher) / save (owner, admin; admin not the card-provider fields)
  'settings:view': ['owner', 'admin', 'dispatcher'],
  'settings:save': ['owner', 'admin'],
  'settings:billing': ['owner'],
  'api:manage': ['owner', 'admin'],
  // issue 33: quotes are the office's (owner, admin, dispatcher); the price book shows costs: owner and admin
  'quotes:manage': ['owner', 'admin', 'dispatcher'],
  'pricebook:manage': ['owner', 'admin'],
  // docs/product.md "Easy to get wrong": "Billing", invoices, payments, "Change prices" and "Profit per pool" — owner
  // and admin; dispatchers see balances; technicians see none of it
  'billing:manage': ['owner', 'admin'],
  'billing:balances': ['owner', 'admin', 'dispatcher'],
  // settings: "Export all data" (a ZIP of every customer, visit and reading)
  'data:export': ['owner', 'admin'],
  // invite teammates
  'team:invite': ['owner', 'admin'],
  'team:manage': ['owner'],
  // /app/account
  // Today's "Start day" … "End day": a technician's own clock; "Timesheets" and payroll: owners and admins
  'time:clock': ['tech'],
  'time:manage': ['owner', 'admin'],
  'account:edit': ['platform_admin', 'owner', 'admin', 'dispatcher', 'tech'],
  // My Account → "Calendar": a private calendar link of one's own route (technicians)
  'calendar:feed': ['tech'],
  // /customer/{id} portal preview of one's own company's customers (a customer sees only their own record)
  'portal:preview': ['owner', 'admin', 'dispatcher'],
}

const CAPABILITIES = Object.keys(TABLE) as Capability[]

describe('the six roles', () => {
  it('are exactly platform_admin, owner, admin, dispatcher, tech and customer, each with a label', () => {
    expect([...ROLES].sort()).toEqual(['admin', 'customer', 'dispatcher', 'owner', 'platform_admin', 'tech'])
    for (const role of ROLES) expect(ROLE_LABELS[role]).toBeTruthy()
  })
})

describe('can(role, capability) follows docs/product.md "Roles"', () => {
  for (const capability of CAPABILITIES) {
    describe(capability, () => {
      for (const role of ROLES) {
        const allowed = TABLE[capability].includes(role)
        it(`${allowed ? 'allows' : 'refuses'} ${role}`, () => {
          expect(can(role, capability)).toBe(allowed)
        })
      }
      it('refuses a signed-in user with no role (null or undefined)', () => {
        expect(can(null, capability)).toBe(false)
        expect(can(undefined, capability)).toBe(false)
      })
    })
  }
})

describe('what each role may do, as a person would read the table', () => {
  const holds = (role: Role) => CAPABILITIES.filter((capability) => can(role, capability)).sort()

  it('a platform admin has the staff tools, the read-only dashboard and their account, nothing of a company', () => {
    expect(holds('platform_admin')).toEqual(['account:edit', 'app:dashboard', 'staff:tools'])
  })

  it("an owner can do everything in their company, but not the platform staff tools or a technician's calendar or clock", () => {
    expect(holds('owner')).toEqual(
      CAPABILITIES.filter((c) => c !== 'staff:tools' && c !== 'calendar:feed' && c !== 'time:clock').sort(),
    )
  })

  it("an admin is an owner without the card-provider settings or the team's roles and deactivation", () => {
    expect(holds('admin')).toEqual(holds('owner').filter((c) => c !== 'settings:billing' && c !== 'team:manage'))
  })

  it('a dispatcher runs visits and customers, sees balances, searches stock, views settings, but cannot change stock, settings, billing or invite', () => {
    expect(holds('dispatcher')).toEqual(
      [
        'account:edit',
        'app:dashboard',
        'billing:balances',
        'customers:manage',
        'inventory:search',
        'visits:manage',
        'visits:work',
        'portal:preview',
        'quotes:manage',
        'settings:view',
      ].sort(),
    )
  })

  it('a tech works visits, searches stock, subscribes to their route and clocks their day, nothing of the office', () => {
    expect(holds('tech')).toEqual([
      'account:edit',
      'app:dashboard',
      'calendar:feed',
      'inventory:search',
      'time:clock',
      'visits:work',
    ])
  })

  it('a customer holds no staff capability at all (their portal is checked per record)', () => {
    expect(holds('customer')).toEqual([])
  })
})

describe('INVITABLE_ROLES', () => {
  it('lets an owner invite admins, dispatchers and techs, an admin only dispatchers and techs', () => {
    expect(INVITABLE_ROLES.owner).toEqual(['admin', 'dispatcher', 'tech'])
    expect(INVITABLE_ROLES.admin).toEqual(['dispatcher', 'tech'])
  })

  it('lets nobody else invite teammates', () => {
    for (const role of ['platform_admin', 'dispatcher', 'tech', 'customer'] as const) {
      expect(INVITABLE_ROLES[role] ?? [], role).toEqual([])
    }
  })

  it('never offers owner, platform_admin or customer as a teammate role', () => {
    for (const roles of Object.values(INVITABLE_ROLES)) {
      for (const forbidden of ['owner', 'platform_admin', 'customer'] as const) {
        expect(roles).not.toContain(forbidden)
      }
    }
  })

  it('matches team:invite: exactly the roles that may invite have someone to invite', () => {
    for (const role of ROLES) {
      expect((INVITABLE_ROLES[role]?.length ?? 0) > 0, role).toBe(can(role, 'team:invite'))
    }
  })
})

describe('isStaffRole', () => {
  it('is true for every role but customer, and false without a role', () => {
    for (const role of ROLES) expect(isStaffRole(role), role).toBe(role !== 'customer')
    expect(isStaffRole(null)).toBe(false)
    expect(isStaffRole(undefined)).toBe(false)
  })
})
