-- Billing for the owner (issue #21 items 5, 7): the company's Pool Bud plan (Settings → "Plan"; existing companies
-- start on Starter, the pricing page's entry plan), and "Change prices": each applied change, and every plan's rate
-- history (the rate each change replaced), so a month is invoiced at the rate in force when it starts.
--> statement-breakpoint
--> statement-breakpoint
CREATE TABLE "plan_rate_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"price_change_id" uuid NOT NULL,
	"effective_on" date NOT NULL,
	"from_rate_cents" integer NOT NULL,
	"to_rate_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_rate_changes_rates_non_negative" CHECK ("plan_rate_changes"."from_rate_cents" >= 0 and "plan_rate_changes"."to_rate_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "price_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"effective_on" date NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"plan_count" integer NOT NULL,
	"customers_notified" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_changes_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "price_changes_kind_valid" CHECK ("price_changes"."kind" in ('percent', 'amount')),
	CONSTRAINT "price_changes_percent_above_minus_100" CHECK ("price_changes"."kind" <> 'percent' or "price_changes"."amount" > -10000),
	CONSTRAINT "price_changes_plan_count_positive" CHECK ("price_changes"."plan_count" > 0)
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "plan" text DEFAULT 'starter' NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_rate_changes" ADD CONSTRAINT "plan_rate_changes_company_plan_fk" FOREIGN KEY ("company_id","plan_id") REFERENCES "public"."service_plans"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_rate_changes" ADD CONSTRAINT "plan_rate_changes_company_price_change_fk" FOREIGN KEY ("company_id","price_change_id") REFERENCES "public"."price_changes"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_rate_changes_company_plan_idx" ON "plan_rate_changes" USING btree ("company_id","plan_id","effective_on");--> statement-breakpoint
CREATE INDEX "price_changes_company_created_idx" ON "price_changes" USING btree ("company_id","created_at");--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_plan_valid" CHECK ("companies"."plan" in ('starter', 'team', 'business'));