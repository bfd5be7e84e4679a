import { pingDatabase } from '~/utils/db.server'

/** For load balancers: 200 when the database answers. */
export async function loader() {
  try {
    await pingDatabase()
    return Response.json({ ok: true })
  } catch {
    return Response.json({ ok: false }, { status: 503 })
  }
}
