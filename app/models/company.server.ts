import { and, asc, eq, ilike, inArray, isNull, ne, or, sql } from 'drizzle-orm'
import { companies, profiles } from '~/db/schema'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { companySummaryKey, oncePerRequest } from '~/utils/request-scope.server'
import { failure, type Result, success } from '~/utils/result'
import { likePattern } from './customer-search.server'

/**
 * The company's name and timezone, which every dated page needs: the layout and the page of one
 * request both ask, so a GET reads them once.
 */
export function getCompanySummary(companyId: string) {
  return oncePerRequest(companySummaryKey(companyId), async () => {
    const [row] = await db()
      .select({ id: companies.id, name: companies.name, timezone: companies.timezone })
      .from(companies)
      .where(eq(companies.id, companyId))
      .limit(1)
    return row ?? null
  })
}

export type CompanySettings = {
  name: string
  /** Reply-To of customer emails (docs/decisions/044-company-brand.md). */
  email: string | null
  /** Printed on invoices, one line per line. */
  mailingAddress: string | null
  timezone: string
  defaultServiceWindow: (typeof companies.$inferSelect)['defaultServiceWindow']
  cardPublishableKey: string | null
  stripeAccountId: string | null
  customerPortalUrl: string | null
  serviceReportsEnabled: boolean
  itemizeChemicals: boolean
}

/** The settings page's fields (docs/product.md "Screens" Settings) for one company, or null when it is gone. */
export async function getCompanySettings(
  companyId: string,
): Promise<(CompanySettings & { logoKey: string | null }) | null> {
  const [row] = await db()
    .select({
      name: companies.name,
      email: companies.email,
      mailingAddress: companies.mailingAddress,
      logoKey: companies.logoKey,
      timezone: companies.timezone,
      defaultServiceWindow: companies.defaultServiceWindow,
      cardPublishableKey: companies.cardPublishableKey,
      stripeAccountId: companies.stripeAccountId,
      customerPortalUrl: companies.customerPortalUrl,
      serviceReportsEnabled: companies.serviceReportsEnabled,
      itemizeChemicals: companies.itemizeChemicals,
    })
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1)
  return row ?? null
}

/**
 * Saves settings of exactly one company (the caller's, from their profile). Fields left out
 * are not touched. Returns whether the company existed.
 */
export async function updateCompanySettings(companyId: string, fields: Partial<CompanySettings>) {
  const update: Partial<CompanySettings> = {}
  const keys = [
    'name',
    'email',
    'mailingAddress',
    'timezone',
    'defaultServiceWindow',
    'cardPublishableKey',
    'stripeAccountId',
    'customerPortalUrl',
    'serviceReportsEnabled',
    'itemizeChemicals',
  ] as const
  for (const key of keys) {
    if (fields[key] !== undefined) Object.assign(update, { [key]: fields[key] })
  }
  if (Object.keys(update).length === 0) return (await getCompanySettings(companyId)) !== null
  const rows = await db()
    .update(companies)
    .set(update)
    .where(eq(companies.id, companyId))
    .returning({ id: companies.id })
  return rows.length > 0
}

/** docs/product.md "Limits": companies in the platform list, oldest first; past this many, pages. */
export const COMPANIES_PAGE_SIZE = 50

/** Platform view of one company: its owner(s) and the people who could become owner. */
export type CompanyListing = {
  id: string
  name: string
  stripeAccountId: string | null
  createdAt: Date
  owners: Array<{
    id: string
    fullName: string | null
    email: string
    phone: string | null
    address: string | null
  }>
  /** Staff of the company (never customers; platform admins have no company, so never listed). */
  eligibleOwners: Array<{ id: string; fullName: string | null; email: string; role: string }>
}

/** A search by name, or by id (whole or its first characters, as shown truncated). */
function companySearch(query: string) {
  const text = query.trim().slice(0, 100)
  if (!text) return undefined
  // As for customers: text without a letter or digit (`%`, `-` …) matches nothing.
  if (!/[\p{L}\p{N}]/u.test(text)) return sql`false`
  const byName = ilike(companies.name, likePattern(text))
  // Only text that could start an id (hex digits and dashes) is tried as an id prefix.
  return /^[0-9a-f-]+$/i.test(text) ? or(byName, ilike(sql`${companies.id}::text`, `${text.toLowerCase()}%`)) : byName
}

