-- The field app (issue #19, OPERATIONS §5): the company's checklist and the ticks saved on each visit, several
-- labelled photos per visit (idempotent by the phone's key), the technician's notes, and who completed the visit.
CREATE TABLE "checklist_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"label" text NOT NULL,
	"position" integer NOT NULL,
	"photo_required" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checklist_items_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "checklist_items_label_not_blank" CHECK (length(trim("checklist_items"."label")) between 1 and 80)
);
--> statement-breakpoint
CREATE TABLE "visit_checks" (
	"company_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"label" text NOT NULL,
	"checked_by" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visit_checks_company_job_item_key" UNIQUE("company_id","job_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "visit_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"label" text NOT NULL,
	"storage_key" text NOT NULL,
	"client_key" uuid,
	"taken_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visit_photos_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "visit_photos_company_client_key" UNIQUE("company_id","client_key"),
	CONSTRAINT "visit_photos_label_valid" CHECK ("visit_photos"."label" in ('before', 'after', 'other'))
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "office_note" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "customer_note" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "completed_by" text;--> statement-breakpoint
ALTER TABLE "checklist_items" ADD CONSTRAINT "checklist_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_checks" ADD CONSTRAINT "visit_checks_checked_by_profiles_id_fk" FOREIGN KEY ("checked_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_checks" ADD CONSTRAINT "visit_checks_company_job_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_checks" ADD CONSTRAINT "visit_checks_company_item_fk" FOREIGN KEY ("company_id","item_id") REFERENCES "public"."checklist_items"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_photos" ADD CONSTRAINT "visit_photos_taken_by_profiles_id_fk" FOREIGN KEY ("taken_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_photos" ADD CONSTRAINT "visit_photos_company_job_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checklist_items_company_position_idx" ON "checklist_items" USING btree ("company_id","position") WHERE "checklist_items"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "visit_photos_company_job_idx" ON "visit_photos" USING btree ("company_id","job_id","created_at");--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_completed_by_profiles_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_office_note_length" CHECK ("jobs"."office_note" is null or length("jobs"."office_note") <= 2000);--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_customer_note_length" CHECK ("jobs"."customer_note" is null or length("jobs"."customer_note") <= 2000);--> statement-breakpoint
-- Every company starts with the checklist that was built in until now (Settings → "Checklist" edits it).
INSERT INTO "checklist_items" ("company_id", "label", "position")
SELECT c."id", d."label", d."position"
FROM "companies" c
CROSS JOIN (VALUES ('Vacuum pool', 1), ('Skim surface and empty baskets', 2), ('Brush walls', 3), ('Test and balance chemicals', 4)) AS d("label", "position");--> statement-breakpoint
-- The before and after photos taken so far become the visits' first labelled photos.
INSERT INTO "visit_photos" ("company_id", "job_id", "label", "storage_key", "created_at")
SELECT "company_id", "id", 'before', "before_url", coalesce("completed_at", "scheduled_at") FROM "jobs" WHERE "before_url" IS NOT NULL
UNION ALL
SELECT "company_id", "id", 'after', "after_url", coalesce("completed_at", "scheduled_at") FROM "jobs" WHERE "after_url" IS NOT NULL;
