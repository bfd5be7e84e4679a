// The customer portal's first visit (/customer-setup): the customer confirms their name, phone and service address
// and chooses a password. One schema, shared by the page, its action and their tests; safe in the browser.
import { z } from 'zod'
import { PhoneSchema } from '~/models/customer-schemas'
import { NewPasswordSchema, PASSWORDS_MATCH } from '~/utils/forms'

const CHOOSE_PASSWORD = 'Please choose a password so you can log in later.'

export const CustomerSetupSchema = z
  .object({
    fullName: z.string({ error: 'Enter your full name.' }).trim().min(1, 'Enter your full name.').max(120),
    phone: PhoneSchema,
    address: z.string({ error: 'Enter your service address.' }).trim().min(1, 'Enter your service address.').max(300),
    password: z.string({ error: CHOOSE_PASSWORD }).min(1, CHOOSE_PASSWORD).pipe(NewPasswordSchema),
    confirmPassword: z.string({ error: 'Passwords do not match.' }),
  })
  .refine(...PASSWORDS_MATCH)
