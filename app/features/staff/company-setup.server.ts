// The staff company-setup route's server part (docs/product.md "Screens", "Visit states", "Forms"): the companies page,
// and the three forms' saves. The route checks that a platform admin is asking.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { refusalStatus } from '~/auth/guards.server'
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
import { readPage } from '~/utils/paging'
import { failure, failureStatus, type Result } from '~/utils/result'
import { AssignOwnerSchema, InviteOwnerSchema, type StaffReply, UpdateCompanySchema } from './company-setup-schema'

/** The companies matching `q` (name or id prefix), a page of them, and every company for the invite's picker. */
export async function loadCompanySetup(url: URL) {
  const q = (url.searchParams.get('q') ?? '').slice(0, 100)
  const page = readPage(url)
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

/** The company a form names, as posted (echoed in the reply so the page answers on that company's card). */
function postedCompanyId(payload: Record<string, unknown>) {
  return typeof payload.companyId === 'string' ? payload.companyId : ''
}

/** A change to a company: its own refusal (not found is the 404 page), or an unexpected error logged as `failed`. */
async function changeCompany(
  companyId: string,
  { log, message }: { log: string; message: string },
  change: () => Promise<Result>,
) {
  try {
    return await change()
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, companyId }, log)
    return failure('failed', message)
  }
}

/** A company's "Save": its name. */
export async function updateCompanyForm(formData: FormData) {
  const intent = 'update-company'
  const submission = parseWithZod(formData, { schema: UpdateCompanySchema })
  const companyId = postedCompanyId(submission.payload)
  if (submission.status !== 'success') return refused(intent, submission.reply(), companyId)
  const saved = await changeCompany(
    companyId,
    { log: 'company update failed', message: 'Unable to update company.' },
    () => updateCompany(submission.value),
  )
  if (!saved.ok) return reply({ intent, companyId, ok: false, message: saved.message }, refusalStatus(saved))
  return reply({ intent, companyId, ok: true, message: 'Company saved.', result: submission.reply() })
}

/** "Assign owner": the chosen teammate becomes the owner; previous owners become admins. */
export async function assignOwnerForm(formData: FormData) {
  const intent = 'assign-owner'
  const submission = parseWithZod(formData, { schema: AssignOwnerSchema })
  const companyId = postedCompanyId(submission.payload)
  if (submission.status !== 'success') return refused(intent, submission.reply(), companyId)
  const outcome = await changeCompany(
    companyId,
    { log: 'ownership transfer failed', message: 'Unable to assign owner.' },
    () => assignOwner(submission.value),
  )
  if (!outcome.ok) return reply({ intent, companyId, ok: false, message: outcome.message }, refusalStatus(outcome))
  return reply({
    intent,
    companyId,
    ok: true,
    message: 'Owner assigned. Previous owners are now admins.',
    result: submission.reply(),
  })
}
