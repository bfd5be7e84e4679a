// Twilio's settings, read from the environment (docs/product.md "Notices"). Nothing set means "not configured": texts
// then go to the built-in mailbox's "Texts" tab and no request leaves the server. Some but not all of the three
// required values, or a malformed one, is a mistake that must stop the server at start-up (an EnvError naming the
// variable, decision 032) rather than silently drop texts or answer every inbound text with 500.
import { EnvError } from '~/utils/env.server'

export type TwilioConfig = {
  accountSid: string
  authToken: string
  /** The sending number, E.164. */
  from: string
  /** Origin of Twilio's REST API, without a trailing slash; a test points it at a local server. */
  apiBase: string
}

export const DEFAULT_TWILIO_API_BASE = 'https://api.twilio.com'

const REQUIRED = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const

/** Twilio's settings, or undefined when none is set; throws with the reason when they are incomplete or wrong. */
export function twilioConfig(source: NodeJS.ProcessEnv = process.env): TwilioConfig | undefined {
  const [accountSid, authToken, from] = REQUIRED.map((name) => source[name]?.trim() ?? '')
  const missing = REQUIRED.filter((name) => !source[name]?.trim())
  if (missing.length === REQUIRED.length) return undefined
  if (missing.length > 0) {
    throw new EnvError(`Texts through Twilio need ${REQUIRED.join(', ')} together; missing: ${missing.join(', ')}`)
  }
  // Account SIDs are "AC" + 32 hex digits; an API key SID ("SK…") here would fail every send with 401.
  if (!/^AC[0-9a-f]{32}$/.test(accountSid ?? '')) {
    throw new EnvError('TWILIO_ACCOUNT_SID must be an Account SID: AC followed by 32 hexadecimal digits')
  }
  if (!/^\+[1-9]\d{6,14}$/.test(from ?? '')) {
    throw new EnvError(`TWILIO_FROM must be a phone number in E.164 such as +18135550100, not ${JSON.stringify(from)}`)
  }
  const base = source.TWILIO_API_BASE?.trim() || DEFAULT_TWILIO_API_BASE
  if (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol)) {
    throw new EnvError(
      `TWILIO_API_BASE must be an http(s) URL such as ${DEFAULT_TWILIO_API_BASE}, not ${JSON.stringify(base)}`,
    )
  }
  return {
    accountSid: accountSid ?? '',
    authToken: authToken ?? '',
    from: from ?? '',
    apiBase: base.replace(/\/+$/, ''),
  }
}
