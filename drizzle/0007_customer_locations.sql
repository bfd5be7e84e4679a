-- Customers as a pool company sees them (issue #17, OPERATIONS §1): customer → service locations → bodies of water
-- → equipment, and service plans on a location. Every existing customer becomes one location (its address, split
-- into parts when it reads "street, city, ST zip") with one body of water "Pool" (its pool profile, possibly empty);
-- every job goes to its customer's location and every reading to that location's pool. Hand-edited after
-- drizzle-kit generate: the data moves sit between adding the new columns and dropping the old ones.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE TABLE "bodies_of_water" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"name" text DEFAULT 'Pool' NOT NULL,
	"gallons" integer,
	"surface" text,
	"sanitiser" text,
	"indoor" boolean,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bodies_of_water_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "bodies_of_water_name_not_blank" CHECK (length(trim("bodies_of_water"."name")) > 0),
	CONSTRAINT "bodies_of_water_gallons_range" CHECK ("bodies_of_water"."gallons" between 100 and 2000000),
	CONSTRAINT "bodies_of_water_surface_valid" CHECK ("bodies_of_water"."surface" in ('plaster', 'vinyl', 'fibreglass')),
	CONSTRAINT "bodies_of_water_sanitiser_valid" CHECK ("bodies_of_water"."sanitiser" in ('chlorine', 'salt'))
);--> statement-breakpoint
CREATE TABLE "equipment" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"body_of_water_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"make" text,
	"model" text,
	"serial" text,
	"installed_on" date,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "equipment_kind_valid" CHECK ("equipment"."kind" in ('pump', 'filter', 'heater', 'chlorinator', 'cleaner', 'automation', 'other'))
);--> statement-breakpoint
CREATE TABLE "service_locations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"label" text,
	"street" text NOT NULL,
	"city" text,
	"state" text,
	"postal_code" text,
	"lat" numeric(9, 6),
	"lng" numeric(9, 6),
	"gate_code" text,
	"access_notes" text,
	"dog_on_site" boolean DEFAULT false NOT NULL,
	"minutes_on_site" integer DEFAULT 30 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "service_locations_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "service_locations_street_not_blank" CHECK (length(trim("service_locations"."street")) > 0),
	CONSTRAINT "service_locations_lat_range" CHECK ("service_locations"."lat" between -90 and 90),
	CONSTRAINT "service_locations_lng_range" CHECK ("service_locations"."lng" between -180 and 180),
	CONSTRAINT "service_locations_lat_lng_together" CHECK (("service_locations"."lat" is null) = ("service_locations"."lng" is null)),
	CONSTRAINT "service_locations_minutes_on_site_range" CHECK ("service_locations"."minutes_on_site" between 1 and 480)
);--> statement-breakpoint
CREATE TABLE "service_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"frequency_weeks" integer DEFAULT 1 NOT NULL,
	"weekday" integer NOT NULL,
	"technician_id" text,
	"starts_on" date NOT NULL,
	"ends_on" date,
	"service_window" text DEFAULT 'flexible' NOT NULL,
	"rate_cents" integer DEFAULT 0 NOT NULL,
	"rate_type" text DEFAULT 'per-visit' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_plans_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "service_plans_frequency_range" CHECK ("service_plans"."frequency_weeks" between 1 and 4),
	CONSTRAINT "service_plans_weekday_range" CHECK ("service_plans"."weekday" between 1 and 7),
	CONSTRAINT "service_plans_ends_after_start" CHECK ("service_plans"."ends_on" is null or "service_plans"."ends_on" >= "service_plans"."starts_on"),
	CONSTRAINT "service_plans_service_window_valid" CHECK ("service_plans"."service_window" in ('morning', 'afternoon', 'flexible')),
	CONSTRAINT "service_plans_rate_non_negative" CHECK ("service_plans"."rate_cents" >= 0),
	CONSTRAINT "service_plans_rate_type_valid" CHECK ("service_plans"."rate_type" in ('per-visit', 'monthly', 'monthly-plus-chemicals', 'per-visit-plus-chemicals'))
);--> statement-breakpoint
ALTER TABLE "bodies_of_water" ADD CONSTRAINT "bodies_of_water_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bodies_of_water" ADD CONSTRAINT "bodies_of_water_company_location_fk" FOREIGN KEY ("company_id","location_id") REFERENCES "public"."service_locations"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_company_body_of_water_fk" FOREIGN KEY ("company_id","body_of_water_id") REFERENCES "public"."bodies_of_water"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_locations" ADD CONSTRAINT "service_locations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_locations" ADD CONSTRAINT "service_locations_company_customer_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_plans" ADD CONSTRAINT "service_plans_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_plans" ADD CONSTRAINT "service_plans_technician_id_profiles_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_plans" ADD CONSTRAINT "service_plans_company_location_fk" FOREIGN KEY ("company_id","location_id") REFERENCES "public"."service_locations"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" RENAME COLUMN "address" TO "billing_address";--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "billing_address" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_address_not_blank";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "notes" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chem_logs" ADD COLUMN "body_of_water_id" uuid;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "location_id" uuid;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
-- Phones to E.164 where the digits say which US number it is; anything else stays as it was typed.
UPDATE "customers" SET "phone" = CASE
	WHEN btrim("phone") = '' THEN NULL
	WHEN btrim("phone") NOT LIKE '+%' AND regexp_replace("phone", '[^0-9]', '', 'g') ~ '^[0-9]{10}$'
		THEN '+1' || regexp_replace("phone", '[^0-9]', '', 'g')
	WHEN regexp_replace("phone", '[^0-9]', '', 'g') ~ '^1[0-9]{10}$' THEN '+' || regexp_replace("phone", '[^0-9]', '', 'g')
	ELSE "phone"
