ALTER TABLE "profiles" ADD COLUMN "start_approximate" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "end_approximate" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "hourly_cost_cents" integer;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "pay_type" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "hourly_rate_cents" integer;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "per_stop_rate_cents" integer;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "skipped_visit_extra_cents" integer;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_hourly_cost_not_negative" CHECK ("profiles"."hourly_cost_cents" is null or "profiles"."hourly_cost_cents" >= 0);--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_pay_type_valid" CHECK ("profiles"."pay_type" is null or "profiles"."pay_type" in ('hourly', 'per-stop'));--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_hourly_rate_not_negative" CHECK ("profiles"."hourly_rate_cents" is null or "profiles"."hourly_rate_cents" >= 0);--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_per_stop_rate_not_negative" CHECK ("profiles"."per_stop_rate_cents" is null or "profiles"."per_stop_rate_cents" >= 0);--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_skipped_visit_extra_not_negative" CHECK ("profiles"."skipped_visit_extra_cents" is null or "profiles"."skipped_visit_extra_cents" >= 0);