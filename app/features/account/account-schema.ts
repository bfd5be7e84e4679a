// "My account" (/app/account) and the staff's first setup (/welcome): one schema per form, shared by the routes'
// actions, the forms (the browser's check) and the tests, so both sides refuse the same things with the same words.
// Only field-level transforms here: Conform reads its constraints from these schemas as they are.
import { z } from 'zod'
import { EmailSchema, NewPasswordSchema, optionalText, PASSWORDS_MATCH } from '~/utils/forms'

/** Phone and address: the details both forms ask for, optional, blank saved as null. */
const contactFields = {
  phone: optionalText(40),
  addressLine1: optionalText(),
  addressLine2: optionalText(),
  city: optionalText(100),
  state: optionalText(100),
  postalCode: optionalText(20),
  country: optionalText(100),
}

/** A profile's phone and address as the forms show them (blank for none). */
export function contactValues(profile: { [K in keyof typeof contactFields]: string | null }) {
  return {
    phone: profile.phone ?? '',
    addressLine1: profile.addressLine1 ?? '',
    addressLine2: profile.addressLine2 ?? '',
    city: profile.city ?? '',
    state: profile.state ?? '',
    postalCode: profile.postalCode ?? '',
    country: profile.country ?? '',
  }
}

/** "My account"'s profile form (no intent: the page's default save). */
export const AccountSchema = z.object({
  fullName: optionalText(120),
  email: EmailSchema,
  ...contactFields,
})

export const ChangePasswordSchema = z
  .object({
    intent: z.literal('change-password'),
    currentPassword: z
      .string({ error: 'Enter your current password.' })
      .min(1, 'Enter your current password.')
      .max(128, 'Use at most 128 characters.'),
    password: NewPasswordSchema,
    confirmPassword: z.string({ error: 'Passwords do not match.' }),
  })
  .refine(...PASSWORDS_MATCH)

/** "Create calendar link" and "Reset link". */
export const CalendarFeedSchema = z.object({ intent: z.enum(['create-feed', 'reset-feed']) })

/** /welcome: a new teammate's name, phone and address, and the password they choose. */
export const WelcomeSchema = z
  .object({
    fullName: z.string({ error: 'Enter your full name.' }).trim().min(1, 'Enter your full name.').max(120),
    ...contactFields,
    password: z
      .string({ error: 'Set a password to continue.' })
      .min(1, 'Set a password to continue.')
      .pipe(NewPasswordSchema),
    confirmPassword: z.string({ error: 'Passwords do not match.' }),
  })
  .refine(...PASSWORDS_MATCH)
