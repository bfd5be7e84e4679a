// POST /app/field/clock — one tap of the technician's clock ("Start day", "Break", "Back", "End day") from Today's
// queue (app/field/queue.ts), at once when online or when the connection returns, with the phone's time. JSON in,
// JSON out, answered as /app/field/changes is (docs/time.md):
//   200 { ok: true, replayed? }            recorded (a replay of an event id already recorded writes nothing)
//   4xx { ok: false, refused: true, … }     never recorded; the phone shows why
//   401 { ok: false, signedOut: true }      the session ended: the queue waits for the technician to sign in
//   409 { ok: false, otherPerson: true, … } made by someone else on this phone (X-Pool-Bud-Owner): kept for them
import { requireCompanyCapabilityForScript } from '~/auth/guards.server'
import { refuseAnotherPersonsChange } from '~/auth/offline-owner.server'
import { ClockChangeSchema } from '~/field/changes'
import { recordTimeEvent } from '~/models/time-clock.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { type Failure, failure, failureStatus } from '~/utils/result'
import type { Route } from './+types/field-clock'

const MAX_BODY_BYTES = 4 * 1024
const NO_STORE = { 'Cache-Control': 'private, no-store' }

function refuse({ code, message }: Pick<Failure, 'code' | 'message'>) {
  return Response.json(
    { ok: false, refused: true, code, message },
    { status: failureStatus({ code }), headers: NO_STORE },
  )
}

export async function action({ request }: Route.ActionArgs) {
  const member = await requireCompanyCapabilityForScript(request, 'time:clock')
  refuseAnotherPersonsChange(request, member)
  const text = await request.text()
  if (text.length > MAX_BODY_BYTES) return refuse(failure('too-large', 'This change is too large to send.'))
  let body: unknown = null
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: answered below as a change that could not be read.
  }
  const parsed = ClockChangeSchema.safeParse(body)
  if (!parsed.success) {
    return refuse(failure('invalid', parsed.error.issues[0]?.message ?? 'This change could not be read.'))
  }
  try {
    const recorded = await recordTimeEvent(
      { id: member.id, companyId: member.companyId, timezone: member.timezone },
      parsed.data,
    )
    if (!recorded.ok) return refuse(recorded)
    return Response.json(recorded.replayed ? { ok: true, replayed: true } : { ok: true }, { headers: NO_STORE })
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    throw error
  }
}
