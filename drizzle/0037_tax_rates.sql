CREATE TABLE "tax_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"milli_percent" integer NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_rates_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "tax_rates_name_not_blank" CHECK (length(trim("tax_rates"."name")) > 0),
	CONSTRAINT "tax_rates_milli_percent_range" CHECK ("tax_rates"."milli_percent" between 0 and 30000)
);
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "tax_milli_percent" integer;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "reopened_completion_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "reopened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "service_locations" ADD COLUMN "tax_rate_id" uuid;--> statement-breakpoint
ALTER TABLE "tax_rates" ADD CONSTRAINT "tax_rates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_company_name_key" ON "tax_rates" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_company_default_key" ON "tax_rates" USING btree ("company_id") WHERE "tax_rates"."is_default";--> statement-breakpoint
CREATE INDEX "tax_rates_company_created_idx" ON "tax_rates" USING btree ("company_id","created_at");--> statement-breakpoint
ALTER TABLE "service_locations" ADD CONSTRAINT "service_locations_company_tax_rate_fk" FOREIGN KEY ("company_id","tax_rate_id") REFERENCES "public"."tax_rates"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_locations_company_tax_rate_idx" ON "service_locations" USING btree ("company_id","tax_rate_id");--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_tax_percent_on_tax" CHECK ("invoice_lines"."tax_milli_percent" is null or "invoice_lines"."kind" = 'tax');--> statement-breakpoint
-- Each company's single rate becomes its default named rate; the old column is no longer read (decision 052).
INSERT INTO "tax_rates" ("company_id", "name", "milli_percent", "is_default")
SELECT "id", 'Sales tax', "tax_rate_milli_percent", true FROM "companies" WHERE "tax_rate_milli_percent" > 0;
