// The customer record's action (docs/product.md "Customers"): the intent, the form parsed with its schema, the change
// made by its model (every model filters by the member's company), and one reply shape for the page; a change that is
// done redirects back to the record with a message.
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { z } from 'zod'
import { type CompanyMember, notFound, refusalStatus, requireCompanyCapability } from '~/auth/guards.server'
import { recordPaymentFromForm } from '~/features/billing/record-payment.server'
import { NoticePreferenceSchema } from '~/features/notices/notice-preference-schema'
import { addBodyOfWater, removeBodyOfWater, updateBodyOfWater } from '~/models/body-of-water.server'
import { getCustomer } from '~/models/customer.server'
import { archiveCustomer, restoreCustomer, updateCustomerContact } from '~/models/customer-changes.server'
import { setCustomerNoticeChannel } from '~/models/customer-messages.server'
import { BodyOfWaterSchema, ContactSchema, EquipmentSchema, ServiceLocationSchema } from '~/models/customer-schemas'
import { addEquipment, removeEquipment, updateEquipment } from '~/models/equipment.server'
import { editServicePlan, type PlanEditOutcome, pauseServicePlan, resumeServicePlan } from '~/models/plan-edits.server'
import { addServiceLocation, removeServiceLocation, updateServiceLocation } from '~/models/service-location.server'
import { createServicePlan, endServicePlan } from '~/models/service-plan.server'
import {
  EditPlanSchema,
  EndPlanSchema,
  PausePlanSchema,
  type ServicePlanInput,
  ServicePlanSchema,
} from '~/models/service-plan-schemas'
import { redirectWithFlash } from '~/utils/flash.server'
import { unknownIntent } from '~/utils/intent'
import type { Failure, Result } from '~/utils/result'
import { type RecordIntent, RecordIntentSchema } from './customer-record-schema'
import { parseCustomerForm } from './form-fields'

/** One post to the record: whose it is, its intent, and the piece it names (`targetId`). */
type Post = { companyId: string; customerId: string; intent: RecordIntent; target: string; formData: FormData }

/** The id a model is given: the page's own customer, or the piece the post names. */
type Key = 'customerId' | 'locationId' | 'bodyOfWaterId' | 'equipmentId' | 'planId'

function scoped<K extends Key>(post: Post, key: K) {
  const id = key === 'customerId' ? post.customerId : post.target
  return { companyId: post.companyId, [key]: id } as { companyId: string } & Record<K, string>
}

const backTo = (post: Post) => `/app/customers/${post.customerId}`

function reply(post: Post, message: string | null, result: SubmissionResult<string[]> | undefined, status: number) {
  return data({ intent: post.intent, target: post.target, message, result }, status)
}

type Reply = ReturnType<typeof reply>

/** A model's refusal by its code; a piece that is not there (or is another company's) is a 404. */
function refused(post: Post, failure: Failure, result?: SubmissionResult<string[]>) {
  return reply(post, failure.message, result, refusalStatus(failure))
}

/**
 * A form's save: the schema's errors next to its fields, the model's answer by its code. `change` gets the parsed
 * value and the form as posted (for models that parse their input themselves).
 */
function save<S extends z.ZodType, T extends object>(
  schema: S,
  change: (post: Post, value: z.output<S>, posted: Record<string, unknown>) => Promise<Result<T>>,
  done: string | ((result: T) => string),
) {
  return async (post: Post): Promise<Reply> => {
    const submission = parseCustomerForm(post.formData, schema)
    if (submission.status !== 'success') return reply(post, null, submission.reply(), 400)
    const result = await change(post, submission.value as z.output<S>, submission.payload)
    if (!result.ok) return refused(post, result, submission.reply({ formErrors: [result.message] }))
    return redirectWithFlash(backTo(post), typeof done === 'string' ? done : done(result))
  }
}

/** A form whose model takes `{ companyId, <key>, input }`: the contact details, a location, a body, equipment. */
function edit<S extends z.ZodType, K extends Key>(
  schema: S,
  done: string,
  model: (args: { companyId: string; input: z.output<S> } & Record<K, string>) => Promise<Result>,
  key: K,
) {
  return save(schema, (post, input) => model({ ...scoped(post, key), input }), done)
}

/** A button's change (remove, archive, restore): its answer by its code. */
function button<K extends Key>(
  done: string,
  model: (args: { companyId: string } & Record<K, string>) => Promise<Result>,
  key: K,
) {
  return async (post: Post): Promise<Reply> => {
    const result = await model(scoped(post, key))
    if (!result.ok) return refused(post, result)
    return redirectWithFlash(backTo(post), done)
  }
}

const visits = (count: number) => `${count} ${count === 1 ? 'visit' : 'visits'}`

/**
 * A plan change that may remove visits (docs/decisions/048-…): the first post only counts them and, when some go,
 * answers with the question ("12 future visits will be removed.") for the form to ask; the form posts again with
 * `confirmed=yes`. A change that removes nothing is saved at once.
 */
