// /start — a self-serve trial: someone signed in without a role starts their own company and
// becomes its owner (issue #6). Everyone with a role is sent to where they belong.
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useMemo } from 'react'
import { data, Form, redirect, useNavigation } from 'react-router'
import { homePathFor, requireRoleless } from '~/auth/guards.server'
import { planNamed } from '~/components/marketing/nav-links'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { SelectField, TextField } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import { startCompanySchema } from '~/features/auth/start-company-schema'
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
  const submission = parseWithZod(await readForm(request), { schema: startCompanySchema(timezoneList()) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, 400)
  const result = await startTrialCompany({ userId: user.id, ...submission.value })
  // Someone who got a role or a company meanwhile (another tab, an accepted invitation) goes where they belong.
  if (!result.ok) throw redirect(await homePathFor(user))
  throw redirect('/app')
}

export function meta() {
  return [{ title: 'Start your company · Pool Bud' }]
}

export default function StartTrial({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const schema = useMemo(() => startCompanySchema(loaderData.timezones), [loaderData.timezones])
  const [form, fields] = useZodForm(schema, {
    id: 'start-company',
    lastResult: actionData?.result,
    defaultValue: { timezone: loaderData.defaultTimezone },
  })
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
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {loaderData.plan ? <input type="hidden" name="plan" value={loaderData.plan.toLowerCase()} /> : null}
        <TextField field={fields.companyName} label="Company name" autoComplete="organization" />
        <SelectField field={fields.timezone} label="Timezone">
          {loaderData.timezones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </SelectField>
        <FormErrors form={form} />
        <Button type="submit" pending={navigation.state !== 'idle'} pendingLabel="Creating…" className="w-full">
          Start my company
        </Button>
      </Form>
    </Card>
  )
}
