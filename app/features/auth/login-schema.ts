// The /login page's two forms, "Log in" and "Create account": one schema each, and the action's union of both (the
// `intent` says which was sent). Shared by the page, its action and their tests; safe in the browser.
import { z } from 'zod'
import { EmailSchema, NewPasswordSchema, PASSWORDS_MATCH } from '~/utils/forms'

export const LoginSchema = z.object({
  intent: z.literal('login'),
  email: EmailSchema,
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.'),
  redirectTo: z.string().optional(),
})

export const SignupSchema = z
  .object({
    intent: z.literal('signup'),
    email: EmailSchema,
    password: NewPasswordSchema,
    confirmPassword: z.string({ error: 'Passwords do not match.' }),
    redirectTo: z.string().optional(),
  })
  .refine(...PASSWORDS_MATCH)

export const AuthSchema = z.discriminatedUnion('intent', [LoginSchema, SignupSchema])
