import { cn } from './ui/cn'

/**
 * What a technician needs at the property (docs/product.md "Records"). Staff of the company only: never given to a
 * portal.
 */
export type SiteAccessView = {
  gateCode: string | null
  accessNotes: string | null
  dogOnSite: boolean
  minutesOnSite: number
}

/**
 * "Gate code", "Access notes", "Dog on site", "Minutes on site" for a visit: on the visit page and the technician's
 * day list. The dog is called out in bold red (it decides whether the gate is opened at all).
 */
export function SiteAccess({ access, className }: { access: SiteAccessView; className?: string }) {
  return (
    <dl className={cn('grid grid-cols-2 gap-x-4 gap-y-2 text-base', className)}>
      <div>
        <dt className="access-term">Gate code</dt>
        <dd className="font-mono text-lg font-bold break-all text-slate-900">{access.gateCode ?? 'None'}</dd>
      </div>
      <div>
        <dt className="access-term">Minutes on site</dt>
        <dd className="font-semibold text-slate-900">{access.minutesOnSite}</dd>
      </div>
      <div>
        <dt className="access-term">Dog on site</dt>
        <dd className={cn('font-semibold', access.dogOnSite ? 'text-red-700' : 'text-slate-900')}>
          {access.dogOnSite ? 'Yes' : 'No'}
        </dd>
      </div>
      {access.accessNotes ? (
        <div className="col-span-2">
          <dt className="access-term">Access notes</dt>
          <dd className="whitespace-pre-line break-words text-slate-900">{access.accessNotes}</dd>
        </div>
      ) : null}
    </dl>
  )
}
