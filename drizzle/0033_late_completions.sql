CREATE TABLE "billed_visits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"line_id" uuid NOT NULL,
	"billed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "job_id" uuid;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "visits_counted_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "billed_visits" ADD CONSTRAINT "billed_visits_line_id_invoice_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."invoice_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billed_visits" ADD CONSTRAINT "billed_visits_company_job_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billed_visits" ADD CONSTRAINT "billed_visits_company_invoice_fk" FOREIGN KEY ("company_id","invoice_id") REFERENCES "public"."invoices"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billed_visits_company_job_live_key" ON "billed_visits" USING btree ("company_id","job_id") WHERE "billed_visits"."released_at" is null;--> statement-breakpoint
CREATE INDEX "billed_visits_company_invoice_idx" ON "billed_visits" USING btree ("company_id","invoice_id");--> statement-breakpoint
-- Invoices made before this migration counted their visits when they were created.
UPDATE "invoices" SET "visits_counted_at" = "created_at";