// POST /app/field/changes — one change to a visit from the technician's phone (app/field/changes.ts): sent by the
// visit page's queue at once when online, or when the connection returns. JSON in, JSON out:
//   200 { ok: true }                       applied (or a replay of a key already applied: written once)
//   4xx { ok: false, refused: true, … }     never applied; the phone shows why and keeps what was typed
//   401 { ok: false, signedOut: true }      the session ended: the queue waits for the technician to sign in
//   409 { ok: false, otherPerson: true, … } made by someone else on this phone (X-Pool-Bud-Owner): kept for them
import { requireCompanyCapabilityForScript } from '~/auth/guards.server'
import { refuseAnotherPersonsChange } from '~/auth/offline-owner.server'
import { FieldChangeSchema } from '~/field/changes'
import { applyFieldChange } from '~/models/visit-work.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { type Failure, failure, failureStatus } from '~/utils/result'
import type { Route } from './+types/field-changes'

const MAX_BODY_BYTES = 64 * 1024
const NO_STORE = { 'Cache-Control': 'private, no-store' }

/** A change never applied, for good: the phone shows why and keeps what was typed. */
function refuse({ code, message }: Failure) {
  return Response.json(
    { ok: false, refused: true, code, message },
    { status: failureStatus({ code }), headers: NO_STORE },
  )
}

export async function action({ request }: Route.ActionArgs) {
  // A script cannot follow the login redirect: it is told (401), and keeps the change until the technician signs in.
  const member = await requireCompanyCapabilityForScript(request, 'visits:work')
  // A shared phone: another person's change is never applied under this session (decision 030).
  refuseAnotherPersonsChange(request, member)
  const text = await request.text()
  if (text.length > MAX_BODY_BYTES) return refuse(failure('too-large', 'This change is too large to send.'))
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: answered below as a change that could not be read.
    body = null
  }
  const parsed = FieldChangeSchema.safeParse(body)
  if (!parsed.success) {
    return refuse(failure('invalid', parsed.error.issues[0]?.message ?? 'This change could not be read.'))
  }
  try {
    const answer = await applyFieldChange(member, parsed.data)
    const status = answer.ok ? 200 : failureStatus(answer)
    return Response.json(answer, { status, headers: NO_STORE })
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    throw error
  }
}
