-- Recurring routes (issue #18, OPERATIONS §4): visits generated from service plans (plan + occurrence date, unique
-- together: generation is idempotent on any number of servers), skips as cancellations with a reason, visits moved
-- by hand, the office's stop order, the technician's calendar-feed token, and where the company's routes start.
ALTER TABLE "companies" ADD COLUMN "start_address" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "start_lat" double precision;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "start_lng" double precision;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "skip_reason" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "plan_id" uuid;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "occurrence_date" date;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "moved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "route_position" integer;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "calendar_feed_hash" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_company_plan_fk" FOREIGN KEY ("company_id","plan_id") REFERENCES "public"."service_plans"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_company_plan_occurrence_key" UNIQUE("company_id","plan_id","occurrence_date");--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_calendar_feed_hash_key" UNIQUE("calendar_feed_hash");--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_start_lat_range" CHECK ("companies"."start_lat" is null or "companies"."start_lat" between -90 and 90);--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_start_lng_range" CHECK ("companies"."start_lng" is null or "companies"."start_lng" between -180 and 180);--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_plan_has_occurrence" CHECK (("jobs"."plan_id" is null) = ("jobs"."occurrence_date" is null));--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_skip_is_cancellation" CHECK ("jobs"."skip_reason" is null or "jobs"."cancelled_at" is not null);--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_skip_reason_not_blank" CHECK ("jobs"."skip_reason" is null or length(trim("jobs"."skip_reason")) > 0);