// /app/settings/price-book: Settings → "Price book" (owners and admins; issue 33 item 1, docs/quotes.md).
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { archivePriceBookItem, loadPriceBookPage, savePriceBookItem } from '~/features/quotes/price-book.server'
import { PriceBookForm, PriceBookList } from '~/features/quotes/price-book-section'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import type { Route } from './+types/settings-price-book'

export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'pricebook:manage')
  return loadPriceBookPage(member.companyId, new URL(request.url))
}

export async function action({ request }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'pricebook:manage')
  const formData = await readForm(request)
  switch (formData.get('intent')) {
    case 'save':
      return savePriceBookItem(member.companyId, member.id, formData)
    case 'archive':
      return archivePriceBookItem(member.companyId, formData, true)
    case 'restore':
      return archivePriceBookItem(member.companyId, formData, false)
  }
  return unknownIntent()
}

export function meta() {
  return [{ title: 'Price book · Settings · Pool Bud' }]
}

export default function PriceBookPage({ loaderData, actionData }: Route.ComponentProps) {
  const saveReply = actionData?.intent === 'save' ? actionData : undefined
  const saved = actionData?.saved
  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <p className="text-sm">
        <a href="/app/settings" className="underline">
          ← Settings
        </a>
      </p>
      <h1 className="text-2xl font-bold">Price book</h1>
      <PriceBookForm
        key={`${loaderData.editing?.itemId ?? 'new'}:${saved ?? ''}`}
        editing={loaderData.editing}
        freshKey={loaderData.addFormKey}
        inventory={loaderData.inventory}
        lastResult={saveReply?.result}
        saved={saveReply?.saved}
      />
      {actionData?.intent === 'archive' && saved ? <p role="status">{saved}</p> : null}
      <PriceBookList
        items={loaderData.items}
        page={loaderData.page}
        pageCount={loaderData.pageCount}
        archived={loaderData.archived}
        query={loaderData.query}
      />
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
