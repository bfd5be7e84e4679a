import { data, redirect } from 'react-router'
import { getAuth } from '~/auth/better-auth.server'
import { hasOpenInvitation, INVITATIONS_PATH, listOpenInvitations } from '~/models/account-invitation.server'
import { getCompanySummary } from '~/models/company.server'
import { getCustomerIdForPortalUser } from '~/models/customer.server'
import { findPortalAccess, type PortalAccess } from '~/models/portal.server'
import { getProfile, type Profile } from '~/models/profile.server'
import { getVisitForViewer } from '~/models/visit-record.server'
import { DEFAULT_TIMEZONE } from '~/utils/dates'
import { type Capability, can, type Role } from '~/utils/permissions'
import { companySummaryKey, oncePerRequest, rememberForRequest } from '~/utils/request-scope.server'
import { type Failure, failureStatus } from '~/utils/result'
import { readSession } from '~/utils/session-read.server'

export type SessionUser = {
  id: string
  email: string
  profile: Profile | null
  /** The profile's company (read with the session, so a page need not ask again). */
  company: { id: string; name: string; timezone: string } | null
}

/** Why a signed-in user was turned away; the app's error boundary draws the matching card. */
export type GuardReason = 'no-access' | 'setup-incomplete' | 'restricted' | 'company-staff-only'

export function forbidden(reason: GuardReason): never {
  throw data({ reason }, { status: 403 })
}

export function notFound(): never {
  throw data({ reason: 'not-found' }, { status: 404 })
}

/**
 * A resource route's "not found" (a photo, a file, a feed): plain text, since nothing draws the 404 page for an
 * image, a script or a calendar app; never cached. `message` says what a person reading it can do. Pages use
 * `notFound()`.
 */
