import { requireCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Card } from '~/components/ui/card'
import { changePassword, renewCalendarFeed, saveProfile } from '~/features/account/account.server'
import { contactValues } from '~/features/account/account-schema'
import { CalendarFeedSection } from '~/features/account/calendar-feed-section'
import { ChangePasswordForm } from '~/features/account/change-password-form'
import { ProfileForm } from '~/features/account/profile-form'
import { emailChangeLanding } from '~/features/auth/link-landing.server'
import { hasCalendarFeed } from '~/models/calendar-feed.server'
import { redirectWithFlash } from '~/utils/flash.server'
import { readForm } from '~/utils/forms'
import { can } from '~/utils/permissions'
import type { Route } from './+types/account'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCapability(request, 'account:edit')
  // The link in the new inbox lands here (better-auth's callback): its outcome is said once.
  const landing = emailChangeLanding(new URL(request.url), user.email)
  if (landing) return redirectWithFlash(landing.to, landing.flash)
  const p = user.profile
  if (!p) return { profile: null, calendarFeed: null }
  return {
    // Only technicians have visits of their own to subscribe to.
    calendarFeed: can(p.role, 'calendar:feed') ? { active: await hasCalendarFeed(user.id) } : null,
    profile: { fullName: p.fullName ?? '', email: user.email, ...contactValues(p) },
  }
}

// "My account": the profile save (no intent), "change-password", and the technician's "create-feed" / "reset-feed".
export async function action({ request }: Route.ActionArgs) {
  const user = await requireCapability(request, 'account:edit')
  const formData = await readForm(request)
  const intent = formData.get('intent')
  if (intent === 'change-password') return changePassword(request, user, formData)
  if (intent === 'create-feed' || intent === 'reset-feed') return renewCalendarFeed(user, formData)
  return saveProfile(request, user, formData)
}

export function meta() {
  return [{ title: 'My Account · Pool Bud' }]
}

export default function AccountPage({ loaderData, actionData }: Route.ComponentProps) {
  const profile = loaderData.profile
  if (!profile) {
    return <Alert tone="error">We couldn't load your profile. Please try signing out and back in.</Alert>
  }
  return (
    <Card className="mx-auto max-w-2xl space-y-5">
      <h1 className="text-2xl font-bold">My Account</h1>
      <ProfileForm profile={profile} pageReply={actionData?.form === 'profile' ? actionData : undefined} />
      {loaderData.calendarFeed ? (
        <CalendarFeedSection
          active={loaderData.calendarFeed.active}
          pageReply={actionData?.form === 'feed' ? actionData : undefined}
        />
      ) : null}
      <ChangePasswordForm pageReply={actionData?.form === 'password' ? actionData : undefined} />
    </Card>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
