import { z } from 'zod'

/**
 * Optional text input: trimmed, and blank becomes null (docs/product.md "Forms":
 * "empty optional fields saved as null").
 */
export const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters.`)
    .optional()
    .transform((value) => (value ? value : null))

export const EmailSchema = z
  .string({ error: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'That email address is too long.')
  .pipe(z.email('Enter a valid email address.'))
  .transform((value) => value.toLowerCase())

export const PASSWORD_MIN_LENGTH = 10
export const PASSWORD_MAX_LENGTH = 128
export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`
export const PASSWORD_TOO_COMMON = 'That password is too common. Choose one that is harder to guess.'

type CommonPasswordCheck = (password: string) => boolean
let commonPasswordCheck: CommonPasswordCheck | null = null

/**
 * The server hands over its list check (`password-policy.server.ts`, loaded with better-auth). The browser has no
 * list (it would add 30 kB to every page with a password form), so there the server's reply carries the message.
 */
export function installCommonPasswordCheck(check: CommonPasswordCheck) {
  commonPasswordCheck = check
}

function isTooCommon(password: string) {
  if (commonPasswordCheck) return commonPasswordCheck(password)
  if (typeof window !== 'undefined') return false
  // On the server a missing list must refuse loudly rather than let every password through.
  throw new Error('The common-password list is not loaded: import ~/utils/password-policy.server first.')
}

/** Every password someone chooses (sign-up, reset, setup, change): 10+ characters, not a common one (F11). */
export const NewPasswordSchema = z
  .string({ error: PASSWORD_TOO_SHORT })
  // One reason at a time: a short password is told it is short, not also that it is common.
  .min(PASSWORD_MIN_LENGTH, { error: PASSWORD_TOO_SHORT, abort: true })
  .max(PASSWORD_MAX_LENGTH, { error: `Use at most ${PASSWORD_MAX_LENGTH} characters.`, abort: true })
  .refine((password) => !isTooCommon(password), PASSWORD_TOO_COMMON)

/** docs/product.md "Forms": a new password's confirmation must match (spread into `.refine(...)`). */
export const PASSWORDS_MATCH: [
  (value: { password: string; confirmPassword: string }) => boolean,
  { message: string; path: string[] },
] = [
  (value) => value.password === value.confirmPassword,
  { message: 'Passwords do not match.', path: ['confirmPassword'] },
]

/**
 * The posted form, with NUL characters removed from every text value. PostgreSQL text cannot
 * hold U+0000 (saving one would fail as a server error), and no keyboard types it, so dropping
 * it keeps exactly what the person meant. Every action reads its form through this.
 */
export async function readForm(request: Request): Promise<FormData> {
  const formData = await request.formData()
  const cleaned = new FormData()
  for (const [name, value] of formData) {
    cleaned.append(name.replaceAll('\u0000', ''), typeof value === 'string' ? value.replaceAll('\u0000', '') : value)
  }
  return cleaned
}
