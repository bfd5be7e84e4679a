ALTER TABLE "invoices" ADD COLUMN "delivery" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "from_name" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "reply_to" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_delivery_valid" CHECK ("invoices"."delivery" is null or "invoices"."delivery" in ('email', 'print'));