END
WHERE "phone" IS NOT NULL;--> statement-breakpoint
UPDATE "customers" SET "email" = nullif(lower(btrim("email")), '') WHERE "email" IS NOT NULL;--> statement-breakpoint
-- One location per customer at its address ("street, city, ST zip" or "street, city, ST" split into parts, anything
-- else whole as the street). The same patterns as parseAddress in app/utils/address.ts.
INSERT INTO "service_locations" ("company_id", "customer_id", "street", "city", "state", "postal_code", "position", "created_at")
SELECT "company_id", "id",
	coalesce(with_zip[1], without_zip[1], address),
	coalesce(with_zip[2], without_zip[2]),
	upper(coalesce(with_zip[3], without_zip[3])),
	with_zip[4],
	0,
	"created_at"
FROM (
	SELECT "company_id", "id", "created_at", btrim("billing_address") AS address,
		regexp_match(btrim("billing_address"), '^(.*[^,[:space:]])[[:space:]]*,[[:space:]]*([^,]*[^,[:space:]])[[:space:]]*,?[[:space:]]+(AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR|VI|GU|AS|MP)\.?,?[[:space:]]+([0-9]{5}(-[0-9]{4})?)$', 'i') AS with_zip,
		regexp_match(btrim("billing_address"), '^(.*[^,[:space:]])[[:space:]]*,[[:space:]]*([^,]*[^,[:space:]])[[:space:]]*,[[:space:]]*(AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR|VI|GU|AS|MP)\.?$', 'i') AS without_zip
	FROM "customers"
) AS parsed;--> statement-breakpoint
-- A pool company's customer has a pool: every location gets a "Pool", with the customer's pool profile.
INSERT INTO "bodies_of_water" ("company_id", "location_id", "name", "gallons", "surface", "sanitiser", "indoor", "position", "created_at")
SELECT l."company_id", l."id", 'Pool', c."pool_volume_gallons", c."pool_surface", c."pool_sanitiser", c."pool_indoor", 0, c."created_at"
FROM "service_locations" l
JOIN "customers" c ON c."company_id" = l."company_id" AND c."id" = l."customer_id";--> statement-breakpoint
UPDATE "jobs" j SET "location_id" = l."id"
FROM "service_locations" l
WHERE l."company_id" = j."company_id" AND l."customer_id" = j."customer_id";--> statement-breakpoint
ALTER TABLE "jobs" ALTER COLUMN "location_id" SET NOT NULL;--> statement-breakpoint
UPDATE "chem_logs" r SET "body_of_water_id" = b."id"
FROM "jobs" j
JOIN "bodies_of_water" b ON b."company_id" = j."company_id" AND b."location_id" = j."location_id" AND b."position" = 0
WHERE j."company_id" = r."company_id" AND j."id" = r."job_id";--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_pool_volume_range";--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_pool_surface_valid";--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_pool_sanitiser_valid";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "pool_volume_gallons";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "pool_surface";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "pool_sanitiser";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "pool_indoor";--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_billing_address_not_blank" CHECK ("customers"."billing_address" is null or length(trim("customers"."billing_address")) > 0);--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_status_valid" CHECK ("customers"."status" in ('active', 'archived'));--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_archived_at_matches_status" CHECK (("customers"."status" = 'archived') = ("customers"."archived_at" is not null));--> statement-breakpoint
ALTER TABLE "chem_logs" ADD CONSTRAINT "chem_logs_company_body_of_water_fk" FOREIGN KEY ("company_id","body_of_water_id") REFERENCES "public"."bodies_of_water"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_company_location_fk" FOREIGN KEY ("company_id","location_id") REFERENCES "public"."service_locations"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_completed_or_cancelled" CHECK ("jobs"."completed_at" is null or "jobs"."cancelled_at" is null);--> statement-breakpoint
DROP INDEX "jobs_company_open_scheduled_idx";--> statement-breakpoint
CREATE INDEX "chem_logs_company_body_of_water_idx" ON "chem_logs" USING btree ("company_id","body_of_water_id");--> statement-breakpoint
CREATE INDEX "bodies_of_water_company_location_idx" ON "bodies_of_water" USING btree ("company_id","location_id","position");--> statement-breakpoint
CREATE INDEX "equipment_company_body_of_water_idx" ON "equipment" USING btree ("company_id","body_of_water_id","created_at");--> statement-breakpoint
CREATE INDEX "service_locations_company_customer_idx" ON "service_locations" USING btree ("company_id","customer_id","position");--> statement-breakpoint
CREATE INDEX "service_locations_company_search_trgm_idx" ON "service_locations" USING gin ("company_id",(coalesce("label", '') || ' ' || "street" || ' ' || coalesce("city", '') || ' ' || coalesce("state", '') || ' ' || coalesce("postal_code", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_plans_company_location_idx" ON "service_plans" USING btree ("company_id","location_id","weekday");--> statement-breakpoint
CREATE INDEX "customers_company_status_name_idx" ON "customers" USING btree ("company_id","status","customer_name","id");--> statement-breakpoint
CREATE INDEX "customers_company_search_trgm_idx" ON "customers" USING gin ("company_id",("customer_name" || ' ' || coalesce("email", '') || ' ' || coalesce("phone", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "jobs_company_location_scheduled_idx" ON "jobs" USING btree ("company_id","location_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "jobs_company_open_scheduled_idx" ON "jobs" USING btree ("company_id","scheduled_at","id") WHERE "jobs"."completed_at" is null and "jobs"."cancelled_at" is null;
