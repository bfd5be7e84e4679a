// "Forgot password" and "Choose a new password": one schema per form, shared by the page (the browser's check), its
// action and its test.
import { z } from 'zod'
import { NewPasswordSchema, PASSWORDS_MATCH } from '~/utils/forms'

export const ForgotPasswordSchema = z.object({
  email: z
    .string({ error: 'Enter your email address.' })
    .trim()
    .min(1, 'Enter your email address.')
    .max(254, 'That email address is too long.')
    .pipe(z.email('Enter a valid email address.'))
    .transform((value) => value.toLowerCase()),
})

/** The reset link's token rides in a hidden field; the new password is typed twice. */
export const ResetPasswordSchema = z
  .object({
    token: z.string().min(1),
    password: NewPasswordSchema,
    confirmPassword: z.string({ error: 'Passwords do not match.' }),
  })
  .refine(...PASSWORDS_MATCH)
