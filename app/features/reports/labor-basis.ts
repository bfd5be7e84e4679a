// Where a "Profit per pool" row's labor comes from (docs/profit.md): the approved timesheets where the technician's
// week is approved, else the estimate from the location's minutes on site. Pure: the page and the CSV say the same.

export const FROM_APPROVED = 'from approved timesheets'
export const ESTIMATED = 'estimated from time on site'

/** "from approved timesheets", "estimated from time on site", or "2 of 3 visits from approved timesheets"; null with no visits. */
export function laborBasisText({ visits, approvedVisits }: { visits: number; approvedVisits: number }) {
  if (visits <= 0) return null
  if (approvedVisits <= 0) return ESTIMATED
  if (approvedVisits >= visits) return FROM_APPROVED
  return `${approvedVisits} of ${visits} visits ${FROM_APPROVED}`
}
