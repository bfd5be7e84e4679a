CREATE TABLE "job_chemical_additions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"inventory_item_id" uuid,
	"product" text NOT NULL,
	"quantity" numeric(8, 2) NOT NULL,
	"unit" text NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_chemical_additions_product_not_blank" CHECK (length(trim("job_chemical_additions"."product")) > 0),
	CONSTRAINT "job_chemical_additions_quantity_positive" CHECK ("job_chemical_additions"."quantity" > 0 and "job_chemical_additions"."quantity" <= 100000),
	CONSTRAINT "job_chemical_additions_unit_valid" CHECK ("job_chemical_additions"."unit" in ('fl oz', 'gal', 'oz', 'lb', 'each'))
);
--> statement-breakpoint
CREATE TABLE "service_reports" (
	"company_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"sent_to" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_reports_pkey" PRIMARY KEY("company_id","job_id")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "service_reports_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "pool_volume_gallons" integer;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "pool_surface" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "pool_sanitiser" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "pool_indoor" boolean;--> statement-breakpoint
ALTER TABLE "chem_logs" ADD COLUMN "cyanuric_acid" numeric(5, 1);--> statement-breakpoint
ALTER TABLE "chem_logs" ADD COLUMN "calcium_hardness" numeric(6, 1);--> statement-breakpoint
ALTER TABLE "chem_logs" ADD COLUMN "salt" numeric(6, 0);--> statement-breakpoint
ALTER TABLE "chem_logs" ADD COLUMN "water_temp_f" numeric(4, 1);--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_company_id_id_key" UNIQUE("company_id","id");--> statement-breakpoint
ALTER TABLE "job_chemical_additions" ADD CONSTRAINT "job_chemical_additions_company_job_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_chemical_additions" ADD CONSTRAINT "job_chemical_additions_company_item_fk" FOREIGN KEY ("company_id","inventory_item_id") REFERENCES "public"."inventory_items"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_reports" ADD CONSTRAINT "service_reports_company_job_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_chemical_additions_company_job_idx" ON "job_chemical_additions" USING btree ("company_id","job_id","added_at");--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_pool_volume_range" CHECK ("customers"."pool_volume_gallons" between 100 and 2000000);--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_pool_surface_valid" CHECK ("customers"."pool_surface" in ('plaster', 'vinyl', 'fibreglass'));--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_pool_sanitiser_valid" CHECK ("customers"."pool_sanitiser" in ('chlorine', 'salt'));--> statement-breakpoint
ALTER TABLE "chem_logs" ADD CONSTRAINT "chem_logs_cyanuric_acid_range" CHECK ("chem_logs"."cyanuric_acid" between 0 and 300);--> statement-breakpoint
ALTER TABLE "chem_logs" ADD CONSTRAINT "chem_logs_calcium_hardness_range" CHECK ("chem_logs"."calcium_hardness" between 0 and 2000);--> statement-breakpoint
ALTER TABLE "chem_logs" ADD CONSTRAINT "chem_logs_salt_range" CHECK ("chem_logs"."salt" between 0 and 10000);--> statement-breakpoint
ALTER TABLE "chem_logs" ADD CONSTRAINT "chem_logs_water_temp_range" CHECK ("chem_logs"."water_temp_f" between 32 and 110);