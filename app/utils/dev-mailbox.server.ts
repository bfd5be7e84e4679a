// The built-in mailbox page (/dev/mailbox) lists the emails Pool Bud delivered to its own table when no SMTP
// server is configured. They hold password-reset and invitation links — keys to accounts — so the page exists only
// for development (decision 003): no SMTP_URL, and NODE_ENV other than production unless DEV_MAILBOX=1 asks for it
// (`npm start` runs with NODE_ENV=production); and even then only for a browser on this machine.
import { type Env, env } from './env.server'

type MailboxConfig = Pick<Env, 'NODE_ENV' | 'SMTP_URL' | 'DEV_MAILBOX'>

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/** Whether texts are sent through Twilio (else they land in the built-in mailbox's "Texts"). */
export function textsConfigured(source: NodeJS.ProcessEnv = process.env) {
  return Boolean(source.TWILIO_ACCOUNT_SID?.trim())
}

/**
 * What the built-in mailbox holds in this configuration: emails when no SMTP server is set, texts when no Twilio
 * account is. Whether /dev/mailbox exists at all (the start-up banner prints its URL only then): outside production
 * (or with DEV_MAILBOX=1) and with something to show.
 */
export function devMailboxTabs(config: MailboxConfig = env(), texting = textsConfigured()) {
  const enabled = config.NODE_ENV !== 'production' || config.DEV_MAILBOX === '1'
  return { emails: enabled && !config.SMTP_URL, texts: enabled && !texting }
}

export function devMailboxEnabled(config: MailboxConfig = env(), texting = textsConfigured()) {
  const tabs = devMailboxTabs(config, texting)
  return tabs.emails || tabs.texts
}

/**
 * Whether /dev/mailbox answers a browser at `clientIp` (the address the server sets on every request; a request
 * without one is refused).
 */
export function mailboxListingEnabled(
  clientIp: string | null,
  config: MailboxConfig = env(),
  texting = textsConfigured(),
) {
  return devMailboxEnabled(config, texting) && clientIp !== null && LOOPBACK.has(clientIp)
}
