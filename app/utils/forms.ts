import { z } from 'zod'

/** Optional text input: trimmed, and blank becomes null (SPEC §5: "empty optional fields saved as null"). */
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

export const NewPasswordSchema = z
  .string({ error: 'Password must be at least 8 characters.' })
  .min(8, 'Password must be at least 8 characters.')
  .max(128, 'Use at most 128 characters.')

/** SPEC §5: a new password's confirmation must match (spread into `.refine(...)`). */
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
