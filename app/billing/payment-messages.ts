// What "Record payment" answers when it refuses (OPERATIONS §7). Dependency-free, so the form's schema (in the
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

/**
 * How the flag of a card payment that should go back to the customer starts (a second payment of a paid invoice,
 * decision 032): the office's invoice page shows "Refund due" on it.
 */
export const REFUND_DUE_PREFIX = 'Refund due:'
