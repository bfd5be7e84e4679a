-- Customer notices (issue #20, OPERATIONS §6): texts go through the same outbox as email (a row of kind 'text'); a
-- notice names its event and subject, unique with channel and recipient (queued once); numbers that replied STOP;
-- the built-in mailbox's "Texts"; the company's notice settings and quiet hours; the customer's own choice of channels.
CREATE TABLE "text_opt_outs" (
	"phone" text NOT NULL,
	"opted_out_at" timestamp with time zone DEFAULT now() NOT NULL,
	"via" text NOT NULL,
	CONSTRAINT "text_opt_outs_pkey" PRIMARY KEY("phone")
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_status_valid";--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_kind_valid";--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "notice_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "quiet_hours_from" text DEFAULT '21:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "quiet_hours_until" text DEFAULT '08:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "notices_by_email" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "notices_by_text" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "notice_event" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "notice_subject" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "provider_id" text;--> statement-breakpoint
ALTER TABLE "mailbox_messages" ADD COLUMN "kind" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_notice_key" ON "email_outbox" USING btree ("company_id","notice_event","notice_subject","kind","to") WHERE "email_outbox"."notice_event" is not null;--> statement-breakpoint
CREATE INDEX "email_outbox_company_customer_idx" ON "email_outbox" USING btree ("company_id","customer_id","created_at" DESC NULLS LAST) WHERE "email_outbox"."customer_id" is not null;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_quiet_hours_valid" CHECK ("companies"."quiet_hours_from" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and "companies"."quiet_hours_until" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$');--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_notice_complete" CHECK (("email_outbox"."notice_event" is null) = ("email_outbox"."notice_subject" is null));--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_status_valid" CHECK ("email_outbox"."status" in ('pending', 'sent', 'failed', 'opted-out'));--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_kind_valid" CHECK ("email_outbox"."kind" in ('email', 'password-reset', 'text'));