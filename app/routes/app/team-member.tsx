// /app/team/:memberId — Team → technician (owners and admins): the technician's working day (start and end address,
// hours; routing and arrival times use them) and their pay and hourly cost ("Profit per pool"). Another company's
// member, or anyone who is not a technician, is a 404; a technician opening it gets the 403 card.
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { textLinkTarget } from '~/components/ui/touch'
import { SAVE_TECHNICIAN, TechnicianForm } from '~/features/team/technician-form'
import {
  TECHNICIAN_MESSAGES,
  type TechnicianReply,
  TechnicianSchema,
  technicianFormValues,
} from '~/features/team/technician-schema'
import { getTechnicianProfile, updateTechnicianProfile } from '~/models/technician-profile.server'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import { failureStatus } from '~/utils/result'
import type { Route } from './+types/team-member'

export async function loader({ request, params }: Route.LoaderArgs) {
  const { companyId } = await requireCompanyCapability(request, 'team:invite')
  const technician = await getTechnicianProfile(companyId, params.memberId)
  if (!technician) notFound()
  return {
    name: technician.fullName || technician.email,
    email: technician.email,
    companyAddress: technician.companyStartAddress,
    values: technicianFormValues(technician),
    start: {
      address: technician.startAddress,
      approximate: technician.startApproximate,
      placed: technician.startLat !== null,
    },
    end: { address: technician.endAddress, approximate: technician.endApproximate, placed: technician.endLat !== null },
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { companyId } = await requireCompanyCapability(request, 'team:invite')
  // Another company's member is a 404 before anything posted is read.
  if (!(await getTechnicianProfile(companyId, params.memberId))) notFound()
  const formData = await readForm(request)
  if (formData.get('intent') !== SAVE_TECHNICIAN) return unknownIntent()
  const submission = parseWithZod(formData, { schema: TechnicianSchema })
  if (submission.status !== 'success') {
    return data<TechnicianReply>({ ok: false, message: '', result: submission.reply() }, 400)
  }
  const { hourlyCost, hourlyRate, perStopRate, skippedVisitExtra, ...rest } = submission.value
  const outcome = await updateTechnicianProfile(companyId, params.memberId, {
    ...rest,
    hourlyCostCents: hourlyCost,
    hourlyRateCents: hourlyRate,
    perStopRateCents: perStopRate,
    skippedVisitExtraCents: skippedVisitExtra,
  })
  if (!outcome.ok) {
    if (outcome.code === 'not-found') notFound()
    const result = outcome.field
      ? submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] } })
      : submission.reply({ formErrors: [outcome.message] })
    return data<TechnicianReply>({ ok: false, message: outcome.message, result }, failureStatus(outcome))
  }
  return data<TechnicianReply>({ ok: true, message: TECHNICIAN_MESSAGES.saved, result: submission.reply() })
}

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: `${page?.name ?? 'Technician'} · Team · Pool Bud` }]
}

export default function TeamMemberPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <Link to="/app/team" className={`${textLinkTarget} text-sm font-medium text-brand-700 hover:underline`}>
          ← Team
        </Link>
        <h1 className="text-2xl font-bold">{loaderData.name}</h1>
        <p className="text-sm text-slate-600">Technician · {loaderData.email}</p>
      </div>
      <TechnicianForm
        values={loaderData.values}
        companyAddress={loaderData.companyAddress}
        start={loaderData.start}
        end={loaderData.end}
        reply={actionData}
      />
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
