ALTER TABLE "price_changes" ADD COLUMN "fingerprint" text;--> statement-breakpoint
ALTER TABLE "price_changes" ADD COLUMN "undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "price_changes" ADD COLUMN "undone_by" text;--> statement-breakpoint
ALTER TABLE "price_changes" ADD COLUMN "notices_withdrawn" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_undone_by_profiles_id_fk" FOREIGN KEY ("undone_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_changes_company_fingerprint_idx" ON "price_changes" USING btree ("company_id","fingerprint");