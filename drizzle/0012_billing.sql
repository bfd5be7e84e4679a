-- Billing (issue #21, OPERATIONS §7): invoices numbered per company with their lines, payments (unique reference
-- per customer), Stripe events applied once, the company's tax rate, terms and next invoice number, the customer's
-- saved card for autopay, and each stock item's cost. The hand-typed balance becomes an opening-balance invoice per
-- customer (nothing lost); migration 0013 drops the column.
CREATE TABLE "invoice_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"quantity" numeric(10, 2) NOT NULL,
	"unit_cents" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"location_id" uuid,
	"plan_id" uuid,
	CONSTRAINT "invoice_lines_invoice_position_key" UNIQUE("invoice_id","position"),
	CONSTRAINT "invoice_lines_description_not_blank" CHECK (length(trim("invoice_lines"."description")) > 0),
	CONSTRAINT "invoice_lines_kind_valid" CHECK ("invoice_lines"."kind" in ('visits', 'monthly', 'chemicals', 'tax', 'opening-balance'))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"period_start" date,
	"period_end" date,
	"state" text DEFAULT 'draft' NOT NULL,
	"issued_on" date,
	"due_on" date,
	"subtotal_cents" integer NOT NULL,
	"tax_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer NOT NULL,
	"credit_applied_cents" integer DEFAULT 0 NOT NULL,
	"paid_cents" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"autopay_attempts" integer DEFAULT 0 NOT NULL,
	"autopay_next_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "invoices_company_number_key" UNIQUE("company_id","number"),
	CONSTRAINT "invoices_number_positive" CHECK ("invoices"."number" > 0),
	CONSTRAINT "invoices_state_valid" CHECK ("invoices"."state" in ('draft', 'sent', 'void')),
	CONSTRAINT "invoices_period_complete" CHECK (("invoices"."period_start" is null) = ("invoices"."period_end" is null)),
	CONSTRAINT "invoices_period_order" CHECK ("invoices"."period_end" is null or "invoices"."period_end" >= "invoices"."period_start"),
	CONSTRAINT "invoices_sent_has_dates" CHECK ("invoices"."state" = 'draft' or ("invoices"."issued_on" is not null and "invoices"."due_on" is not null)),
	CONSTRAINT "invoices_total_is_sum" CHECK ("invoices"."total_cents" = "invoices"."subtotal_cents" + "invoices"."tax_cents"),
	CONSTRAINT "invoices_credit_applied_range" CHECK ("invoices"."credit_applied_cents" >= 0),
	CONSTRAINT "invoices_paid_non_negative" CHECK ("invoices"."paid_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"invoice_id" uuid,
	"amount_cents" integer NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"received_on" date NOT NULL,
	"method" text NOT NULL,
	"reference" text,
	"flag" text,
	"stripe_payment_intent_id" text,
	"recorded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_cents" > 0),
	CONSTRAINT "payments_refund_range" CHECK ("payments"."refunded_cents" between 0 and "payments"."amount_cents"),
	CONSTRAINT "payments_method_valid" CHECK ("payments"."method" in ('cash', 'check', 'card', 'bank-transfer')),
	CONSTRAINT "payments_reference_not_blank" CHECK ("payments"."reference" is null or length(trim("payments"."reference")) > 0)
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "tax_rate_milli_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "payment_terms_days" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "next_invoice_number" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "autopay_payment_method_id" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "autopay_card_label" text;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD COLUMN "cost_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_company_invoice_fk" FOREIGN KEY ("company_id","invoice_id") REFERENCES "public"."invoices"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_customer_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_recorded_by_profiles_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_company_customer_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_company_invoice_fk" FOREIGN KEY ("company_id","invoice_id") REFERENCES "public"."invoices"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_lines_company_location_idx" ON "invoice_lines" USING btree ("company_id","location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_company_customer_period_key" ON "invoices" USING btree ("company_id","customer_id","period_start") WHERE "invoices"."period_start" is not null and "invoices"."state" <> 'void';--> statement-breakpoint
CREATE INDEX "invoices_company_period_idx" ON "invoices" USING btree ("company_id","period_start","number");--> statement-breakpoint
CREATE INDEX "invoices_company_customer_idx" ON "invoices" USING btree ("company_id","customer_id","number");--> statement-breakpoint
CREATE INDEX "invoices_company_issued_idx" ON "invoices" USING btree ("company_id","issued_on");--> statement-breakpoint
CREATE INDEX "invoices_company_due_idx" ON "invoices" USING btree ("company_id","due_on") WHERE "invoices"."state" = 'sent';--> statement-breakpoint
CREATE UNIQUE INDEX "payments_company_customer_reference_key" ON "payments" USING btree ("company_id","customer_id","reference") WHERE "payments"."reference" is not null;--> statement-breakpoint
CREATE INDEX "payments_company_received_idx" ON "payments" USING btree ("company_id","received_on");--> statement-breakpoint
CREATE INDEX "payments_company_customer_idx" ON "payments" USING btree ("company_id","customer_id","received_on");--> statement-breakpoint
CREATE INDEX "payments_company_invoice_idx" ON "payments" USING btree ("company_id","invoice_id");--> statement-breakpoint
CREATE INDEX "payments_stripe_payment_intent_idx" ON "payments" USING btree ("stripe_payment_intent_id") WHERE "payments"."stripe_payment_intent_id" is not null;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_tax_rate_range" CHECK ("companies"."tax_rate_milli_percent" between 0 and 30000);--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_payment_terms_range" CHECK ("companies"."payment_terms_days" between 0 and 120);--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_next_invoice_number_positive" CHECK ("companies"."next_invoice_number" > 0);--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_cost_non_negative" CHECK ("inventory_items"."cost_cents" >= 0);--> statement-breakpoint
INSERT INTO "invoices" ("id", "company_id", "customer_id", "number", "state", "issued_on", "due_on", "subtotal_cents", "total_cents", "sent_at")
SELECT gen_random_uuid(), c."company_id", c."id",
  row_number() OVER (PARTITION BY c."company_id" ORDER BY c."created_at", c."id"),
  'sent', (now() AT TIME ZONE co."timezone")::date, (now() AT TIME ZONE co."timezone")::date,
  c."balance_due", c."balance_due", now()
FROM "customers" c JOIN "companies" co ON co."id" = c."company_id"
WHERE c."balance_due" <> 0;--> statement-breakpoint
INSERT INTO "invoice_lines" ("company_id", "invoice_id", "position", "kind", "description", "quantity", "unit_cents", "amount_cents")
SELECT i."company_id", i."id", 1, 'opening-balance', 'Opening balance', 1, i."total_cents", i."total_cents"
FROM "invoices" i;--> statement-breakpoint
UPDATE "companies" co SET "next_invoice_number" = n.count + 1
FROM (SELECT "company_id", count(*)::integer AS count FROM "invoices" GROUP BY "company_id") n
WHERE n."company_id" = co."id";