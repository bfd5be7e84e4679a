// /start — a self-serve trial: someone signed in without a role starts their own company and
// becomes its owner (issue #6). Everyone with a role is sent to where they belong.
import { data, Form, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import { homePathFor, requireRoleless } from '~/auth/guards.server'
import { poolBudPlanOf } from '~/billing/pool-bud-plans'
import { planNamed } from '~/components/marketing/nav-links'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Field, inputClass } from '~/components/ui/field'
import { startTrialCompany } from '~/models/trial.server'
import { DEFAULT_TIMEZONE, timezoneList } from '~/utils/dates'
import { readForm } from '~/utils/forms'
import { TRIAL_DAYS } from '~/utils/trial'
import type { Route } from './+types/start'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireRoleless(request)
  const plan = planNamed(new URL(request.url).searchParams.get('plan'))
  return { email: user.email, timezones: timezoneList(), defaultTimezone: DEFAULT_TIMEZONE, plan }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireRoleless(request)
  const zones = new Set(timezoneList())
  const parsed = z
    .object({
      companyName: z
        .string({ error: 'Company name is required.' })
        .trim()
        .min(1, 'Company name is required.')
        .max(120, 'Use at most 120 characters.'),
      timezone: z.string().refine((zone) => zones.has(zone), 'Choose a timezone from the list.'),
      // The plan chosen on the pricing page rides along; anything else starts on the entry plan.
      plan: z
        .string()
        .optional()
        .transform((value) => poolBudPlanOf(value) ?? undefined),
    })
    .safeParse(Object.fromEntries(await readForm(request)))
  if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? 'Check the form.' }, 400)
  const result = await startTrialCompany({ userId: user.id, ...parsed.data })
  if (!result.ok) throw redirect(await homePathFor(user))
  throw redirect('/app')
}

export function meta() {
  return [{ title: 'Start your company · Pool Bud' }]
}

export default function StartTrial({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  return (
    <Card className="mx-auto w-full max-w-md space-y-4">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Start your company</h1>
        <p className="text-sm text-slate-600">
          Signed in as {loaderData.email}. Name your pool company to start a {TRIAL_DAYS}-day trial; you will be its
          owner and can invite your team from the dashboard.
        </p>
        {loaderData.plan ? (
          <p className="text-sm font-medium text-brand-800">
            Plan: {loaderData.plan} — you pay nothing during the trial and can change plans before it ends.
          </p>
        ) : null}
      </div>
      <Form method="post" className="space-y-4">
        {loaderData.plan ? <input type="hidden" name="plan" value={loaderData.plan.toLowerCase()} /> : null}
        <Field
          label="Company name"
          inputProps={{ name: 'companyName', required: true, maxLength: 120, autoComplete: 'organization' }}
        />
        <div className="space-y-1">
          <label htmlFor="trial-timezone" className="block text-sm font-medium text-slate-800">
            Timezone
          </label>
          <select id="trial-timezone" name="timezone" defaultValue={loaderData.defaultTimezone} className={inputClass}>
            {loaderData.timezones.map((zone) => (
              <option key={zone} value={zone}>
                {zone.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </div>
        {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
        <Button type="submit" pending={navigation.state !== 'idle'} pendingLabel="Creating…" className="w-full">
          Start my company
        </Button>
      </Form>
    </Card>
  )
}
