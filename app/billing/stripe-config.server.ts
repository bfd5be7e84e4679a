// Stripe's settings, read from the environment (docs/billing.md). Card payments are on when both the secret key and the
// webhook's signing secret are set, off when neither is. One without the other is a mistake that must stop the server
// at start-up: a key without the signing secret would take money whose webhook we then refuse to believe, and the
// portal would show "Pay invoice" for payments that are never recorded.
import { EnvError } from '~/utils/env.server'

export type StripeApiBase = { protocol: 'http' | 'https'; host: string; port: number }

export type StripeConfig = {
  secretKey: string
  webhookSecret: string
  /** Where the API is: null for Stripe itself; tests and local runs point it at a server on this machine. */
  apiBase: StripeApiBase | null
}

const REQUIRED = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const

/** Stripe's settings, or undefined when card payments are off; throws EnvError when they are incomplete or wrong. */
export function stripeConfig(source: NodeJS.ProcessEnv = process.env): StripeConfig | undefined {
  const [secretKey = '', webhookSecret = ''] = REQUIRED.map((name) => source[name]?.trim() ?? '')
  const missing = REQUIRED.filter((name) => !source[name]?.trim())
  if (missing.length === REQUIRED.length) return undefined
  if (missing.length > 0) {
    throw new EnvError(`Card payments through Stripe need ${REQUIRED.join(' and ')} together; missing: ${missing[0]}`)
  }
  // A publishable key (pk_…) here fails every request with 401; say so now rather than on a customer's click.
  if (!/^(sk|rk)_(test|live)_\w+$/.test(secretKey)) {
    throw new EnvError('STRIPE_SECRET_KEY must be a secret or restricted key (sk_live_…, sk_test_…, rk_…)')
  }
  if (!/^whsec_\w+$/.test(webhookSecret)) {
    throw new EnvError("STRIPE_WEBHOOK_SECRET must be the webhook endpoint's signing secret (whsec_…)")
  }
  return { secretKey, webhookSecret, apiBase: parseApiBase(source.STRIPE_API_BASE?.trim()) }
}

/**
 * STRIPE_API_BASE as the client's host, port and protocol options. Only an origin: the client always asks for
 * /v1/…, so a path here would be silently dropped.
 */
function parseApiBase(value: string | undefined): StripeApiBase | null {
  if (!value) return null
  const url = URL.canParse(value) ? new URL(value) : null
  if (!url || !/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '') || url.search) {
    throw new EnvError(
      `STRIPE_API_BASE must be an http(s) origin such as http://127.0.0.1:4010, not ${JSON.stringify(value)}`,
    )
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return {
    protocol,
    // IPv6 literals come bracketed in URL.hostname; the http module wants them bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
  }
}

/**
 * Where "Pay invoice" and "Save card" send the browser after a form post: the CSP's form-action must allow it, or the
 * browser stops the redirect to Stripe's Checkout page. Stripe's own page, or the local stand-in's origin.
 */
export function checkoutOrigins(config: StripeConfig | undefined): string[] {
  if (!config) return []
  if (!config.apiBase) return ['https://checkout.stripe.com']
  const { protocol, host, port } = config.apiBase
  return [`${protocol}://${host.includes(':') ? `[${host}]` : host}:${port}`]
}
