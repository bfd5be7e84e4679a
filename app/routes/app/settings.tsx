// /app/settings (docs/product.md "The visit"; docs/billing.md): the company's own settings, then "Plan", "Billing",
// "Checklist", "Customer notices" and "Export all data". Every section's form posts here; its intent names the section
// (the company's own form posts none). Dispatchers read; owners and admins save.
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { DeveloperLinksSection } from '~/features/developers/developer-links-section'
import { loadNoticeSettings, saveNoticeSettingsForm } from '~/features/notices/notice-settings.server'
import { NoticeSettingsSection } from '~/features/notices/notice-settings-section'
import { PriceBookLinkSection } from '~/features/quotes/price-book-link-section'
import { loadBillingSettings, saveBillingSettingsForm } from '~/features/settings/billing-settings.server'
import { BillingSettingsSection } from '~/features/settings/billing-settings-section'
import { checklistAction } from '~/features/settings/checklist-actions.server'
import { ChecklistSection } from '~/features/settings/checklist-section'
import { companyLogoAction } from '~/features/settings/company-logo.server'
import { CompanyLogoSection } from '~/features/settings/company-logo-section'
import { loadCompanySettings, saveCompanySettings } from '~/features/settings/company-settings.server'
import { CompanySettingsSection } from '~/features/settings/company-settings-section'
import { ExportDataSection } from '~/features/settings/export-data-section'
import { PlanSection } from '~/features/settings/plan-section'
import { listChecklist } from '~/models/checklist.server'
import { readForm } from '~/utils/forms'
import { can } from '~/utils/permissions'
import type { Route } from './+types/settings'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompanyCapability(request, 'settings:view')
  const [company, checklist, notices, billing] = await Promise.all([
    loadCompanySettings(user.companyId),
    listChecklist(user.companyId),
    loadNoticeSettings(user.companyId),
    loadBillingSettings(user.companyId, user.timezone),
  ])
  return {
    checklist,
    notices,
    billing,
    settings: company.settings,
    canSave: can(user.role, 'settings:save'),
    canExport: can(user.role, 'data:export'),
    canEditBilling: can(user.role, 'settings:billing'),
    canManageApi: can(user.role, 'api:manage'),
    canManagePriceBook: can(user.role, 'pricebook:manage'),
    timezones: company.timezones,
    logoUrl: company.logoUrl,
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCompanyCapability(request, 'settings:save')
  const formData = await readForm(request)
  const intent = formData.get('intent')
  switch (intent) {
    case 'checklist-add':
    case 'checklist-rename':
    case 'checklist-move':
    case 'checklist-photo':
    case 'checklist-remove':
    case 'checklist-restore':
      return checklistAction(user.companyId, intent, formData)
    case 'notice-settings':
      return saveNoticeSettingsForm(user.companyId, formData)
    case 'billing-settings':
      return saveBillingSettingsForm(user.companyId, formData)
    case 'logo-upload':
    case 'logo-remove':
      return companyLogoAction(user.companyId, intent, formData)
  }
  return saveCompanySettings(user, formData)
}

export function meta() {
  return [{ title: 'Settings · Pool Bud' }]
}

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, timezones, logoUrl, checklist, canSave } = loaderData
  // A section's form posts here too (without JavaScript its answer is the page's); each form reads its own reply.
  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <CompanySettingsSection
        data={{ settings, timezones, logoUrl }}
        canSave={canSave}
        canEditBilling={loaderData.canEditBilling}
        reply={actionData && 'result' in actionData ? actionData : undefined}
      />
      <CompanyLogoSection
        logoUrl={logoUrl}
        companyName={settings.name}
        canSave={canSave}
        reply={actionData && 'logo' in actionData ? actionData.logo : undefined}
      />
      <PlanSection plan={loaderData.billing.plan} />
      <BillingSettingsSection
        form={loaderData.billing.form}
        canSave={canSave}
        reply={actionData && 'billingSettings' in actionData ? actionData.billingSettings : undefined}
      />
      <ChecklistSection
        items={checklist}
        canEdit={canSave}
        reply={actionData && 'checklist' in actionData ? actionData.checklist : undefined}
      />
      <NoticeSettingsSection
        data={loaderData.notices}
        canSave={canSave}
        reply={actionData && 'noticeSettings' in actionData ? actionData.noticeSettings : undefined}
      />
      {loaderData.canManagePriceBook ? <PriceBookLinkSection /> : null}
      {loaderData.canExport ? <ExportDataSection /> : null}
      {loaderData.canManageApi ? <DeveloperLinksSection /> : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
