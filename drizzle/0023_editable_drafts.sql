ALTER TABLE "invoice_lines" DROP CONSTRAINT "invoice_lines_kind_valid";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "customer_note" text;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_discount_negative" CHECK ("invoice_lines"."kind" <> 'discount' or "invoice_lines"."amount_cents" < 0);--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_kind_valid" CHECK ("invoice_lines"."kind" in ('visits', 'monthly', 'chemicals', 'tax', 'opening-balance', 'custom', 'discount'));