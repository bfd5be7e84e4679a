// GET /app/timesheets/payroll.csv?from=&to= — the payroll export (docs/time.md, decision 057): every approved week
// whose Monday falls from the week of `from` to the week of `to`, one row per technician and day. Owners and admins.
import { requireCompanyCapability } from '~/auth/guards.server'
import { payrollCsvFileName, payrollToCsv } from '~/features/time/payroll-csv'
import { payrollRows } from '~/models/payroll.server'
import { mondayOf } from '~/models/week-board.server'
import { addDays, daysBetween, localDateAt, parseAddressDate } from '~/schedule/local-date'
import type { Route } from './+types/payroll-csv'

/** At most a year of weeks in one file. */
const MAX_WEEKS = 53

function badRequest(message: string) {
  return new Response(message, { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}

export async function loader({ request }: Route.LoaderArgs) {
  const { companyId, timezone } = await requireCompanyCapability(request, 'time:manage')
  const url = new URL(request.url)
  const today = localDateAt(new Date(), timezone)
  const from = parseAddressDate(url.searchParams.get('from') ?? today)
  const to = parseAddressDate(url.searchParams.get('to') ?? url.searchParams.get('from') ?? today)
  if (!from || !to) return badRequest('Choose the weeks as dates, like 2026-11-30.')
  const first = mondayOf(from)
  const last = mondayOf(to)
  if (last < first) return badRequest('“To” must not be before “Weeks from”.')
  if (daysBetween(first, last) / 7 >= MAX_WEEKS) return badRequest('Export at most a year of weeks at a time.')
  const rows = await payrollRows({ companyId, timezone, from: first, to: addDays(last, 7) })
  return new Response(payrollToCsv(rows), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${payrollCsvFileName(first, addDays(last, 6))}"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
