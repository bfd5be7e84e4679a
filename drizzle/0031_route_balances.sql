CREATE TABLE "route_balance_moves" (
	"company_id" uuid NOT NULL,
	"balance_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"from_technician_id" text,
	"from_position" integer,
	"from_moved_at" timestamp with time zone,
	"to_technician_id" text,
	"to_position" integer NOT NULL,
	CONSTRAINT "route_balance_moves_company_id_balance_id_job_id_pk" PRIMARY KEY("company_id","balance_id","job_id")
);
--> statement-breakpoint
CREATE TABLE "route_balances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"covered_technician_id" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone,
	"undone_by" text,
	CONSTRAINT "route_balances_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "route_balances_kind_valid" CHECK ("route_balances"."kind" in ('balance', 'cover'))
);
--> statement-breakpoint
ALTER TABLE "route_balance_moves" ADD CONSTRAINT "route_balance_moves_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "route_balance_moves" ADD CONSTRAINT "route_balance_moves_company_balance_fk" FOREIGN KEY ("company_id","balance_id") REFERENCES "public"."route_balances"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "route_balance_moves" ADD CONSTRAINT "route_balance_moves_company_job_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "route_balances" ADD CONSTRAINT "route_balances_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "route_balances" ADD CONSTRAINT "route_balances_covered_technician_id_profiles_id_fk" FOREIGN KEY ("covered_technician_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "route_balances" ADD CONSTRAINT "route_balances_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "route_balances" ADD CONSTRAINT "route_balances_undone_by_profiles_id_fk" FOREIGN KEY ("undone_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "route_balance_moves_company_job_idx" ON "route_balance_moves" USING btree ("company_id","job_id");--> statement-breakpoint
CREATE INDEX "route_balances_company_day_idx" ON "route_balances" USING btree ("company_id","day");