function planChange<S extends z.ZodType>(
  schema: S,
  change: (post: Post, posted: z.input<S>) => Promise<Result<PlanEditOutcome>>,
  done: string,
) {
  return async (post: Post): Promise<Reply> => {
    const submission = parseCustomerForm(post.formData, schema)
    if (submission.status !== 'success') return reply(post, null, submission.reply(), 400)
    // The model parses the form as posted again (its schema is this one).
    const result = await change(post, submission.payload as z.input<S>)
    if (!result.ok) return refused(post, result, submission.reply({ formErrors: [result.message] }))
    const { removed, added } = result
    if (!result.applied) {
      const question = `${removed === 1 ? '1 future visit' : `${removed} future visits`} will be removed${added > 0 ? ` and ${visits(added)} added` : ''}.`
      return data(
        { intent: post.intent, target: post.target, message: null, result: submission.reply(), confirm: question },
        200,
      )
    }
    const counts = [removed > 0 ? `${visits(removed)} removed` : null, added > 0 ? `${visits(added)} added` : null]
    const told = counts.filter(Boolean).join(', ')
    return redirectWithFlash(backTo(post), told ? `${done} ${told[0]?.toUpperCase()}${told.slice(1)}.` : done)
  }
}

/** What every post to the record names: its intent and the piece it is about (`targetId`, '' for the customer). */
const RecordPostSchema = z.object({ intent: RecordIntentSchema, targetId: z.string().default('') })

/** Every change of the record but "Record payment" (billing's own form). */
const CHANGES: { [I in Exclude<RecordIntent, 'record-payment'>]: (post: Post) => Promise<Reply> } = {
  contact: edit(ContactSchema, 'Customer saved.', updateCustomerContact, 'customerId'),
  'add-location': edit(ServiceLocationSchema, 'Service location added.', addServiceLocation, 'customerId'),
  'edit-location': edit(ServiceLocationSchema, 'Service location saved.', updateServiceLocation, 'locationId'),
  'remove-location': button('Service location removed.', removeServiceLocation, 'locationId'),
  'add-body': edit(BodyOfWaterSchema, 'Body of water added.', addBodyOfWater, 'locationId'),
  'edit-body': edit(BodyOfWaterSchema, 'Body of water saved.', updateBodyOfWater, 'bodyOfWaterId'),
  'remove-body': button('Body of water removed.', removeBodyOfWater, 'bodyOfWaterId'),
  'add-equipment': edit(EquipmentSchema, 'Equipment added.', addEquipment, 'bodyOfWaterId'),
  'edit-equipment': edit(EquipmentSchema, 'Equipment saved.', updateEquipment, 'equipmentId'),
  'remove-equipment': button('Equipment removed.', removeEquipment, 'equipmentId'),
  'add-plan': save(
    ServicePlanSchema,
    (post, _, posted) => createServicePlan(scoped(post, 'locationId'), posted as ServicePlanInput),
    ({ visits }) => `Service plan added. ${visits} ${visits === 1 ? 'visit' : 'visits'} scheduled.`,
  ),
  'end-plan': save(
    EndPlanSchema,
    (post, { endsOn }) => endServicePlan({ ...scoped(post, 'planId'), endsOn }),
    'Service plan ended.',
  ),
  'edit-plan': planChange(
    EditPlanSchema,
    (post, input) => editServicePlan({ ...scoped(post, 'planId'), input }),
    'Service plan changed.',
  ),
  'pause-plan': planChange(
    PausePlanSchema,
    (post, input) => pauseServicePlan({ ...scoped(post, 'planId'), input }),
    'Service plan paused.',
  ),
  'resume-plan': async (post) => {
    const result = await resumeServicePlan(scoped(post, 'planId'))
    if (!result.ok) return refused(post, result)
    return redirectWithFlash(
      backTo(post),
      `Service plan resumed.${result.added > 0 ? ` ${visits(result.added)} scheduled.` : ''}`,
    )
  },
  archive: button('Customer archived.', archiveCustomer, 'customerId'),
  restore: button('Customer restored.', restoreCustomer, 'customerId'),
  'notice-preference': save(
    NoticePreferenceSchema,
    (post, { channel, enabled }) =>
      setCustomerNoticeChannel({ ...scoped(post, 'customerId'), channel, enabled: enabled === 'on' }),
    ({ channel, enabled }) => `Notices by ${channel} turned ${enabled ? 'on' : 'off'}.`,
  ),
}

/**
 * Runs a post to `customerId`'s record. The caller has checked `customers:manage`; an unknown intent is a 400, and
 * another company's customer is a 404 before anything is validated, exactly as a missing one.
 */
export async function customerRecordAction({
  request,
  member,
  customerId,
  formData,
}: {
  request: Request
  member: CompanyMember
  customerId: string
  formData: FormData
}) {
  const submission = parseWithZod(formData, { schema: RecordPostSchema })
  if (submission.status !== 'success') unknownIntent()
  const { intent, targetId } = submission.value
  const post = { companyId: member.companyId, customerId, intent, target: targetId, formData }
  if (!(await getCustomer({ companyId: member.companyId, customerId }))) notFound()
  // Every intent is named here, so the permission matrix finds them (tests/integration/permission-matrix.test.ts).
  switch (intent) {
    case 'record-payment': {
      // Dispatchers see the customer's billing; only owners and admins record money.
      const payer = await requireCompanyCapability(request, 'billing:manage')
      const refusal = await recordPaymentFromForm({ member: payer, customerId, formData, back: backTo(post) })
      return reply({ ...post, target: '' }, null, refusal.result, refusal.status)
    }
    case 'contact':
    case 'add-location':
    case 'edit-location':
    case 'remove-location':
    case 'add-body':
    case 'edit-body':
    case 'remove-body':
    case 'add-equipment':
    case 'edit-equipment':
    case 'remove-equipment':
    case 'add-plan':
    case 'end-plan':
    case 'edit-plan':
    case 'pause-plan':
    case 'resume-plan':
    case 'archive':
    case 'restore':
    case 'notice-preference':
      return CHANGES[intent](post)
  }
}
