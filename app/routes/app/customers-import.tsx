// /app/customers/import — "Import customers" (docs/product.md "Import", decision 016): upload a CSV, check the field
// each column goes into, "Preview" (counts and every row's problems, nothing written), then "Import". The file is kept
// in private storage between those steps, so it is uploaded once and the import reads exactly what the preview read.
import { Link, type ShouldRevalidateFunctionArgs } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import {
  loadImportPage,
  previewOrImport,
  uploadFile,
  uploadRefused,
} from '~/features/customer-import/import-page.server'
import { CHOOSE_A_FILE, FILE_TOO_LARGE, MAX_CSV_BYTES } from '~/features/customer-import/import-schema'
import { MappingStep, UploadStep } from '~/features/customer-import/import-steps'
import { readUploadForm } from '~/utils/import-uploads.server'
import { unknownIntent } from '~/utils/intent'
import type { Route } from './+types/customers-import'

export async function loader({ request }: Route.LoaderArgs) {
  const { companyId } = await requireCompanyCapability(request, 'customers:manage')
  return loadImportPage(companyId, new URL(request.url).searchParams.get('upload'))
}

export async function action({ request }: Route.ActionArgs) {
  const { companyId, id: userId } = await requireCompanyCapability(request, 'customers:manage')
  const form = await readUploadForm(request, MAX_CSV_BYTES)
  if (form === 'too-large') return uploadRefused(FILE_TOO_LARGE)
  if (form === 'malformed') return uploadRefused(CHOOSE_A_FILE)
  const intent = form.get('intent')
  if (intent === 'upload') return uploadFile(companyId, form)
  if (intent === 'preview' || intent === 'import') return previewOrImport({ companyId, userId }, form, intent)
  unknownIntent()
}

/** A preview changes nothing, so the page's data (the file's columns) need not be read again after it. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get('intent') === 'preview') return false
  return defaultShouldRevalidate
}

export function meta() {
  return [{ title: 'Import customers · Pool Bud' }]
}

const linkClass = cn('font-medium text-brand-700 underline', textLinkTarget)

export default function ImportCustomersPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold text-slate-900">Import customers</h1>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <Link to="/app/customers" className={linkClass}>
            Back to customers
          </Link>
          <a href="/app/customers/export.csv" download className={linkClass}>
            Export customers (CSV)
          </a>
        </div>
      </div>
      {loaderData.upload ? (
        <MappingStep upload={loaderData.upload} importKey={loaderData.importKey} reply={actionData} />
      ) : (
        <UploadStep uploadGone={loaderData.uploadGone} reply={actionData} />
      )}
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