/**
 * One page of companies, oldest first, with owners and eligible profiles: two queries
 * whatever the page size (the profiles of the whole page are fetched together).
 */
export async function listCompanies({ query = '', page = 1 }: { query?: string; page?: number }) {
  const where = companySearch(query)
  const [{ total } = { total: 0 }] = await db()
    .select({ total: sql<number>`count(*)::int` })
    .from(companies)
    .where(where)
  const rows = await db()
    .select({
      id: companies.id,
      name: companies.name,
      stripeAccountId: companies.stripeAccountId,
      createdAt: companies.createdAt,
    })
    .from(companies)
    .where(where)
    .orderBy(asc(companies.createdAt), asc(companies.id))
    .limit(COMPANIES_PAGE_SIZE)
    .offset((Math.max(1, page) - 1) * COMPANIES_PAGE_SIZE)
  const people = rows.length
    ? await db()
        .select({
          id: profiles.id,
          companyId: profiles.companyId,
          role: profiles.role,
          fullName: profiles.fullName,
          email: profiles.email,
          phone: profiles.phone,
          addressLine1: profiles.addressLine1,
          addressLine2: profiles.addressLine2,
          city: profiles.city,
          state: profiles.state,
          postalCode: profiles.postalCode,
        })
        .from(profiles)
        .where(
          and(
            inArray(
              profiles.companyId,
              rows.map((row) => row.id),
            ),
            inArray(profiles.role, ['owner', 'admin', 'dispatcher', 'tech']),
            isNull(profiles.deactivatedAt),
          ),
        )
        .orderBy(asc(profiles.fullName), asc(profiles.email))
    : []
  const companiesOnPage: CompanyListing[] = rows.map((row) => {
    const staff = people.filter((person) => person.companyId === row.id)
    return {
      ...row,
      owners: staff
        .filter((person) => person.role === 'owner')
        .map((person) => ({
          id: person.id,
          fullName: person.fullName,
          email: person.email,
          phone: person.phone,
          address:
            [person.addressLine1, person.addressLine2, person.city, person.state, person.postalCode]
              .filter(Boolean)
              .join(', ') || null,
        })),
      eligibleOwners: staff
        .filter((person) => person.role !== 'owner')
        .map((person) => ({
          id: person.id,
          fullName: person.fullName,
          email: person.email,
          role: person.role as string,
        })),
    }
  })
  return { total, companies: companiesOnPage }
}

/** Every company's id and name, by name (the invite-owner picker). */
export async function listCompanyOptions() {
  return db().select({ id: companies.id, name: companies.name }).from(companies).orderBy(asc(companies.name))
}

const COMPANY_MESSAGES = {
  notFound: 'That company was not found.',
  notMember: 'That person is not an active member of this company.',
} as const

/** Renames a company (platform staff; payment settings are the owner's). Not found if there is none. */
export async function updateCompany({ companyId, name }: { companyId: string; name: string }): Promise<Result> {
  if (!isUuid(companyId)) return failure('not-found', COMPANY_MESSAGES.notFound)
  const updated = await db()
    .update(companies)
    .set({ name })
    .where(eq(companies.id, companyId))
    .returning({ id: companies.id })
  return updated.length > 0 ? success({}) : failure('not-found', COMPANY_MESSAGES.notFound)
}

/**
 * Ownership transfer (docs/product.md "Visit states", docs/product.md "Roles"), in one transaction: the company's
 * current owners become admins and `profileId`, a staff member of that company, becomes the owner.
 */
export async function assignOwner({ companyId, profileId }: { companyId: string; profileId: string }): Promise<Result> {
  if (!isUuid(companyId)) return failure('not-found', COMPANY_MESSAGES.notMember)
  return db().transaction(async (tx) => {
    const [person] = await tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(
        and(
          eq(profiles.id, profileId),
          eq(profiles.companyId, companyId),
          inArray(profiles.role, ['owner', 'admin', 'dispatcher', 'tech']),
          isNull(profiles.deactivatedAt),
        ),
      )
      .for('update')
    if (!person) return failure('not-found', COMPANY_MESSAGES.notMember)
    await tx
      .update(profiles)
      .set({ role: 'admin' })
      .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'owner'), ne(profiles.id, profileId)))
    // A technician made owner loses their calendar link with the role (N5, as in team.server.ts).
    await tx.update(profiles).set({ role: 'owner', calendarFeedHash: null }).where(eq(profiles.id, profileId))
    return success({})
  })
}
