ALTER TABLE "companies" ADD COLUMN "itemise_chemicals" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "attachments" jsonb;