// The built-in mailbox page (/dev/mailbox) lists the emails Pool Bud delivered to its own table when no SMTP
// server is configured. They hold password-reset and invitation links — keys to accounts — so the page exists only
// for development (decision 003): no SMTP_URL, and NODE_ENV other than production unless DEV_MAILBOX=1 asks for it
// (`npm start` runs with NODE_ENV=production); and even then only for a browser on this machine.
import { type Env, env } from './env.server'

type MailboxConfig = Pick<Env, 'NODE_ENV' | 'SMTP_URL' | 'DEV_MAILBOX'>

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/** Whether /dev/mailbox exists at all in this configuration (the start-up banner prints its URL only then). */
export function devMailboxEnabled(config: MailboxConfig = env()) {
  return !config.SMTP_URL && (config.NODE_ENV !== 'production' || config.DEV_MAILBOX === '1')
}

/**
 * Whether /dev/mailbox answers a browser at `clientIp` (the address the server sets on every request; a request
 * without one is refused).
 */
export function mailboxListingEnabled(clientIp: string | null, config: MailboxConfig = env()) {
  return devMailboxEnabled(config) && clientIp !== null && LOOPBACK.has(clientIp)
}
