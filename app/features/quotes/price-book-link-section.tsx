// Settings → "Price book" (owners and admins): the items quotes start from have a page of their own.
import { buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'

export function PriceBookLinkSection() {
  return (
    <Card className="space-y-3" aria-labelledby="settings-price-book">
      <h2 id="settings-price-book" className="text-lg font-semibold">
        Price book
      </h2>
      <p className="text-sm text-slate-700">The parts and labor your quotes start from, with their price and cost.</p>
      <a href="/app/settings/price-book" className={buttonClass('secondary')}>
        Open price book
      </a>
    </Card>
  )
}
