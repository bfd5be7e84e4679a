// Settings → "Company logo" (issue 38 item 8, docs/decisions/044-company-brand.md): the settings action's part for
// uploading the logo (intent `logo-upload`, a multipart form) and removing it (`logo-remove`, asked first).
import { data } from 'react-router'
import { LOGO_MESSAGES } from '~/models/company-brand'
import { removeCompanyLogo, saveCompanyLogo } from '~/models/company-brand.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { logger } from '~/utils/logger.server'
import { failureStatus } from '~/utils/result'

export type LogoReply = { logo: { ok: boolean; message: string } }

export async function companyLogoAction(companyId: string, intent: 'logo-upload' | 'logo-remove', formData: FormData) {
  try {
    if (intent === 'logo-remove') {
      const removed = await removeCompanyLogo(companyId)
      if (!removed.ok) return data<LogoReply>({ logo: removed }, failureStatus(removed))
      return { logo: { ok: true, message: LOGO_MESSAGES.removed } } satisfies LogoReply
    }
    const file = formData.get('logo')
    if (!(file instanceof File) || file.size === 0) {
      return data<LogoReply>({ logo: { ok: false, message: LOGO_MESSAGES.noFile } }, 400)
    }
    const saved = await saveCompanyLogo(companyId, new Uint8Array(await file.arrayBuffer()))
    if (!saved.ok) return data<LogoReply>({ logo: { ok: false, message: saved.message } }, failureStatus(saved))
    return { logo: { ok: true, message: LOGO_MESSAGES.saved } } satisfies LogoReply
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, companyId, intent }, 'company logo change failed')
    return data<LogoReply>({ logo: { ok: false, message: LOGO_MESSAGES.failed } }, 500)
  }
}
