CREATE TABLE "time_events" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"technician_id" text NOT NULL,
	"work_date" date NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"replaces_id" uuid,
	"reason" text,
	"recorded_by" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "time_events_pkey" PRIMARY KEY("company_id","id"),
	CONSTRAINT "time_events_kind_valid" CHECK ("time_events"."kind" in ('start', 'break-start', 'break-end', 'end')),
	CONSTRAINT "time_events_source_valid" CHECK ("time_events"."source" in ('phone', 'office')),
	CONSTRAINT "time_events_office_has_reason" CHECK ("time_events"."source" = 'phone' or ("time_events"."reason" is not null and length(trim("time_events"."reason")) > 0)),
	CONSTRAINT "time_events_reason_length" CHECK ("time_events"."reason" is null or length("time_events"."reason") <= 500)
);
--> statement-breakpoint
CREATE TABLE "timesheet_approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"technician_id" text NOT NULL,
	"week_start" date NOT NULL,
	"seq" integer NOT NULL,
	"action" text NOT NULL,
	"reason" text,
	"acted_by" text,
	"acted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "timesheet_approvals_action_valid" CHECK ("timesheet_approvals"."action" in ('approve', 'reopen')),
	CONSTRAINT "timesheet_approvals_reopen_has_reason" CHECK ("timesheet_approvals"."action" = 'approve' or ("timesheet_approvals"."reason" is not null and length(trim("timesheet_approvals"."reason")) > 0)),
	CONSTRAINT "timesheet_approvals_seq_positive" CHECK ("timesheet_approvals"."seq" > 0)
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "on_my_way_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "completed_on_phone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "time_events" ADD CONSTRAINT "time_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_events" ADD CONSTRAINT "time_events_technician_id_profiles_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_events" ADD CONSTRAINT "time_events_recorded_by_profiles_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_events" ADD CONSTRAINT "time_events_replaces_fk" FOREIGN KEY ("company_id","replaces_id") REFERENCES "public"."time_events"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_approvals" ADD CONSTRAINT "timesheet_approvals_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_approvals" ADD CONSTRAINT "timesheet_approvals_technician_id_profiles_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_approvals" ADD CONSTRAINT "timesheet_approvals_acted_by_profiles_id_fk" FOREIGN KEY ("acted_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "time_events_company_technician_date_idx" ON "time_events" USING btree ("company_id","technician_id","work_date","at");--> statement-breakpoint
CREATE UNIQUE INDEX "time_events_company_phone_day_key" ON "time_events" USING btree ("company_id","technician_id","work_date","kind") WHERE "time_events"."source" = 'phone' and "time_events"."kind" in ('start', 'end');--> statement-breakpoint
CREATE UNIQUE INDEX "time_events_company_replaces_key" ON "time_events" USING btree ("company_id","replaces_id") WHERE "time_events"."replaces_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "timesheet_approvals_company_week_seq_key" ON "timesheet_approvals" USING btree ("company_id","technician_id","week_start","seq");--> statement-breakpoint
CREATE INDEX "timesheet_approvals_company_week_idx" ON "timesheet_approvals" USING btree ("company_id","week_start");