// Whether card payments are set up (docs/billing.md): Stripe needs both its secret key and its webhook's signing
// secret. Without them the portal's "Pay invoice" stays disabled with "Online payment is not set up".

export const ONLINE_PAYMENT_NOT_SET_UP = 'Online payment is not set up'

export function onlinePaymentsEnabled(source: NodeJS.ProcessEnv = process.env) {
  return Boolean(source.STRIPE_SECRET_KEY?.trim() && source.STRIPE_WEBHOOK_SECRET?.trim())
}
