import { describe, expect, it } from 'vitest'
import { ACCOUNT_CREDIT, PAYMENT_FORM_MESSAGES, recordPaymentSchema } from './payment-form'

const today = '2026-11-26'
const onInvoice = recordPaymentSchema({ today, withTarget: false })
const onRecord = recordPaymentSchema({ today, withTarget: true })
const base = { amount: '85', receivedOn: today, method: 'check' }

function errorsOf(result: ReturnType<typeof onInvoice.safeParse>) {
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

describe('the "Record payment" form', () => {
  it('reads amounts as people type them, to whole cents', () => {
    for (const [typed, cents] of [
      ['85', 8500],
      ['85.5', 8550],
      ['$1,234.50', 123450],
      [' $ 12.05 ', 1205],
      ['0.01', 1],
    ] as const) {
      const result = onInvoice.safeParse({ ...base, amount: typed })
      expect(result.success && result.data.amount, typed).toBe(cents)
    }
  })

  it('refuses amounts that are not money, or nothing, with one message each', () => {
    for (const [typed, message] of [
      ['12.345', PAYMENT_FORM_MESSAGES.amountFormat],
      ['-5', PAYMENT_FORM_MESSAGES.amountFormat],
      ['1.2.3', PAYMENT_FORM_MESSAGES.amountFormat],
      ['12,34', PAYMENT_FORM_MESSAGES.amountFormat],
      ['0', PAYMENT_FORM_MESSAGES.amountPositive],
      ['$0.00', PAYMENT_FORM_MESSAGES.amountPositive],
    ] as const) {
      expect(errorsOf(onInvoice.safeParse({ ...base, amount: typed })), typed).toEqual({ amount: message })
    }
    expect(errorsOf(onInvoice.safeParse({ receivedOn: today, method: 'cash' }))).toEqual({
      amount: PAYMENT_FORM_MESSAGES.amountMissing,
    })
  })

  it('takes today or earlier, never a day in the future or a date that is none', () => {
    expect(onInvoice.safeParse({ ...base, receivedOn: '2026-11-01' }).success).toBe(true)
    expect(errorsOf(onInvoice.safeParse({ ...base, receivedOn: '2026-11-27' }))).toEqual({
      receivedOn: PAYMENT_FORM_MESSAGES.futureDate,
    })
    expect(errorsOf(onInvoice.safeParse({ ...base, receivedOn: '2026-02-30' }))).toEqual({
      receivedOn: PAYMENT_FORM_MESSAGES.dateFormat,
    })
  })

  it('takes the four methods, and a reference trimmed (blank is none)', () => {
    for (const method of ['cash', 'check', 'card', 'bank-transfer']) {
      expect(onInvoice.safeParse({ ...base, method }).success, method).toBe(true)
    }
    expect(errorsOf(onInvoice.safeParse({ ...base, method: 'Cheque' }))).toEqual({
      method: PAYMENT_FORM_MESSAGES.method,
    })
    const blank = onInvoice.safeParse({ ...base, reference: '   ' })
    expect(blank.success && blank.data.reference).toBeNull()
    const check = onInvoice.safeParse({ ...base, reference: ' 1042 ' })
    expect(check.success && check.data.reference).toBe('1042')
  })

  it('on the customer record, applies to an invoice (by id) or to account credit', () => {
    const invoiceId = crypto.randomUUID()
    expect(onRecord.safeParse({ ...base, appliesTo: invoiceId }).success).toBe(true)
    expect(onRecord.safeParse({ ...base, appliesTo: ACCOUNT_CREDIT }).success).toBe(true)
    for (const appliesTo of [undefined, 'INV-0001', '']) {
      expect(errorsOf(onRecord.safeParse({ ...base, appliesTo })), String(appliesTo)).toEqual({
        appliesTo: PAYMENT_FORM_MESSAGES.appliesTo,
      })
    }
  })
})
