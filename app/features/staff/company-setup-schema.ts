// The platform's company-setup forms (docs/product.md "Forms" and "Roles": inviting an owner, transferring
// ownership), shared by the page, its action and their tests, and what the action answers each of them.
import type { SubmissionResult } from '@conform-to/react'
import { z } from 'zod'
import { optionalText } from '~/utils/forms'

const REQUIRED = 'Owner name and email are required.'
const CHOOSE_OWNER = 'Choose who should own this company.'

export const InviteOwnerSchema = z
  .object({
    mode: z.enum(['existing', 'new']),
    companyId: z.string().trim().optional(),
    companyName: optionalText(120),
    fullName: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(120, 'Use at most 120 characters.'),
    email: z
      .string({ error: REQUIRED })
      .trim()
      .min(1, REQUIRED)
      .max(254, 'That email address is too long.')
      .pipe(z.email('Enter a valid email address.'))
      .transform((value) => value.toLowerCase()),
    phone: optionalText(40),
  })
  .superRefine((value, ctx) => {
    if (value.mode === 'existing' && !value.companyId) {
      ctx.addIssue({ code: 'custom', path: ['companyId'], message: 'Select a company to assign the owner to.' })
    }
    if (value.mode === 'new' && !value.companyName) {
      ctx.addIssue({ code: 'custom', path: ['companyName'], message: 'Company name is required for new companies.' })
    }
  })

/** A company's name; its card-provider account id is the owner's to set (/app/settings), never staff's (F12). */
export const UpdateCompanySchema = z.object({
  companyId: z.string().trim().min(1),
  name: z
    .string({ error: 'Company name is required.' })
    .trim()
    .min(1, 'Company name is required.')
    .max(120, 'Use at most 120 characters.'),
})

/** "Assign owner": the teammate chosen (a company the admin cannot see is answered as a missing one). */
export const AssignOwnerSchema = z.object({
  companyId: z.string().default(''),
  profileId: z.string({ error: CHOOSE_OWNER }).min(1, CHOOSE_OWNER),
})

/**
 * What the action answers every form: `message` for the person (and the API's callers), and Conform's `result` when
 * the form itself was refused (its errors belong at the fields) or saved.
 */
export type StaffReply = {
  intent: string
  companyId?: string
  ok: boolean
  message: string
  result?: SubmissionResult<string[]>
}

/** Ids are shown shortened: 8 characters in the company picker, 4 in the owner list (docs/product.md "Limits"). */
export function shortId(id: string, length: 8 | 4) {
  return id.slice(0, length)
}
