// /app/settings (OPERATIONS §5, §7): the company's own settings, then "Plan", "Billing", "Checklist", "Customer
// notices" and "Export all data". Every section's form posts here; its intent names the section (the company's
// own form posts none). Dispatchers read; owners and admins save.
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { loadNoticeSettings, saveNoticeSettingsForm } from '~/features/notices/notice-settings.server'
import { NoticeSettingsSection } from '~/features/notices/notice-settings-section'
import { loadBillingSettings, saveBillingSettingsForm } from '~/features/settings/billing-settings.server'
import { BillingSettingsSection } from '~/features/settings/billing-settings-section'
import { checklistAction } from '~/features/settings/checklist-actions.server'
import { ChecklistSection } from '~/features/settings/checklist-section'
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
    timezones: company.timezones,
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
  }
  return saveCompanySettings(user, formData)
}

export function meta() {
  return [{ title: 'Settings · Pool Bud' }]
}

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, timezones, checklist, canSave } = loaderData
  // A section's form posts here too (without JavaScript its answer is the page's); each form reads its own reply.
  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <CompanySettingsSection
        data={{ settings, timezones }}
        canSave={canSave}
        canEditBilling={loaderData.canEditBilling}
        reply={actionData && 'result' in actionData ? actionData : undefined}
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
      {loaderData.canExport ? <ExportDataSection /> : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
