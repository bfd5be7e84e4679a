import { data, redirect } from 'react-router'
import { hasOpenInvitation, INVITATIONS_PATH } from '~/models/account-invitation.server'
import { getCustomerIdForPortalUser } from '~/models/customer.server'
import { getProfile, type Profile } from '~/models/profile.server'
import { getAuth } from './auth.server'
import { type Capability, can, type Role } from './permissions'
import { oncePerRequest } from './request-scope.server'

export type SessionUser = {
  id: string
  email: string
  profile: Profile | null
}

/** Why a signed-in user was turned away; the app's error boundary draws the matching card. */
export type GuardReason = 'no-access' | 'setup-incomplete' | 'restricted'

export function forbidden(reason: GuardReason): never {
  throw data({ reason }, { status: 403 })
}

export function notFound(): never {
  throw data({ reason: 'not-found' }, { status: 404 })
}

/**
 * The signed-in user with their profile, or null for visitors. A page's loaders (layout and route)
 * all ask; within one GET they share one answer (`oncePerRequest` never shares within a POST, whose
 * action may change the very session or profile asked about).
 */
export function getSessionUser(request: Request): Promise<SessionUser | null> {
  return oncePerRequest(`session-user ${request.headers.get('cookie') ?? ''}`, () => getFreshSessionUser(request))
}

/** Who is signing in right now, never a copy remembered for the request (long-lived streams ask again). */
export async function getFreshSessionUser(request: Request): Promise<SessionUser | null> {
  const session = await getAuth().api.getSession({ headers: request.headers })
  if (!session) return null
  const profile = await getProfile(session.user.id)
  if (profile?.deactivatedAt) return null
  return { id: session.user.id, email: session.user.email, profile }
}

/** Where to send someone who must log in first, remembering the page they asked for. */
export function loginRedirect(request: Request): never {
  const url = new URL(request.url)
  const redirectTo = `${url.pathname}${url.search}`
  throw redirect(redirectTo === '/' ? '/login' : `/login?redirectTo=${encodeURIComponent(redirectTo)}`)
}

/**
 * Any signed-in user. Staff who have not finished onboarding are sent to /welcome
 * from every protected page (SPEC §2), except `allowIncompleteSetup` pages.
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
}

/** A user who holds `capability`; the 403 card says why otherwise. */
export async function requireCapability(
  request: Request,
  capability: Capability,
): Promise<SessionUser & { role: Role }> {
  const user = await requireUser(request)
  const role = user.profile?.role
  if (!role) forbidden('setup-incomplete')
  if (!can(role, capability)) forbidden(capability === 'staff:tools' ? 'restricted' : 'no-access')
  return { ...user, role }
}

/** A company member holding `capability`; the company always comes from the profile, never the request. */
export async function requireCompanyCapability(request: Request, capability: Capability): Promise<CompanyMember> {
  const user = await requireCapability(request, capability)
  const companyId = user.profile?.companyId
  if (!companyId || !user.profile) forbidden('no-access')
  return { ...user, companyId, profile: { ...user.profile, role: user.role, companyId } }
}

/** Where a user belongs after signing in when they asked for nothing in particular. */
export async function homePathFor(user: SessionUser): Promise<string> {
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
 * Someone who may look at jobs: members who work jobs (their company's; techs narrowed later
 * to their own), and platform admins, read-only across companies. Others get the 403 card.
 */
export async function requireJobViewer(request: Request) {
  const user = await requireCapability(request, 'app:dashboard')
  if (user.role === 'platform_admin') return { id: user.id, role: user.role, companyId: null, readOnly: true }
  const companyId = user.profile?.companyId
  if (!companyId || !can(user.role, 'jobs:work')) forbidden('no-access')
  return { id: user.id, role: user.role, companyId, readOnly: false }
}
