// What "Record payment" answers when it refuses (docs/billing.md). Dependency-free, so the form's schema (in the
// browser) and the model (on the server) say the same words.

export const PAYMENT_MESSAGES = {
  amount: 'Enter an amount greater than $0.00.',
  futureDate: 'A payment cannot be dated in the future.',
  duplicateReference: (reference: string) =>
    `A payment with reference "${reference}" is already recorded for this customer.`,
  voidInvoice: 'This invoice is void: record the payment as account credit instead.',
  draftInvoice: 'Send the invoice before recording a payment against it.',
  notFound: 'Invoice not found.',
  customerNotFound: 'Customer not found.',
} as const

/** What "Void payment" answers when it refuses (docs/decisions/037-payment-voids.md). */
export const VOID_PAYMENT_MESSAGES = {
  reason: 'Say why this payment is void (up to 500 characters).',
  notFound: 'Payment not found.',
  alreadyVoid: 'This payment is already void.',
  card: 'A card payment taken through Stripe cannot be voided: refund it instead.',
} as const

/** The longest reason "Void payment" keeps. */
export const VOID_REASON_MAX = 500

/**
 * How the flag of a card payment that should go back to the customer starts (a second payment of a paid invoice,
 * decision 032): the office's invoice page shows "Refund due" on it.
 */
export const REFUND_DUE_PREFIX = 'Refund due:'
