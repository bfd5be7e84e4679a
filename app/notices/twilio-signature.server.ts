// Inbound texts (the STOP/START webhook, docs/product.md "Notices") are trusted only when Twilio signed them. Twilio's
// scheme (https://www.twilio.com/docs/usage/webhooks/webhooks-security): the URL Twilio called, exactly, followed for a
// form post by every POST parameter sorted by name, each name immediately followed by its value; HMAC-SHA1 of that
// string keyed with the account's auth token, base64, in the X-Twilio-Signature header.
//
// The URL is the one configured at Twilio (APP_URL + /webhooks/sms), never rebuilt from the request's Host header:
// behind a proxy the request's own URL differs, and a Host an attacker chooses must not take part in the check.
import { createHmac, timingSafeEqual } from 'node:crypto'

/** A form body's parameters in the order they arrived; a name may repeat. */
export type FormParams = Iterable<readonly [string, string]>

/** The signature Twilio sends for a request to `url` with these form parameters. */
export function twilioSignature(authToken: string, url: string, params: FormParams = []): string {
  // Sorted by name, then by value for a repeated name (what Twilio's own libraries do); code-unit order equals
  // Twilio's code-point order for the ASCII names Twilio sends.
  const sorted = [...params].sort(([a, x], [b, y]) => compare(a, b) || compare(x, y))
  const hmac = createHmac('sha1', authToken).update(url, 'utf8')
  for (const [name, value] of sorted) hmac.update(name + value, 'utf8')
  return hmac.digest('base64')
}

/** Whether `signature` (the X-Twilio-Signature header, possibly missing) is Twilio's for this request. */
export function isTwilioSignatureValid(
  authToken: string,
  signature: string | null | undefined,
  url: string,
  params: FormParams = [],
): boolean {
  if (!signature || !authToken) return false
  const expected = Buffer.from(twilioSignature(authToken, url, params), 'utf8')
  const given = Buffer.from(signature.trim(), 'utf8')
  // timingSafeEqual needs equal lengths; the length of a base64 SHA-1 (28) is public, so comparing it leaks nothing.
  return given.length === expected.length && timingSafeEqual(given, expected)
}

function compare(a: string, b: string) {
  return a < b ? -1 : a > b ? 1 : 0
}
