// The staff company-setup route's server part (SPEC §2, §4, §5): the companies page, and the three forms' saves.
// The route checks that a platform admin is asking.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import {
  assignOwner,
  COMPANIES_PAGE_SIZE,
  listCompanies,
  listCompanyOptions,
  updateCompany,
} from '~/models/company.server'
import { inviteOwner } from '~/models/owner-invitation.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { formatDate } from '~/utils/dates'
import { logger } from '~/utils/logger.server'
import { failureStatus } from '~/utils/result'
import { AssignOwnerSchema, InviteOwnerSchema, type StaffReply, UpdateCompanySchema } from './company-setup-schema'

/** The companies matching `q` (name or id prefix), a page of them, and every company for the invite's picker. */
export async function loadCompanySetup(url: URL) {
  const q = (url.searchParams.get('q') ?? '').slice(0, 100)
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1)
  try {
    const [list, options] = await Promise.all([listCompanies({ query: q, page }), listCompanyOptions()])
    return {
      q,
      page,
      pageCount: Math.max(1, Math.ceil(list.total / COMPANIES_PAGE_SIZE)),
      total: list.total,
      options,
      companies: list.companies.map((company) => ({
        ...company,
        created: formatDate(company.createdAt, 'UTC'),
        createdAt: company.createdAt.toISOString(),
      })),
      loadError: null,
    }
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error }, 'could not load companies')
    return { q, page, pageCount: 1, total: 0, options: [], companies: [], loadError: 'Unable to load companies.' }
  }
}

export type CompanySetupData = Awaited<ReturnType<typeof loadCompanySetup>>

function reply(body: StaffReply, status = 200) {
  return data<StaffReply>(body, status)
}

/** A form refused by its schema: the first reason as the message, every reason at its field. */
function refused(intent: string, result: StaffReply['result'], companyId?: string) {
  const message = Object.values(result?.error ?? {}).flatMap((errors) => errors ?? [])[0] ?? ''
  return reply({ intent, ...(companyId === undefined ? {} : { companyId }), ok: false, message, result }, 400)
}

/** "Send owner invite": the owner of an existing company, or of a new one created with the invite. */
export async function inviteOwnerForm(invitedBy: string, formData: FormData) {
  const intent = 'invite-owner'
  const submission = parseWithZod(formData, { schema: InviteOwnerSchema })
  if (submission.status !== 'success') return refused(intent, submission.reply())
  const v = submission.value
  const owner = { fullName: v.fullName, email: v.email, phone: v.phone }
  const result = await inviteOwner(
    v.mode === 'existing'
      ? { mode: 'existing', companyId: v.companyId ?? '', owner, invitedBy }
      : { mode: 'new', companyName: v.companyName ?? '', owner, invitedBy },
  )
  if (!result.ok) return reply({ intent, ok: false, message: result.message }, failureStatus(result))
  const saved = submission.reply({ resetForm: true })
  return reply({ intent, companyId: result.companyId, ok: true, message: result.message, result: saved })
}

/** A company's "Save": its name. */
export async function updateCompanyForm(formData: FormData) {
  const intent = 'update-company'
  const companyId = String(formData.get('companyId') ?? '')
  const submission = parseWithZod(formData, { schema: UpdateCompanySchema })
  if (submission.status !== 'success') return refused(intent, submission.reply(), companyId)
  const saved = await updateCompany(submission.value).catch((error: unknown) => {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, companyId }, 'company update failed')
    return null
  })
  if (saved === false) throw data({ reason: 'not-found' }, { status: 404 })
  if (saved === null) return reply({ intent, companyId, ok: false, message: 'Unable to update company.' }, 500)
  return reply({ intent, companyId, ok: true, message: 'Company saved.', result: submission.reply() })
}

/** "Assign owner": the chosen teammate becomes the owner; previous owners become admins. */
export async function assignOwnerForm(formData: FormData) {
  const intent = 'assign-owner'
  const companyId = String(formData.get('companyId') ?? '')
  const submission = parseWithZod(formData, { schema: AssignOwnerSchema })
  if (submission.status !== 'success') return refused(intent, submission.reply(), companyId)
  const outcome = await assignOwner(submission.value).catch((error: unknown) => {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, companyId }, 'ownership transfer failed')
    return null
  })
  if (outcome === 'not-found') throw data({ reason: 'not-found' }, { status: 404 })
  if (outcome === null) return reply({ intent, companyId, ok: false, message: 'Unable to assign owner.' }, 500)
  return reply({
    intent,
    companyId,
    ok: true,
    message: 'Owner assigned. Previous owners are now admins.',
    result: submission.reply(),
  })
}
