ALTER TABLE "jobs" ADD COLUMN "appointment_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "start_address" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "start_lat" double precision;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "start_lng" double precision;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "end_address" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "end_lat" double precision;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "end_lng" double precision;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "work_starts" time;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "work_ends" time;--> statement-breakpoint
ALTER TABLE "service_locations" ADD COLUMN "arrive_from" time;--> statement-breakpoint
ALTER TABLE "service_locations" ADD COLUMN "arrive_until" time;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_start_lat_lng_together" CHECK (("profiles"."start_lat" is null) = ("profiles"."start_lng" is null));--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_end_lat_lng_together" CHECK (("profiles"."end_lat" is null) = ("profiles"."end_lng" is null));--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_start_lat_range" CHECK ("profiles"."start_lat" is null or "profiles"."start_lat" between -90 and 90);--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_start_lng_range" CHECK ("profiles"."start_lng" is null or "profiles"."start_lng" between -180 and 180);--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_end_lat_range" CHECK ("profiles"."end_lat" is null or "profiles"."end_lat" between -90 and 90);--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_end_lng_range" CHECK ("profiles"."end_lng" is null or "profiles"."end_lng" between -180 and 180);--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_work_hours_order" CHECK ("profiles"."work_starts" is null or "profiles"."work_ends" is null or "profiles"."work_starts" < "profiles"."work_ends");--> statement-breakpoint
ALTER TABLE "service_locations" ADD CONSTRAINT "service_locations_arrive_window_order" CHECK ("service_locations"."arrive_from" is null or "service_locations"."arrive_until" is null or "service_locations"."arrive_from" <= "service_locations"."arrive_until");