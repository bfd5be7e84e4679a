ALTER TABLE "companies" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "mailing_address" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "logo_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "companies_logo_key_unique" ON "companies" USING btree ("logo_key");