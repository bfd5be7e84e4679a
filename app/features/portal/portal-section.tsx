import type { ReactNode } from 'react'
import { Card } from '~/components/ui/card'

/** A card of a list: one visit or one reading (phone first, so no wide tables to scroll sideways). */
export const listCard = 'rounded-lg border border-slate-200 p-4'
/** Label and value rows inside a card. */
export const factList = 'grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm'
export const factLabel = 'text-slate-600'

/** A portal section: a card titled `title` that shows `empty` instead of its list when there is nothing to list. */
export function PortalSection({
  id,
  title,
  isEmpty,
  empty,
  children,
}: {
  /** Names the heading (`${id}-heading`), which labels the card. */
  id: string
  title: string
  isEmpty: boolean
  empty: string
  children: ReactNode
}) {
  return (
    <Card aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {isEmpty ? <p className="text-slate-600">{empty}</p> : children}
    </Card>
  )
}
