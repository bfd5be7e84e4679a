// What the invoice page posts (routes/app/invoice.tsx): "Send invoice", "Void invoice", "Record payment" (its
// fields parsed by its own schema, payment-form.ts) and "Refund" (refund-form.ts). The invoice is the page's own (its id is in the address);
// anything else is a post no form of the page sends.
import { z } from 'zod'

export const InvoiceIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('send') }),
  z.object({ intent: z.literal('record-payment') }),
  z.object({ intent: z.literal('void') }),
  z.object({ intent: z.literal('refund') }),
  // "Void payment" (docs/decisions/037-payment-voids.md): the payment and the reason are read by the action.
  z.object({ intent: z.literal('void-payment') }),
  // The draft editor (draft-line-form.ts; issue 31 item 1) and "Re-issue" of a void invoice.
  z.object({ intent: z.literal('add-line') }),
  z.object({ intent: z.literal('edit-line') }),
  z.object({ intent: z.literal('remove-line') }),
  z.object({ intent: z.literal('add-discount') }),
  z.object({ intent: z.literal('save-note') }),
  z.object({ intent: z.literal('reissue') }),
])