export function notFoundResponse(message = 'Not found'): Response {
  return new Response(`${message}\n`, {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}

/**
 * A model's refusal as an action answers it: "not found" is the 404 page (another company's record looks the same as
 * none), any other failure gets its own status (utils/result.ts) for the action's reply.
 */
export function refusalStatus(refusal: Pick<Failure, 'code'>): number {
  if (refusal.code === 'not-found') notFound()
  return failureStatus(refusal)
}

/**
 * For an action whose intents need more than the route's own guard asked (the visit page lets technicians in, and
 * only the office may assign, move or reopen): a member without `capability` gets the 403 card.
 */
export function requireMemberCapability(member: { role: Role }, capability: Capability) {
  if (!can(member.role, capability)) forbidden('no-access')
}

/**
 * The signed-in user with their profile, or null for visitors. A page's loaders (layout and route)
 * all ask, and share one answer (`oncePerRequest`); an action reads afresh, since it may change the very session or
 * profile asked about, and the loaders that run after it read once more, together.
 */
export function getSessionUser(request: Request): Promise<SessionUser | null> {
  return oncePerRequest(
    `session-user ${request.headers.get('cookie') ?? ''}`,
    async () => {
      const user = await getFreshSessionUser(request)
      // The company came with the session: the page's own getCompanySummary need not read it again.
      if (user?.company) rememberForRequest(companySummaryKey(user.company.id), user.company)
      return user
    },
    request,
  )
}

/** Who is signing in right now, never a copy remembered for the request (long-lived streams ask again). */
export async function getFreshSessionUser(request: Request): Promise<SessionUser | null> {
  const read = await readSession(request)
  if (read.kind === 'none') return null
  if (read.kind === 'refresh') return refreshedSessionUser(request)
  if (read.profile?.deactivatedAt) return null
  return { id: read.userId, email: read.email, profile: read.profile, company: read.company }
}

/** Once a day a session is extended: better-auth's own read does that write (and the reads around it). */
async function refreshedSessionUser(request: Request): Promise<SessionUser | null> {
  const session = await getAuth().api.getSession({ headers: request.headers })
  if (!session) return null
  const profile = await getProfile(session.user.id)
  if (profile?.deactivatedAt) return null
  const company = profile?.companyId ? await getCompanySummary(profile.companyId) : null
  return { id: session.user.id, email: session.user.email, profile, company }
}

/** Where to send someone who must log in first, remembering the page they asked for. */
export function loginRedirect(request: Request): never {
  const url = new URL(request.url)
  const redirectTo = `${url.pathname}${url.search}`
  throw redirect(redirectTo === '/' ? '/login' : `/login?redirectTo=${encodeURIComponent(redirectTo)}`)
}

/**
 * Any signed-in user. Staff who have not finished onboarding are sent to /welcome
 * from every protected page (docs/product.md "Screens"), except `allowIncompleteSetup` pages.
 */
export async function requireUser(request: Request, { allowIncompleteSetup = false } = {}): Promise<SessionUser> {
  const user = await getSessionUser(request)
  if (!user) loginRedirect(request)
  const profile = user.profile
  if (!allowIncompleteSetup && profile?.role && profile.role !== 'customer' && !profile.hasCompletedSetup) {
    throw redirect('/welcome')
  }
  return user
}

export type CompanyMember = SessionUser & {
  profile: Profile & { role: Role; companyId: string }
  role: Role
  companyId: string
  company: Company
  /** The company's timezone: every date a member sees is in it (docs/product.md "Roles"). */
  timezone: string
}

export type Company = { id: string; name: string; timezone: string }

/** A user who holds `capability`; the 403 card says why otherwise. `timezone` is their company's (`timezoneOf`). */
export async function requireCapability(
  request: Request,
  capability: Capability,
): Promise<SessionUser & { role: Role; timezone: string }> {
  const user = await requireUser(request)
  const role = user.profile?.role
  if (!role) forbidden('setup-incomplete')
  if (!can(role, capability)) {
    if (capability === 'staff:tools') forbidden('restricted')
    // A platform administrator belongs to no company: a company's own pages are not theirs to use, and the card
    // says so (rather than naming a role's dashboard they never had).
    forbidden(role === 'platform_admin' ? 'company-staff-only' : 'no-access')
  }
  return { ...user, role, timezone: timezoneOf(user) }
}

/** The viewer's company's timezone, or — for a platform administrator, who belongs to none — the platform's default. */
function timezoneOf(user: SessionUser) {
  return user.company?.timezone ?? DEFAULT_TIMEZONE
}

/**
 * Someone who may use the staff app's shell (/app and below): staff of a company or a platform administrator.
 * Customers go to their portal; a signed-in user with no role yet to their invitations, or the setup card.
 */
export async function requireStaffAppUser(request: Request) {
  const user = await requireUser(request)
  const role = user.profile?.role
  if (role === 'customer') {
    // One whose record is gone has nowhere in the staff app.
    const home = await homePathFor(user)
    if (home.startsWith('/customer')) throw redirect(home)
    forbidden('no-access')
  }
  if (!role) {
    // Invited to a company: they accept or decline there (decision 011).
    if (await hasOpenInvitation(user.id)) throw redirect(INVITATIONS_PATH)
    forbidden('setup-incomplete')
  }
  return { ...user, role }
}

/** A company member holding `capability`; the company always comes from the profile, never the request. */
export async function requireCompanyCapability(request: Request, capability: Capability): Promise<CompanyMember> {
  const user = await requireCapability(request, capability)
  const companyId = user.profile?.companyId
  // The company was read with the session (session-read.server.ts); a profile pointing nowhere gets no access.
  if (!companyId || !user.profile || user.company?.id !== companyId) {
    forbidden(user.role === 'platform_admin' ? 'company-staff-only' : 'no-access')
  }
  const company = user.company
  return {
    ...user,
    companyId,
    company,
    timezone: company.timezone,
    profile: { ...user.profile, role: user.role, companyId },
  }
}

/**
 * `requireCompanyCapability` for a route a script calls (the phone's queue, photo uploads): it cannot follow the
 * login redirect, so a signed-out request is answered `401 { ok: false, signedOut: true }` and the script keeps its
 * work until the person signs in again. Refusals other than "signed out" are the same as for a page.
 */
export async function requireCompanyCapabilityForScript(
  request: Request,
  capability: Capability,
): Promise<CompanyMember> {
  try {
    return await requireCompanyCapability(request, capability)
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      throw Response.json(
        { ok: false, signedOut: true },
        { status: 401, headers: { 'Cache-Control': 'private, no-store' } },
      )
    }
    throw thrown
  }
}

/** Where a user belongs after signing in when they asked for nothing in particular. */
export async function homePathFor(user: Pick<SessionUser, 'id' | 'email' | 'profile'>): Promise<string> {
  const profile = user.profile
  if (profile?.role === 'customer') {
    const customerId = await getCustomerIdForPortalUser(user.id)
    if (!customerId) return '/app'
    return profile.hasCompletedSetup ? `/customer/${customerId}` : `/customer-setup?customerId=${customerId}`
  }
  if (profile?.role && !profile.hasCompletedSetup) return '/welcome'
  // Someone without a company (or with only a trial of their own) who was invited decides first (decision 011).
  if ((!profile?.role || profile.role === 'owner') && (await hasOpenInvitation(user.id))) return INVITATIONS_PATH
  return '/app'
}

const REDIRECT_BASE = 'http://pool-bud.invalid'

/** Spaces, control characters and backslashes: browsers drop or rewrite them inside URLs. */
function hasControlOrBackslash(value: string) {
  return [...value].some((char) => char <= ' ' || char === '\x7f' || char === '\\')
}

/** Whether a browser reads `path` as another host's: `//host` or `/\host`, also with tabs or newlines between. */
function leavesSite(path: string) {
  return !path.startsWith('/') || /^[/\\]{2}/.test(path.replace(/[\t\n\r]/g, ''))
}

/**
 * The path and what each percent-decoding makes of it (a server or proxy may decode once, or again), or null when
 * it cannot be decoded.
 */
function decodings(path: string): string[] | null {
  const forms = [path]
  try {
    for (let round = 0; round < 3; round++) {
      const last = forms[forms.length - 1] as string
      const decoded = decodeURIComponent(last)
      if (decoded === last) break
      forms.push(decoded)
    }
  } catch {
    return null
  }
  return forms
}

/**
 * Only paths of this site are followed after login, so a link cannot bounce users elsewhere (F2). The value is
 * resolved the way a browser would (which drops tabs and newlines, reads backslashes as slashes, and removes dot
 * segments: `/..//evil.example` becomes `//evil.example`), and the check runs on that result and on its
 * percent-decoded forms (`/%2F%2Fevil.example`); anything that would leave the origin falls back.
 */
export function safeRedirectPath(value: unknown, fallback = '/app') {
  if (typeof value !== 'string' || leavesSite(value) || hasControlOrBackslash(value)) return fallback
  let url: URL
  try {
    url = new URL(value, REDIRECT_BASE)
  } catch {
    return fallback
  }
  if (url.origin !== REDIRECT_BASE) return fallback
  const forms = decodings(url.pathname)
  if (!forms || forms.some(leavesSite)) return fallback
  return `${url.pathname}${url.search}${url.hash}`
}

/**
 * Someone who may look at visits: members who work visits (their company's; techs narrowed later
 * to their own), and platform admins, read-only across companies. Others get the 403 card.
 */
export async function requireVisitViewer(request: Request) {
  const user = await requireCapability(request, 'app:dashboard')
  if (user.role === 'platform_admin') return { id: user.id, role: user.role, companyId: null, readOnly: true }
  const companyId = user.profile?.companyId
  if (!companyId || !can(user.role, 'visits:work')) forbidden('no-access')
  return { id: user.id, role: user.role, companyId, readOnly: false }
}

/**
 * The visit `visitId` as a viewer may see it (requireVisitViewer), or a 404: another company's visit, or a teammate's for a
 * technician, does not exist for them. Platform admins may look at any company's visit, read-only.
 */
export async function requireViewableVisit(request: Request, visitId: string) {
  const viewer = await requireVisitViewer(request)
  const visit = await getVisitForViewer(viewer, visitId)
  if (!visit) notFound()
  // A member's company came with the session; a platform admin looks at another company's visit.
  const company = await getCompanySummary(visit.companyId)
  if (!company) notFound()
  return { viewer, visit, company }
}

/** A member who works visit `visitId` (to change it: readings, photos, completion); a 404 for anyone else's visit. */
export async function requireWorkableVisit(request: Request, visitId: string) {
  const member = await requireCompanyCapability(request, 'visits:work')
  const visit = await getVisitForViewer({ id: member.id, role: member.role, companyId: member.companyId }, visitId)
  if (!visit) notFound()
  return { member, visit }
}

/**
 * The signed-in viewer's access to customer `customerId`'s portal, or a 404. Visitors are sent to log in first;
 * customers who have not finished setup still get in (requireUser only sends staff to /welcome).
 */
export async function requirePortalAccess(
  request: Request,
  customerId: string,
  /** How a resource route (a photo) refuses: its own plain 404 instead of the page's. */
  refuse: () => never = notFound,
): Promise<PortalAccess & { userId: string; companyName: string; timezone: string }> {
  const user = await requireUser(request)
  const access = await findPortalAccess(user, customerId)
  if (!access) refuse()
  // The portal's company is the viewer's own (findPortalAccess never crosses companies): its timezone says what is
  // past due today.
  return { ...access, userId: user.id, companyName: user.company?.name ?? '', timezone: timezoneOf(user) }
}

/**
 * The customer's own portal, for what only they may do (pay an invoice, save a card): staff previewing it get the
 * 403 card.
 */
export async function requireOwnPortal(request: Request, customerId: string) {
  const access = await requirePortalAccess(request, customerId)
  if (access.preview) forbidden('no-access')
  return access
}

/** A customer finishing their portal setup; one who already did goes to their portal (setup never runs twice). */
export async function requireCustomerInSetup(request: Request) {
  const user = await requireUser(request)
  if (user.profile?.hasCompletedSetup) throw redirect(await homePathFor(user))
  return user
}

/** Staff with an unfinished profile (/welcome); everyone else is sent where they belong. */
export async function requireUnfinishedStaff(request: Request) {
  const user = await requireUser(request, { allowIncompleteSetup: true })
  const profile = user.profile
  if (profile?.role === 'customer' || profile?.hasCompletedSetup) throw redirect(await homePathFor(user))
  return { user, profile }
}

/** Someone signed in with no role and no company: only they may start a company (/start). */
export async function requireRoleless(request: Request) {
  const user = await requireUser(request, { allowIncompleteSetup: true })
  if (user.profile?.role || user.profile?.companyId) throw redirect(await homePathFor(user))
  return user
}

/** A signed-in person who may join a company, with their open invitations; anyone else goes home. */
export async function requireJoiningUser(request: Request) {
  const user = await requireUser(request)
  const open = await listOpenInvitations(user.id)
  if (!open) throw redirect(await homePathFor(user))
  return { user, open }
}
